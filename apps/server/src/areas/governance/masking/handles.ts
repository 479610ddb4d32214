/** A connector handle whose reads come out masked: what a preview reads for a viewer without the exemption. */
import type { ConnectorHandle } from '@svc/engine';
import type { ProjectMasker } from './service.js';

export function maskedHandle(handle: ConnectorHandle, masker: ProjectMasker): ConnectorHandle {
  if (!masker.active || !handle.read) return handle;
  const read = handle.read.bind(handle);
  return {
    ...handle,
    // No bulk path: every value goes through the masker.
    exportBulk: undefined,
    close: () => handle.close(),
    async *read(request, signal) {
      for await (const batch of read(request, signal)) {
        const mask = masker.columns(batch.columns);
        yield mask ? { columns: batch.columns, rows: batch.rows.map((row) => mask.row(row)) } : batch;
      }
    },
  } as ConnectorHandle;
}
