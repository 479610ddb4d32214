import { useState } from 'react';
import { useConnectors, useProjects } from '../../api/queries';

/**
 * The project, source and destination connector a form moving data chooses: choosing another
 * project clears both connectors (they belong to a project); `inProject` lists the project's
 * connectors, of the given kinds when told.
 */
export function useProjectConnectors() {
  const projects = useProjects();
  const connectors = useConnectors();
  const [project, setProject] = useState<string | undefined>();
  const [source, setSource] = useState<string | undefined>();
  const [destination, setDestination] = useState<string | undefined>();
  return {
    projects: projects.data?.items ?? [],
    project,
    source,
    setSource,
    destination,
    setDestination,
    chooseProject: (id: string) => {
      setProject(id);
      setSource(undefined);
      setDestination(undefined);
    },
    inProject: (kinds?: string[]) =>
      (connectors.data?.items ?? []).filter((c) => c.project_id === project && (!kinds || kinds.includes(c.kind))),
  };
}
