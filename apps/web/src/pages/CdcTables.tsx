import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../ErrorNotice';
import { currentToken } from '../session-store';

interface LogLine {
  id: string;
  ts: string;
  level: string;
  message: string;
}

/** The live log of one CDC table: Server-Sent Events with the access token in the query (EventSource sends no headers). */
function LiveLog({ id }: { id: string }) {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [state, setState] = useState<'connecting' | 'live' | 'reconnecting'>('connecting');
  const last = useRef<string | undefined>(undefined);
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: number | undefined;
    let closed = false;
    const open = () => {
      const after = last.current ? `&last_event_id=${last.current}` : '';
      source = new EventSource(`/api/v1/cdc-tables/${id}/logs/stream?token=${encodeURIComponent(currentToken() ?? '')}${after}`);
      source.onopen = () => setState('live');
      source.addEventListener('log', (event) => {
        const line = JSON.parse((event as MessageEvent<string>).data) as LogLine;
        last.current = line.id;
        setLines((previous) => [...previous.slice(-499), line]);
      });
      // A refused or dropped stream (an access token that expired): reopen with the current token, from the last line seen.
      source.onerror = () => {
        source?.close();
        if (closed) return;
        setState('reconnecting');
        retry = window.setTimeout(open, 1000);
      };
    };
    open();
    return () => {
      closed = true;
      window.clearTimeout(retry);
      source?.close();
    };
  }, [id]);
  return (
    <section className="card" aria-labelledby="live-log">
      <h2 id="live-log">
        Live log <span className="muted">({state})</span>
      </h2>
      {lines.length === 0 ? <p className="empty">No lines yet.</p> : null}
      <ol className="log" aria-live="polite">
        {lines.map((line) => (
          <li key={line.id} className={`level-${line.level}`}>
            <time dateTime={line.ts}>{new Date(line.ts).toLocaleTimeString()}</time> {line.message}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function CdcTables() {
  const tables = useQuery({ queryKey: ['cdc-tables'], queryFn: () => unwrap(api.GET('/api/v1/cdc-tables')), refetchInterval: 3000 });
  const [selected, setSelected] = useState<string | undefined>();
  if (tables.isPending) return <p aria-busy="true">Loading…</p>;
  if (tables.error) return <ErrorNotice error={tables.error} />;
  if (tables.data.items.length === 0) return <p className="empty">No CDC tables yet.</p>;
  return (
    <>
      <div className="table-wrap" tabIndex={0}>
        <table>
          <caption className="visually-hidden">CDC tables</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Lag</th>
              <th scope="col">Changes applied</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tables.data.items.map((table) => (
              <tr key={table.id} aria-selected={table.id === selected}>
                <td>{table.name}</td>
                <td>
                  <span className={`status ${table.status}`}>{table.status}</span>
                  {table.last_error ? <div className="muted">{table.last_error}</div> : null}
                </td>
                <td>{table.lag_seconds === null ? '—' : `${table.lag_seconds.toFixed(1)} s`}</td>
                <td>{table.changes_applied.toLocaleString()}</td>
                <td>
                  <Button className="secondary" aria-label={`Show the live log of ${table.name}`} onPress={() => setSelected(table.id)}>
                    Live log
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {selected ? <LiveLog key={selected} id={selected} /> : null}
    </>
  );
}
