import { useInfiniteQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';

/** The audit log, newest first, a page at a time (administrators). */
export function AuditLog() {
  const log = useInfiniteQuery({
    queryKey: ['audit-log'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => unwrap(api.GET('/api/v1/audit-log', { params: { query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
  if (log.isPending) return <p aria-busy="true">Loading…</p>;
  if (log.error) return <ErrorNotice error={log.error} />;
  const events = log.data.pages.flatMap((page) => page.items);
  if (events.length === 0) return <p className="empty">No events yet.</p>;
  return (
    <>
      <div className="table-wrap" tabIndex={0}>
        <table>
          <caption className="visually-hidden">Audit events, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Target</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id}>
                <td>{new Date(event.occurred_at).toLocaleString()}</td>
                <td>{event.kind}</td>
                <td>{event.target_type ? `${event.target_type} ${event.target_id ?? ''}` : '—'}</td>
                <td>{event.client_address ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {log.hasNextPage ? (
        <Button className="secondary" onPress={() => void log.fetchNextPage()} isDisabled={log.isFetchingNextPage}>
          Older events
        </Button>
      ) : null}
    </>
  );
}
