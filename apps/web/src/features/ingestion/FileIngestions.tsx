import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';

/** One file ingestion's load history: a row per file, with a reload of a kept file. */
function FileHistory({ id, name }: { id: string; name: string }) {
  const queries = useQueryClient();
  const files = useQuery({
    queryKey: ['file-ingestions', id, 'files'],
    queryFn: () => unwrap(api.GET('/api/v1/file-ingestions/{id}/files', { params: { path: { id } } })),
    refetchInterval: 3000,
  });
  const reload = useMutation({
    mutationFn: (fileId: string) =>
      unwrap(
        api.POST('/api/v1/file-ingestions/{id}/files/{file_id}/reload', { params: { path: { id, file_id: fileId } } }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['file-ingestions', id, 'files'] }),
  });
  return (
    <Card id="file-history" title={`Files of ${name}`}>
      <DataTable
        caption={`Load history of ${name}`}
        rows={files.data?.items}
        rowKey={(file) => file.id}
        pending={files.isPending}
        error={files.error ?? reload.error}
        empty="No files yet."
        columns={[
          { header: 'File', cell: (file) => file.name },
          { header: 'Status', cell: (file) => <span className={`status ${file.status}`}>{file.status}</span> },
          { header: 'Size', cell: (file) => file.size.toLocaleString() },
          {
            header: 'Rows loaded',
            cell: (file) => `${file.rows_loaded.toLocaleString()} of ${file.rows_parsed.toLocaleString()}`,
          },
          {
            header: 'Errors',
            cell: (file) =>
              file.first_error
                ? `${file.error_count}: line ${file.first_error.line}${file.first_error.column ? `, ${file.first_error.column}` : ''}: ${file.first_error.message}`
                : file.error_count,
          },
          { header: 'Received', cell: (file) => new Date(file.created_at).toLocaleString() },
        ]}
        actions={(file) =>
          file.available ? (
            <Button
              className="secondary"
              aria-label={`Reload ${file.name}`}
              onPress={() => reload.mutate(file.id)}
              isDisabled={reload.isPending}
            >
              Reload
            </Button>
          ) : null
        }
      />
    </Card>
  );
}

/** File ingestions: their sources and destinations, a look at a folder or bucket now, and each one's file history. */
export function FileIngestions() {
  const queries = useQueryClient();
  const list = useQuery({
    queryKey: ['file-ingestions'],
    queryFn: () => unwrap(api.GET('/api/v1/file-ingestions')),
  });
  const [selected, setSelected] = useState<{ id: string; name: string } | undefined>();
  const run = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/file-ingestions/{id}/run', { params: { path: { id } } })),
    onSuccess: (_r, id) => void queries.invalidateQueries({ queryKey: ['file-ingestions', id, 'files'] }),
  });
  return (
    <>
      <DataTable
        caption="File ingestions"
        rows={list.data?.items}
        rowKey={(row) => row.id}
        rowProps={(row) => ({ 'aria-selected': row.id === selected?.id })}
        pending={list.isPending}
        error={list.error ?? run.error}
        empty="No file ingestions yet. Create one with POST /api/v1/file-ingestions (see docs/ingestion.md)."
        columns={[
          { header: 'Name', cell: (row) => row.name },
          { header: 'Source', cell: (row) => row.source.kind },
          { header: 'Format', cell: (row) => String(row.format['type'] ?? '') },
          { header: 'Destination table', cell: (row) => String(row.destination['table'] ?? '') },
          { header: 'On error', cell: (row) => row.on_error },
        ]}
        actions={(row) => (
          <div className="row">
            <Button
              className="secondary"
              aria-label={`Show the files of ${row.name}`}
              onPress={() => setSelected({ id: row.id, name: row.name })}
            >
              Files
            </Button>
            {row.source.kind !== 'upload' ? (
              <Button
                className="secondary"
                aria-label={`Look for new files of ${row.name} now`}
                onPress={() => run.mutate(row.id)}
                isDisabled={run.isPending}
              >
                Run
              </Button>
            ) : null}
          </div>
        )}
      />
      {selected ? <FileHistory key={selected.id} id={selected.id} name={selected.name} /> : null}
    </>
  );
}
