import { ApiError } from '../api/client';

/** An error as the API reported it: its detail, field errors and the request id to quote. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const envelope =
    error instanceof ApiError ? error.envelope : { detail: (error as Error).message ?? String(error), request_id: '' };
  return (
    <div role="alert" className="error">
      <p>{envelope.detail}</p>
      {'errors' in envelope && envelope.errors?.length ? (
        <ul>
          {envelope.errors.map((e) => (
            <li key={e.path}>
              <code>{e.path}</code> {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      {envelope.request_id ? (
        <p className="muted">
          Request id: <code>{envelope.request_id}</code>
        </p>
      ) : null}
    </div>
  );
}
