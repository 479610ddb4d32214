import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';

type Inbox = {
  id: string;
  name: string;
  receive_path: string;
  auth: { kind: string; [key: string]: unknown };
  content_types: string[];
};

/** A curl command that sends one JSON object to the inbox, with its kind of credential as placeholders. */
function curlOf(inbox: Inbox): string {
  const url = `${window.location.origin}${inbox.receive_path}`;
  const auth =
    inbox.auth.kind === 'bearer'
      ? `-H "Authorization: Bearer $INBOX_TOKEN"`
      : inbox.auth.kind === 'basic'
        ? `-u "${String(inbox.auth['username'] ?? 'user')}:$INBOX_PASSWORD"`
        : `-H "${String(inbox.auth['header'] ?? 'X-Signature')}: $SIGNATURE"`;
  return `curl -X POST '${url}' ${auth} -H 'Content-Type: application/json' -d '{"id": 1}'`;
}

/** One inbox: its URL, a curl example to copy, and every request it received, with replay. */
function InboxDetail({ inbox }: { inbox: Inbox }) {
  const queries = useQueryClient();
  const [copied, setCopied] = useState(false);
  const requests = useQuery({
    queryKey: ['inboxes', inbox.id, 'requests'],
    queryFn: () => unwrap(api.GET('/api/v1/inboxes/{id}/requests', { params: { path: { id: inbox.id } } })),
    refetchInterval: 3000,
  });
  const replay = useMutation({
    mutationFn: (requestId: string) =>
      unwrap(
        api.POST('/api/v1/inboxes/{id}/requests/{request_id}/replay', {
          params: { path: { id: inbox.id, request_id: requestId } },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['inboxes', inbox.id, 'requests'] }),
  });
  const curl = curlOf(inbox);
  return (
    <Card id="inbox-detail" title={`Inbox ${inbox.name}`}>
      <p style={{ overflowWrap: 'anywhere' }}>
        URL: <code>{`${window.location.origin}${inbox.receive_path}`}</code>
      </p>
      <pre aria-label="curl example" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {curl}
      </pre>
      <Button
        className="secondary"
        onPress={() => {
          void navigator.clipboard?.writeText(curl).then(() => setCopied(true));
        }}
      >
        Copy the curl example
      </Button>
      <span role="status">{copied ? ' Copied.' : ''}</span>
      <DataTable
        caption={`Requests of ${inbox.name}`}
        rows={requests.data?.items}
        rowKey={(request) => request.id}
        pending={requests.isPending}
        error={requests.error ?? replay.error}
        empty="No requests yet."
        columns={[
          { header: 'Received', cell: (request) => new Date(request.received_at).toLocaleString() },
          {
            header: 'Status',
            cell: (request) => (
              <>
                <span className={`status ${request.status}`}>{request.status}</span>
                {request.reason ? <div className="muted">{request.reason}</div> : null}
              </>
            ),
          },
          { header: 'Size', cell: (request) => request.size.toLocaleString() },
          { header: 'Duplicate', cell: (request) => (request.dedupe_hit ? 'yes' : 'no') },
          { header: 'Load', cell: (request) => request.load_status ?? '—' },
          { header: 'Rows', cell: (request) => request.rows_loaded },
        ]}
        actions={(request) =>
          request.status === 'accepted' && request.body_kept ? (
            <Button
              className="secondary"
              aria-label={`Replay the request of ${new Date(request.received_at).toLocaleString()}`}
              onPress={() => replay.mutate(request.id)}
              isDisabled={replay.isPending}
            >
              Replay
            </Button>
          ) : null
        }
      />
    </Card>
  );
}

/** Inboxes: HTTP endpoints that receive data; each one's URL, curl example and request history. */
export function Inboxes() {
  const list = useQuery({ queryKey: ['inboxes'], queryFn: () => unwrap(api.GET('/api/v1/inboxes')) });
  const [selected, setSelected] = useState<string | undefined>();
  const current = list.data?.items.find((inbox) => inbox.id === selected);
  return (
    <>
      <DataTable
        caption="Inboxes"
        rows={list.data?.items}
        rowKey={(inbox) => inbox.id}
        rowProps={(inbox) => ({ 'aria-selected': inbox.id === selected })}
        pending={list.isPending}
        error={list.error}
        empty="No inboxes yet. Create one with POST /api/v1/inboxes (see docs/ingestion.md)."
        columns={[
          { header: 'Name', cell: (inbox) => inbox.name },
          { header: 'Credential', cell: (inbox) => inbox.auth.kind },
          { header: 'Accepts', cell: (inbox) => inbox.content_types.join(', ') },
          { header: 'Destination table', cell: (inbox) => String(inbox.destination['table'] ?? '') },
        ]}
        actions={(inbox) => (
          <Button
            className="secondary"
            aria-label={`Show the requests of ${inbox.name}`}
            onPress={() => setSelected(inbox.id)}
          >
            Requests
          </Button>
        )}
      />
      {current ? <InboxDetail key={current.id} inbox={current} /> : null}
    </>
  );
}
