import type { ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';

/**
 * The states of a read, in one place and one order: loading, the error (of the read or of an action
 * on what it shows, with the request id to quote), and the empty message once it found nothing.
 */
export function QueryState({ pending, error, empty }: { pending?: boolean; error?: unknown; empty?: ReactNode }) {
  return (
    <>
      {pending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={error} />
      {empty ? <p className="empty">{empty}</p> : null}
    </>
  );
}
