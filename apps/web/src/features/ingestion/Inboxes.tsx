import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { WithCreateForm } from '../../components/CreateRoute';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { ItemSelect } from '../../components/ItemSelect';
import { CheckboxList, ChoiceField, FormSubmit, TextInput } from '../../components/fields';
import { useCurrentProject } from '../../project-context';
import { onSubmitted } from '../../components/form-data';
import { RowButton } from '../../components/RowButton';

type InboxBody = JsonBody<'/api/v1/inboxes', 'post'>;
type ContentType = NonNullable<InboxBody['content_types']>[number];

/** A new inbox of the current project; its bearer token or HMAC secret is shown once, here. */
function NewInbox({ projectId, projectName }: { projectId: string; projectName: string }) {
  const queries = useQueryClient();
  const connectors = useConnectors();
  const [auth, setAuth] = useState<'bearer' | 'basic' | 'hmac'>('bearer');
  const [types, setTypes] = useState<string[]>(['application/json']);
  const [destination, setDestination] = useState<string | undefined>();
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: InboxBody) => unwrap(api.POST('/api/v1/inboxes', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      setDestination(undefined);
      void queries.invalidateQueries({ queryKey: ['inboxes'] });
    },
  });
  const submit = onSubmitted(({ form, text }) => {
    create.mutate({
      project_id: projectId,
      name: text('name'),
      content_types: types as ContentType[],
      destination: { connector_id: destination ?? '', table: text('table'), mode: 'append' },
      auth:
        auth === 'basic'
          ? { kind: 'basic', username: text('username'), password: String(form.get('password') ?? '') }
          : auth === 'hmac'
            ? { kind: 'hmac', ...(text('header') ? { header: text('header') } : {}) }
            : { kind: 'bearer' },
    });
  });
  const secret = create.data?.secret;
  return (
    <Card id="new-inbox" title="New inbox">
      <Form key={formKey} onSubmit={submit}>
        <p className="muted">In project {projectName}. Dedupe, limits and upserts are set through the API.</p>
        <TextInput name="name" label="Name" isRequired />
        <ChoiceField
          label="Senders prove themselves with"
          value={auth}
          onChange={setAuth}
          choices={[
            { value: 'bearer', label: 'a bearer token', description: 'Generated, shown once.' },
            { value: 'basic', label: 'a user name and password', description: 'HTTP basic authentication.' },
            {
              value: 'hmac',
              label: 'an HMAC signature',
              description: 'SHA-256 of the body under a generated secret, shown once.',
            },
          ]}
        />
        {auth === 'basic' ? (
          <>
            <TextInput name="username" label="User name" isRequired />
            <TextInput name="password" label="Password" type="password" isRequired autoComplete="new-password" />
          </>
        ) : auth === 'hmac' ? (
          <TextInput name="header" label="Signature header" description="Default X-Signature" />
        ) : null}
        <CheckboxList
          label="Accepts"
          items={[
            { id: 'application/json', name: 'JSON' },
            { id: 'application/x-ndjson', name: 'NDJSON' },
            { id: 'text/csv', name: 'CSV' },
          ]}
          value={types}
          onChange={setTypes}
          isRequired
        />
        <ItemSelect
          label="Destination connector"
          items={(connectors.data?.items ?? []).filter((c) => c.project_id === projectId)}
          value={destination}
          onChange={setDestination}
          empty="No connectors in this project"
        />
        <TextInput name="table" label="Table" isRequired description="Created with the data's columns when missing" />
        <FormSubmit label="Create inbox" error={create.error} isDisabled={create.isPending} />
      </Form>
      {create.data ? (
        <div role="status" className="secret-once">
          <p>
            Inbox <strong>{create.data.name}</strong> receives at <code>{create.data.receive_path}</code>.
          </p>
          {secret ? (
            <p>
              Its {create.data.auth.kind === 'hmac' ? 'HMAC secret' : 'bearer token'}, shown this once:{' '}
              <code>{secret}</code>
            </p>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

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
        read={requests}
        error={replay.error}
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
            <RowButton
              label={`Replay the request of ${new Date(request.received_at).toLocaleString()}`}
              mutation={replay}
              id={request.id}
            >
              Replay
            </RowButton>
          ) : null
        }
      />
    </Card>
  );
}

/** Inboxes: HTTP endpoints that receive data; each one's URL, curl example and request history. */
export function Inboxes() {
  const { projectId, project } = useCurrentProject();
  const list = useQuery({
    queryKey: ['inboxes', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/inboxes', { params: { query: { project_id: projectId! } } })),
  });
  // The open item is in the address (/inboxes/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/inboxes');
  const current = list.data?.items.find((inbox) => inbox.id === selected);
  return (
    <WithCreateForm
      base="/inboxes"
      label="New inbox"
      back="Inboxes"
      isDisabled={!project}
      // The token or secret is shown once on the form's page: it is left by the way back, not on success.
      form={() => (project ? <NewInbox key={project.id} projectId={project.id} projectName={project.name} /> : null)}
    >
      <DataTable
        caption="Inboxes"
        read={list}
        rowProps={(inbox) => ({ 'aria-selected': inbox.id === selected })}
        empty="No inboxes in this project yet."
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
    </WithCreateForm>
  );
}
