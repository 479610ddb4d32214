/** The ingestion area's errors. */
import { conflict, connectorFailed } from '../../platform/errors/index.js';

export const CDC_TABLE = 'CDC table';

export const cdcNameTaken = (name: string) => conflict(`A CDC table named "${name}" already exists in this project`);

export const slotDropFailed = (message: string) =>
  connectorFailed(
    `Could not drop the replication slot at the source: ${message}. Fix the connection and delete again, or delete with force=true and drop the slot yourself`,
    [{ path: 'source.connector_id', message }],
  );
