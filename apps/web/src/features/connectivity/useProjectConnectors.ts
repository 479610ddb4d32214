import { useState } from 'react';
import { useConnectors } from '../../api/queries';
import { useCurrentProject } from '../../project-context';

/**
 * The source and destination connector a form moving data chooses, in the current project (the
 * shell's project switcher): switching the project clears both connectors (they belong to a
 * project); `inProject` lists the project's connectors, of the given kinds when told.
 */
export function useProjectConnectors() {
  const current = useCurrentProject();
  const connectors = useConnectors();
  const project = current.projectId;
  const [chosen, setChosen] = useState<{ project?: string; source?: string; destination?: string }>({});
  // Choices made in another project are dropped once the project changes.
  const same = chosen.project === project;
  return {
    projects: current.projects,
    project,
    source: same ? chosen.source : undefined,
    setSource: (source: string | undefined) =>
      setChosen((now) => ({ ...(now.project === project ? now : {}), project, source })),
    destination: same ? chosen.destination : undefined,
    setDestination: (destination: string | undefined) =>
      setChosen((now) => ({ ...(now.project === project ? now : {}), project, destination })),
    /** Switches the current project (of every screen). */
    chooseProject: (id: string) => {
      current.setProjectId(id);
      setChosen({ project: id });
    },
    inProject: (kinds?: string[]) =>
      (connectors.data?.items ?? []).filter((c) => c.project_id === project && (!kinds || kinds.includes(c.kind))),
  };
}
