/** The ETL area's errors (pipelines and schedules). */
import { conflict, connectorFailed } from '../../platform/errors/index.js';

export const PIPELINE = 'Pipeline';
export const SCHEDULE = 'Schedule';

export const pipelineNameTaken = (name: string) =>
  conflict(`A pipeline named "${name}" already exists in this project`);
export const pipelineBusy = () => conflict('The pipeline already has a queued or running execution');
export const pipelineHasDependents = (names: string[]) =>
  conflict(`Pipelines depend on this one: ${names.join(', ')}; remove the dependency first`);
export const pipelineRunning = () => conflict('The pipeline has a queued or running execution; cancel it first');
export const previewFailed = (code: string, message: string) =>
  connectorFailed(`Preview failed (${code}): ${message}`, [{ path: 'sources', message }], code);
export const scheduleExists = () => conflict('The pipeline already has a schedule; change that one');
