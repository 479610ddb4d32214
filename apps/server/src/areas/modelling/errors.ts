/** The modelling area's errors (warehouse models, AI providers). */
import { conflict, connectorFailed, defineError, validationFailed } from '../../platform/errors/index.js';

export const MODEL = 'Warehouse model';

export const modelNameTaken = (name: string) =>
  conflict(`A warehouse model named "${name}" already exists in this project`);
export const modelHasDependents = (name: string, dependents: string[]) =>
  conflict(`Models refer to "${name}": ${dependents.join(', ')}; change their SQL first`);
export const MODEL_SCHEDULE = 'Model schedule';
export const modelScheduleNameTaken = (name: string) =>
  conflict(`A model schedule named "${name}" already exists in this project`);
export const modelPreviewFailed = (code: string, message: string) =>
  connectorFailed(`Preview failed (${code}): ${message}`, [{ path: 'sql', message }], code);
/** Models run in the built-in warehouse: without it (see the startup log) they cannot compile to a relation or run. */
export const warehouseUnavailable = () =>
  validationFailed([
    { path: 'project_id', message: 'the built-in warehouse is unavailable on this instance (see the startup log)' },
  ]);

export const AI_PROVIDER = 'AI provider';
export const aiProviderNameTaken = (name: string) => conflict(`An AI provider named "${name}" already exists here`);
export const aiProviderDisabled = () => conflict('The AI provider is disabled');
/** Our own limit of the provider (requests per minute, tokens per month): refused before any call. */
export const aiLimitReached = defineError('ai_limit_reached', 429, (detail: string) => ({
  detail: `AI provider limit reached: ${detail}`,
  headers: { 'Retry-After': '60' },
}));
/** The provider failed (after retries): its status, never its body or our key. */
export const aiProviderFailed = (message: string) =>
  connectorFailed(`The AI provider failed: ${message}`, [{ path: 'provider', message }], 'provider_failed');
/** The model's answer did not pass its checks; nothing is shown of it. */
export const aiAnswerInvalid = (message: string) =>
  connectorFailed(`The AI answer was rejected: ${message}`, [{ path: 'answer', message }], 'invalid_output');
