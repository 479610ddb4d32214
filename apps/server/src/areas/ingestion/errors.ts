/** The ingestion area's errors. */
import { conflict, connectorFailed, defineError, validationFailed } from '../../platform/errors/index.js';

export const CDC_TABLE = 'CDC table';

export const cdcNameTaken = (name: string) => conflict(`A CDC table named "${name}" already exists in this project`);

export const slotDropFailed = (message: string) =>
  connectorFailed(
    `Could not drop the replication slot at the source: ${message}. Fix the connection and delete again, or delete with force=true and drop the slot yourself`,
    [{ path: 'source.connector_id', message }],
  );

export const FILE_INGESTION = 'File ingestion';
export const INGESTED_FILE = 'File';

export const fileIngestionNameTaken = (name: string) =>
  conflict(`A file ingestion named "${name}" already exists in this project`);

/** A body or file over its limit: 413 with the error envelope. */
export const payloadTooLarge = defineError('payload_too_large', 413, (limit: number, what: string) => ({
  detail: `${what} is larger than ${limit} bytes`,
}));

export const notAnUploadIngestion = () =>
  conflict(
    'This file ingestion reads a folder, a bucket or an SFTP directory; files are uploaded only to ingestions whose source is upload',
  );

export const notAFolderIngestion = () =>
  conflict(
    'This file ingestion takes uploads; only ingestions with a folder, S3 or SFTP source look for files on request',
  );

export const fileGone = () =>
  conflict('The file is no longer kept (deleted after loading, or moved away); upload it again to load it');

export const unsupportedMedia = defineError('unsupported_media_type', 415, () => ({
  detail: 'Send the file as multipart/form-data (a field named "file")',
}));

export const noFile = () => validationFailed([{ path: 'file', message: 'is required: one file part' }]);

export const EMAIL_FEED = 'E-mail feed';
export const EMAIL_MESSAGE = 'Message';

export const emailFeedNameTaken = (name: string) =>
  conflict(`An e-mail feed named "${name}" already exists in this project`);
