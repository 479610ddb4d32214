/** The operations area's errors. */
import { conflict } from '../../platform/errors/index.js';

export const EXECUTION = 'Execution';

export const pipelineBusy = () => conflict('The pipeline already has a queued or running execution');
export const executionFinished = (status: string) => conflict(`The execution has already ${status}`);
export const notRetryable = (status: string) =>
  conflict(`Only a failed or cancelled execution can be retried; this one is ${status}`);
