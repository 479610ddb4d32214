import { useEffect, useRef, useState } from 'react';
import { currentToken } from '../session-store';

export type EventStreamState = 'connecting' | 'live' | 'reconnecting' | 'ended';

/**
 * A Server-Sent Events route of the API, followed while the component is shown: the access token in
 * the query (EventSource sends no headers), `last_event_id` on every reconnect so nothing is missed
 * or repeated. A refused or dropped stream (an access token that expired, a restart) reopens with the
 * current token after a second; the server's `end` event for removed access or an ended sign-in
 * stops it for good. `handlers` get each named event's data and id.
 */
export function useEventStream(
  path: string,
  handlers: Record<string, (data: string, id: string) => void>,
): EventStreamState {
  const [state, setState] = useState<EventStreamState>('connecting');
  // The latest handlers, without reopening the stream when they change.
  const current = useRef(handlers);
  current.current = handlers;
  const names = Object.keys(handlers).join(',');
  useEffect(() => {
    let source: EventSource | undefined;
    let retry: number | undefined;
    let closed = false;
    let last: string | undefined;
    const open = () => {
      const after = last ? `&last_event_id=${encodeURIComponent(last)}` : '';
      source = new EventSource(`${path}?token=${encodeURIComponent(currentToken() ?? '')}${after}`);
      source.onopen = () => setState('live');
      for (const name of names.split(',')) {
        source.addEventListener(name, (event) => {
          const message = event as MessageEvent<string>;
          if (message.lastEventId) last = message.lastEventId;
          current.current[name]?.(message.data, message.lastEventId);
        });
      }
      source.addEventListener('end', (event) => {
        const { reason } = JSON.parse((event as MessageEvent<string>).data) as { reason: string };
        if (reason === 'forbidden' || reason === 'unauthenticated') {
          closed = true;
          source?.close();
          setState('ended');
        }
      });
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
  }, [path, names]);
  return state;
}
