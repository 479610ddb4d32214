import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { WithCreateForm } from '../../components/CreateRoute';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import {
  CheckboxField,
  ChoiceField,
  FormSubmit,
  NumberInput,
  SecretField,
  secretOf,
  TextInput,
  plainChoices,
} from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { useCurrentProject } from '../../project-context';
import { onSubmitted } from '../../components/form-data';
import { RowButton } from '../../components/RowButton';

type Feed = JsonAnswer<'/api/v1/email-feeds', 'get'>['items'][number];
type FeedBody = JsonBody<'/api/v1/email-feeds', 'post'>;
type FeedPatch = JsonBody<'/api/v1/email-feeds/{id}', 'patch'>;
type Message = JsonAnswer<'/api/v1/email-feeds/{id}/messages', 'get'>['items'][number];
type LoadKind = FeedBody['load']['kind'];
type Format = NonNullable<Extract<FeedBody['load'], { kind: 'attachments' }>['format']>;
type PostAction = NonNullable<FeedBody['post_action']>;
type Mode = 'append' | 'upsert';

const FORMATS: Array<{ value: Format | 'auto'; label: string }> = [
  { value: 'auto', label: 'from the name' },
  { value: 'csv', label: 'CSV' },
  { value: 'json', label: 'JSON' },
  { value: 'ndjson', label: 'NDJSON' },
  { value: 'xlsx', label: 'Excel' },
  { value: 'parquet', label: 'Parquet' },
];

const POST_ACTIONS: Array<{ value: PostAction; label: string; description: string }> = [
  { value: 'none', label: 'leave it', description: 'The message stays as it is; it is not loaded twice anyway.' },
  { value: 'mark_seen', label: 'mark it seen', description: 'Sets the \\Seen flag.' },
  { value: 'move', label: 'move it', description: 'To another folder of the mailbox.' },
  { value: 'delete', label: 'delete it', description: 'Removed from the mailbox for good.' },
];

/** A message's status in the classes the other screens use for runs. */
const statusClass = (status: string) =>
  status === 'loaded'
    ? 'succeeded'
    : status === 'failed'
      ? 'failed'
      : status === 'partially_loaded'
        ? 'partially_failed'
        : '';

/** The names of a comma-separated field, trimmed, without empty ones. */
const namesOf = (text: string) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

const describeLoad = (feed: Feed) =>
  feed.load.kind === 'attachments'
    ? `attachments ${String(feed.load['glob'] ?? '*')}${feed.load['format'] ? ` as ${String(feed.load['format'])}` : ''}`
    : 'message fields';

const describeDestination = (feed: Feed) => {
  const namespace = feed.destination['namespace'];
  const table = String(feed.destination['table'] ?? '');
  return `${namespace ? `${String(namespace)}.` : ''}${table} (${String(feed.destination['mode'] ?? '')})`;
};

/**
 * A new e-mail feed in the current project, or (`feed`) the change of one: the IMAP mailbox and its
 * credential (write-only), filters, what to load, what happens to a loaded message, how often to look,
 * and the destination table.
 */
