/** The modelling area's errors (warehouse models). */
import { conflict, connectorFailed, validationFailed } from '../../platform/errors/index.js';

export const MODEL = 'Warehouse model';

export const modelNameTaken = (name: string) =>
  conflict(`A warehouse model named "${name}" already exists in this project`);
export const modelHasDependents = (name: string, dependents: string[]) =>
  conflict(`Models refer to "${name}": ${dependents.join(', ')}; change their SQL first`);
export const modelPreviewFailed = (code: string, message: string) =>
  connectorFailed(`Preview failed (${code}): ${message}`, [{ path: 'sql', message }], code);
/** Models run in the built-in warehouse: without it (see the startup log) they cannot compile to a relation or run. */
export const warehouseUnavailable = () =>
  validationFailed([
    { path: 'project_id', message: 'the built-in warehouse is unavailable on this instance (see the startup log)' },
  ]);
