/** The project a new item goes into, or that one must be chosen first (in the project switcher). */
export function ProjectNote({ project }: { project: { name: string } | undefined }) {
  return (
    <p className="muted">
      {project ? `In project ${project.name}.` : 'Choose a project in the project switcher first.'}
    </p>
  );
}
