import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { DataTable } from '../../components/DataTable';

/** The audit log, newest first, a page at a time (administrators). */
export function AuditLog() {
  const log = useInfiniteQuery({
    queryKey: ['audit-log'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/audit-log', { params: { query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } }),
      ),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  return (
    <DataTable
      caption="Audit events, newest first"
      rows={log.data?.pages.flatMap((page) => page.items)}
      rowKey={(event) => event.id}
      pending={log.isPending}
      error={log.error}
      empty="No events yet."
      columns={[
        { header: 'When', cell: (event) => new Date(event.occurred_at).toLocaleString() },
        { header: 'Event', cell: (event) => event.kind },
        {
          header: 'Target',
          cell: (event) => (event.target_type ? `${event.target_type} ${event.target_id ?? ''}` : '—'),
        },
        { header: 'From', cell: (event) => event.client_address ?? '—' },
      ]}
      more={log}
      moreLabel="Older events"
    />
  );
}