function FeedForm({
  projectId,
  projectName,
  feed,
  onDone,
}: {
  projectId: string;
  projectName: string;
  feed?: Feed;
  onDone: () => void;
}) {
  const queries = useQueryClient();
  const connectors = useConnectors();
  const kinds = useQuery({
    queryKey: ['connector-kinds'],
    queryFn: () => unwrap(api.GET('/api/v1/data-connectors/kinds')),
  });
  const load: Feed['load'] = feed?.load ?? { kind: 'attachments' };
  const keyColumns = feed?.destination['key_columns'];
  const [loadKind, setLoadKind] = useState<LoadKind>(load.kind === 'message_fields' ? 'message_fields' : 'attachments');
  const [format, setFormat] = useState<Format | 'auto'>((load['format'] as Format | undefined) ?? 'auto');
  const [postAction, setPostAction] = useState<PostAction>((feed?.post_action as PostAction | undefined) ?? 'none');
  const [destination, setDestination] = useState<string | undefined>(
    feed ? String(feed.destination['connector_id']) : undefined,
  );
  const [mode, setMode] = useState<Mode>(feed?.destination['mode'] === 'upsert' ? 'upsert' : 'append');
  const writable = new Set((kinds.data?.items ?? []).filter((k) => k.capabilities.write).map((k) => k.kind));
  const destinations = (connectors.data?.items ?? []).filter((c) => c.project_id === projectId && writable.has(c.kind));
  const saved = () => {
    void queries.invalidateQueries({ queryKey: ['email-feeds'] });
    onDone();
  };
  const create = useMutation({
    meta: { success: 'E-mail feed created.' },
    mutationFn: (body: FeedBody) => unwrap(api.POST('/api/v1/email-feeds', { body })),
    onSuccess: saved,
  });
  const update = useMutation({
    meta: { success: 'E-mail feed saved.' },
    mutationFn: (body: FeedPatch) =>
      unwrap(api.PATCH('/api/v1/email-feeds/{id}', { params: { path: { id: feed!.id } }, body })),
    onSuccess: saved,
  });
  const submit = onSubmitted(({ form, text }) => {
    if (!destination) return;
    const filters: NonNullable<FeedBody['filters']> = {
      ...(text('from') ? { from: text('from') } : {}),
      // A regular expression is taken as typed: spaces count.
      ...(form.get('subject_pattern') ? { subject_pattern: String(form.get('subject_pattern')) } : {}),
      ...(text('since') ? { since: text('since') } : {}),
    };
    const mimeTypes = namesOf(text('mime_types'));
    const loadSpec: FeedBody['load'] =
      loadKind === 'message_fields'
        ? { kind: 'message_fields' }
        : {
            kind: 'attachments',
            ...(text('glob') ? { glob: text('glob') } : {}),
            ...(mimeTypes.length ? { mime_types: mimeTypes } : {}),
            ...(format !== 'auto' ? { format } : {}),
            // The delimiter is taken as typed: a tab or a space counts.
            ...(form.get('delimiter') ? { delimiter: String(form.get('delimiter')) } : {}),
          };
    const fields = {
      name: text('name'),
      host: text('host'),
      port: Number(text('port')),
      tls: form.get('tls') === 'true',
      username: text('username'),
      mailbox: text('mailbox') || 'INBOX',
      filters,
      load: loadSpec,
      post_action: postAction,
      move_to: postAction === 'move' ? text('move_to') : null,
      poll_interval_seconds: text('poll_interval_seconds') ? Number(text('poll_interval_seconds')) : null,
      idle: form.get('idle') === 'true',
      destination: {
        connector_id: destination,
        ...(text('namespace') ? { namespace: text('namespace') } : {}),
        table: text('table'),
        mode,
        ...(mode === 'upsert' ? { key_columns: namesOf(text('key_columns')) } : {}),
      },
    };
    // The password is write-only: editing, an empty field keeps the stored one.
    const password = secretOf(form, 'password');
    if (feed) update.mutate({ ...fields, ...(password !== undefined ? { password } : {}) });
    else create.mutate({ project_id: projectId, ...fields, password: password ?? '' });
  });
  const saving = feed ? update : create;
  const filters = feed?.filters ?? {};
  const shown = (value: unknown) => (value === undefined || value === null ? '' : String(value as string | number));
  return (
    <Card
      id={feed ? 'edit-email-feed' : 'new-email-feed'}
      title={feed ? `Edit ${feed.name}` : 'New e-mail feed'}
      focus={feed ? true : undefined}
    >
      <Form onSubmit={submit}>
        <p className="muted">In project {projectName}.</p>
        <TextInput name="name" label="Name" isRequired maxLength={200} defaultValue={feed?.name} />
        <fieldset>
          <legend>Mailbox</legend>
          <TextInput
            name="host"
            label="IMAP host"
            isRequired
            spellCheck={false}
            maxLength={253}
            defaultValue={feed?.host}
          />
          <NumberInput
            name="port"
            label="Port"
            isRequired
            min={1}
            max={65535}
            defaultValue={shown(feed?.port ?? 993)}
            description="Usually 993 with TLS, 143 without."
          />
          <CheckboxField
            name="tls"
            label="IMAP over TLS (otherwise plain, upgraded by STARTTLS when the server offers it)"
            defaultSelected={feed?.tls ?? true}
          />
          <TextInput
            name="username"
            label="User"
            isRequired
            spellCheck={false}
            maxLength={320}
            defaultValue={feed?.username}
          />
          <SecretField name="password" label="Password" stored={feed?.has_password === true} isRequired />
          <TextInput
            name="mailbox"
            label="Mailbox folder"
            spellCheck={false}
            maxLength={500}
            defaultValue={feed?.mailbox}
            description="Empty: INBOX. Another host, user or folder starts reading from its first message."
          />
        </fieldset>
        <fieldset>
          <legend>Filters</legend>
          <TextInput
            name="from"
            label="Sender contains"
            spellCheck={false}
            maxLength={320}
            defaultValue={shown(filters['from'])}
            description="Optional."
          />
          <TextInput
            name="subject_pattern"
            label="Subject pattern"
            spellCheck={false}
            maxLength={500}
            defaultValue={shown(filters['subject_pattern'])}
            description="Optional: a regular expression the subject must match, whatever the case."
          />
          <TextInput
            name="since"
            label="Received since"
            spellCheck={false}
            defaultValue={shown(filters['since'])}
            description="Optional: a day, YYYY-MM-DD."
          />
        </fieldset>
        <fieldset>
          <legend>What to load</legend>
          <ChoiceField
            label="Load"
            value={loadKind}
            onChange={setLoadKind}
            choices={[
              {
                value: 'attachments',
                label: 'attachments',
                description: 'Each matching attachment loaded as a file (CSV, JSON, NDJSON, Excel, Parquet).',
              },
              {
                value: 'message_fields',
                label: 'message fields',
                description: 'One row per message: message_id, sender, recipients, subject, sent_at, text.',
              },
            ]}
          />
          {loadKind === 'attachments' ? (
            <>
              <TextInput
                name="glob"
                label="File name glob"
                spellCheck={false}
                maxLength={500}
                defaultValue={shown(load['glob'])}
                description="Empty: every attachment (*). For example *.{csv,xlsx}."
              />
              <TextInput
                name="mime_types"
                label="MIME types"
                spellCheck={false}
                defaultValue={Array.isArray(load['mime_types']) ? (load['mime_types'] as string[]).join(', ') : ''}
                description="Optional, comma-separated: only attachments of these types."
              />
              <ChoiceField
                label="Format"
                value={format}
                onChange={setFormat}
                orientation="horizontal"
                choices={FORMATS}
              />
              {format === 'auto' || format === 'csv' ? (
                <TextInput
                  name="delimiter"
                  label="CSV delimiter"
                  spellCheck={false}
                  maxLength={4}
                  defaultValue={shown(load['delimiter'])}
                  description="Empty: a comma."
                />
              ) : null}
            </>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>After loading</legend>
          <ChoiceField label="A loaded message" value={postAction} onChange={setPostAction} choices={POST_ACTIONS} />
          {postAction === 'move' ? (
            <TextInput
              name="move_to"
              label="Move to folder"
              isRequired
              spellCheck={false}
              maxLength={500}
              defaultValue={shown(feed?.move_to)}
            />
          ) : null}
          <NumberInput
            name="poll_interval_seconds"
            label="Look for new messages every (seconds)"
            min={10}
            max={604800}
            defaultValue={shown(feed?.poll_interval_seconds)}
            description="Empty: only when asked (Run now)."
          />
          <CheckboxField
            name="idle"
            label="Also watch the mailbox (IMAP IDLE): new mail is loaded within seconds"
            defaultSelected={feed?.idle ?? false}
          />
        </fieldset>
        <fieldset>
          <legend>Destination</legend>
          <ItemSelect
            label="Destination connector"
            description="A connector of the project that can be written (PostgreSQL, the warehouse, …)."
            items={destinations}
            value={destination}
            onChange={setDestination}
            empty="No connector of this project can be written"
          />
          <TextInput
            name="namespace"
            label="Schema"
            spellCheck={false}
            defaultValue={shown(feed?.destination['namespace'])}
            description="Optional: the connector's default when empty."
          />
          <TextInput
            name="table"
            label="Table"
            isRequired
            spellCheck={false}
            maxLength={63}
            defaultValue={shown(feed?.destination['table'])}
            description="Created from the first message loaded, widened when new columns come."
          />
          <ChoiceField
            label="Write mode"
            value={mode}
            onChange={setMode}
            orientation="horizontal"
            choices={plainChoices('append', 'upsert')}
          />
          {mode === 'upsert' ? (
            <TextInput
              name="key_columns"
              label="Key columns"
              isRequired
              spellCheck={false}
              defaultValue={Array.isArray(keyColumns) ? (keyColumns as string[]).join(', ') : ''}
              description="Comma-separated."
            />
          ) : null}
        </fieldset>
        <FormSubmit
          label={feed ? 'Save changes' : 'Create feed'}
          error={saving.error}
          isDisabled={saving.isPending || !destination}
          onCancel={feed ? onDone : undefined}
        />
      </Form>
    </Card>
  );
}

/** One feed's message history, newest first: what each message loaded or why not, with a reload. */
function FeedMessages({ feed }: { feed: Feed }) {
  const queries = useQueryClient();
  const messages = useQuery({
    queryKey: ['email-feeds', feed.id, 'messages'],
    queryFn: () => unwrap(api.GET('/api/v1/email-feeds/{id}/messages', { params: { path: { id: feed.id } } })),
    refetchInterval: 3000,
  });
  const reload = useMutation({
    meta: { success: 'Reload started.' },
    mutationFn: (messageId: string) =>
      unwrap(
        api.POST('/api/v1/email-feeds/{id}/messages/{message_id}/reload', {
          params: { path: { id: feed.id, message_id: messageId } },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['email-feeds', feed.id, 'messages'] }),
  });
  const title = (message: Message) => message.subject ?? message.message_id ?? `UID ${message.uid}`;
  return (
    <Card id="email-feed-messages" title={`Messages of ${feed.name}`}>
      {feed.status === 'degraded' ? (
        <p role="status" className="error">
          The mailbox could not be read: {feed.status_reason ?? 'no reason given'}
        </p>
      ) : null}
      <p className="muted">
        {feed.last_polled_at ? `Last read ${new Date(feed.last_polled_at).toLocaleString()}` : 'Not read yet'}
        {feed.poll_interval_seconds ? `; read every ${feed.poll_interval_seconds} s` : '; read only when asked'}
        {feed.idle ? ', and watched for new mail.' : '.'}
      </p>
      <DataTable
        caption={`Message history of ${feed.name}`}
        read={messages}
        error={reload.error}
        empty="No messages read yet: press Run now."
        columns={[
          { header: 'Read', cell: (message) => new Date(message.created_at).toLocaleString() },
          {
            header: 'Message',
            cell: (message) => (
              <>
                {title(message)}
                {message.from ? <div className="muted">{message.from}</div> : null}
              </>
            ),
          },
          {
            header: 'Status',
            cell: (message) => <span className={`status ${statusClass(message.status)}`}>{message.status}</span>,
          },
          { header: 'Reason', cell: (message) => message.error ?? '—' },
          {
            header: 'Attachments',
            cell: (message) =>
              message.attachments.length
                ? message.attachments
                    .map(
                      (a) =>
                        `${a.filename}: ${a.loaded ? `${a.rows_loaded.toLocaleString()} rows` : a.error ? a.error : 'not loaded'}`,
                    )
                    .join('; ')
                : '—',
          },
          { header: 'Rows loaded', cell: (message) => message.rows_loaded.toLocaleString() },
        ]}
        actions={(message) =>
          // A message read under an earlier UIDVALIDITY cannot be found again by its UID.
          message.uid_validity === feed.uid_validity ? (
            <RowButton label={`Reload the message ${title(message)}`} mutation={reload} id={message.id}>
              Reload
            </RowButton>
          ) : null
        }
      />
    </Card>
  );
}

/**
 * E-mail feeds of the current project: create one, change or delete it, read its mailbox now, and
 * follow its message history with a reload of any message.
 */
export function EmailFeeds() {
  const queries = useQueryClient();
  const { projectId, project, isLoading } = useCurrentProject();
  const [editing, setEditing] = useState<string | undefined>();
  // The open item is in the address (/email-feeds/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/email-feeds');
  const feeds = useQuery({
    queryKey: ['email-feeds', 'project', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/email-feeds', { params: { query: { project_id: projectId! } } })),
    refetchInterval: 3000,
  });
  const run = useMutation({
    meta: { success: 'Run started: the mailbox is being read.' },
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/email-feeds/{id}/run', { params: { path: { id } } })),
    onSuccess: (_result, id) => {
      setSelected(id);
      void queries.invalidateQueries({ queryKey: ['email-feeds', id, 'messages'] });
    },
  });
  const remove = useMutation({
    meta: { success: 'E-mail feed deleted.' },
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/email-feeds/{id}', { params: { path: { id } } })),
    onSuccess: (_result, id) => {
      if (id === editing) setEditing(undefined);
      if (id === selected) setSelected(undefined);
      void queries.invalidateQueries({ queryKey: ['email-feeds'] });
    },
  });
  if (!project) return isLoading ? null : <p className="empty">No project to read e-mail into.</p>;
  const items = feeds.data?.items.filter((feed) => feed.project_id === project.id);
  const edited = items?.find((feed) => feed.id === editing);
  const chosen = items?.find((feed) => feed.id === selected);
  return (
    <WithCreateForm
      base="/email-feeds"
      label="New e-mail feed"
      back="Email feeds"
      form={(done) => <FeedForm key={project.id} projectId={project.id} projectName={project.name} onDone={done} />}
    >
      {edited ? (
        <FeedForm
          key={`edit-${edited.id}`}
          projectId={project.id}
          projectName={project.name}
          feed={edited}
          onDone={() => setEditing(undefined)}
        />
      ) : null}
      <DataTable
        caption="E-mail feeds"
        rows={items}
        rowKey={(feed) => feed.id}
        rowProps={(feed) => ({ 'aria-selected': feed.id === selected })}
        pending={feeds.isPending}
        error={feeds.error ?? run.error ?? remove.error}
        empty="No e-mail feeds in this project yet."
        columns={[
          { header: 'Name', cell: (feed) => feed.name },
          { header: 'Mailbox', cell: (feed) => `${feed.username} @ ${feed.host}:${feed.port} ${feed.mailbox}` },
          { header: 'Loads', cell: describeLoad },
          { header: 'Destination table', cell: describeDestination },
          {
            header: 'Status',
            cell: (feed) => (
              <>
                <span className={`status ${feed.status === 'degraded' ? 'failed' : ''}`}>{feed.status}</span>
                {feed.status_reason ? <div className="muted">{feed.status_reason}</div> : null}
              </>
            ),
          },
        ]}
        actionsClassName="row"
        actions={(feed) => (
          <>
            <Button
              className="secondary"
              aria-label={`Show the messages of ${feed.name}`}
              onPress={() => setSelected(feed.id)}
            >
              Messages
            </Button>
            <Button
              className="secondary"
              aria-label={`Run now for ${feed.name}`}
              onPress={() => run.mutate(feed.id)}
              isDisabled={run.isPending && run.variables === feed.id}
            >
              Run now
            </Button>
            <Button className="secondary" aria-label={`Edit ${feed.name}`} onPress={() => setEditing(feed.id)}>
              Edit
            </Button>
            <DeleteButton
              name={`the e-mail feed ${feed.name}`}
              label={`Delete ${feed.name}`}
              warning="Its message history goes too; the destination table stays."
              deletes={remove}
              id={feed.id}
            />
          </>
        )}
      />
      {chosen ? <FeedMessages key={`messages-${chosen.id}`} feed={chosen} /> : null}
    </WithCreateForm>
  );
}
