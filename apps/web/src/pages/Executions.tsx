import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Button } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../ErrorNotice';

type Status = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
const STATUSES: Status[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export function Executions() {
  const [status, setStatus] = useState<Status | 'all'>('all');
  const executions = useQuery({
    queryKey: ['executions', status],
    queryFn: () => unwrap(api.GET('/api/v1/executions', { params: { query: status === 'all' ? {} : { status } } })),
    refetchInterval: 2000,
  });
  return (
    <>
      <Select selectedKey={status} onSelectionChange={(key) => setStatus(key as Status | 'all')}>
        <Label>Status</Label>
        <Button>
          <SelectValue />
        </Button>
        <Popover>
          <ListBox>
            <ListBoxItem id="all">All</ListBoxItem>
            {STATUSES.map((s) => (
              <ListBoxItem key={s} id={s}>
                {s}
              </ListBoxItem>
            ))}
          </ListBox>
        </Popover>
      </Select>
      {executions.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={executions.error} />
      {executions.data && executions.data.items.length === 0 ? <p className="empty">No executions{status === 'all' ? '' : ` with status ${status}`}.</p> : null}
      {executions.data?.items.length ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Executions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
                <th scope="col">Rows written</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {executions.data.items.map((execution) => (
                <tr key={execution.id}>
                  <td>{execution.kind}</td>
                  <td>
                    <span className={`status ${execution.status}`}>{execution.status}</span>
                  </td>
                  <td>{execution.started_at ? new Date(execution.started_at).toLocaleString() : '—'}</td>
                  <td>{execution.rows_written.toLocaleString()}</td>
                  <td>{execution.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
