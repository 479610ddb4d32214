/** The governance area's errors. */
import { conflict } from '../../platform/errors/index.js';

export const DATASET = 'Dataset';
export const RETENTION_POLICY = 'Retention policy';

export const retentionPolicyNameTaken = (name: string) =>
  conflict(`A retention policy named "${name}" already exists here`);
export const sweepActive = () => conflict('A sweep of this policy is already queued or running');
