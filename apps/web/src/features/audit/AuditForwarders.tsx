import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { WithCreateForm } from '../../components/CreateRoute';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { useRemoteTest } from '../../components/useRemoteTest';
import { TestAndDelete } from '../../components/TestAndDelete';
import {
  ChoiceField,
  FormSubmit,
  NumberInput,
  SecretField,
  TextAreaInput,
  TextInput,
  secretOf,
} from '../../components/fields';
import { onSubmitted } from '../../components/form-data';

type ForwarderBody = JsonBody<'/api/v1/audit-forwarder-settings', 'post'>;
type Forwarder = JsonAnswer<'/api/v1/audit-forwarder-settings/{id}', 'get'>;
type Transport = 'udp' | 'tcp' | 'tls';

/** A text setting of a destination, as saved ('' when not set). */
const settingOf = (forwarder: Forwarder | undefined, name: string, fallback = '') => {
  const value = forwarder?.config[name];
  return value === undefined || value === null ? fallback : String(value);
};

/**
 * The settings the form holds. Editing, an emptied optional field is removed (null) and a secret left
 * empty keeps its stored value; emptying the client certificate removes its key too.
 */
function settingsOf(type: ForwarderBody['type'], transport: Transport, form: FormData, editing: boolean) {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const optional = (name: string) => (text(name) ? text(name) : editing ? null : undefined);
  const settings: Record<string, unknown> =
    type === 'http'
      ? { url: text('url'), token: secretOf(form, 'token') }
      : {
          host: text('host'),
          port: Number(text('port') || 514),
          transport,
          framing: text('framing') || 'octet-counting',
          facility: text('facility') || 'local0',
          ca: optional('ca'),
          client_cert: optional('client_cert'),
          client_key: editing && !text('client_cert') ? null : secretOf(form, 'client_key'),
        };
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

/** A new destination, or the one being edited (its type stays). */
function ForwarderForm({ forwarder, onDone }: { forwarder?: Forwarder; onDone?: () => void }) {
  const queries = useQueryClient();
  const [type, setType] = useState<ForwarderBody['type']>(forwarder?.type ?? 'syslog');
  const [transport, setTransport] = useState<Transport>(settingOf(forwarder, 'transport', 'tcp') as Transport);
  const [formKey, setFormKey] = useState(0);
  const save = useMutation({
    meta: { success: forwarder ? 'Destination saved.' : 'Destination created.' },
    mutationFn: (body: ForwarderBody) =>
      forwarder
        ? unwrap(
            api.PATCH('/api/v1/audit-forwarder-settings/{id}', {
              params: { path: { id: forwarder.id } },
              body: { name: body.name, config: body.config, actions: body.actions },
            }),
          )
        : unwrap(api.POST('/api/v1/audit-forwarder-settings', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['audit-forwarders'] });
      onDone?.();
    },
  });
  const submit = onSubmitted(({ form, text }) => {
    const actions = String(form.get('actions') ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    save.mutate({
      name: text('name'),
      type,
      config: settingsOf(type, transport, form, forwarder !== undefined),
      actions,
    });
  });
  const keyStored = forwarder?.secrets_set.includes('client_key') === true;
  return (
    <Card
      id={forwarder ? 'edit-forwarder' : 'new-forwarder'}
      title={forwarder ? `Edit ${forwarder.name}` : 'New destination'}
      focus={forwarder ? true : undefined}
    >
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="name" label="Name" isRequired defaultValue={forwarder?.name} />
        {forwarder ? null : (
          <ChoiceField
            label="Type"
            value={type}
            onChange={setType}
            orientation="horizontal"
            choices={[
              { value: 'syslog', label: 'syslog' },
              { value: 'http', label: 'HTTP' },
            ]}
          />
        )}
        {type === 'http' ? (
          <>
            <TextInput
              name="url"
              label="URL"
              isRequired
              spellCheck={false}
              defaultValue={settingOf(forwarder, 'url')}
            />
            <SecretField
              name="token"
              label="Verification token"
              stored={forwarder?.secrets_set.includes('token') === true}
              hint="Sent as X-Svc-Verification-Token."
            />
          </>
        ) : (
          <>
            <TextInput
              name="host"
              label="Host"
              isRequired
              spellCheck={false}
              defaultValue={settingOf(forwarder, 'host')}
            />
            <NumberInput name="port" label="Port" defaultValue={settingOf(forwarder, 'port', '514')} />
            <ChoiceField
              label="Transport"
              value={transport}
              onChange={setTransport}
              orientation="horizontal"
              choices={[
                { value: 'udp', label: 'UDP' },
                { value: 'tcp', label: 'TCP' },
                { value: 'tls', label: 'TLS' },
              ]}
            />
            <ChoiceField
              label="Framing"
              name="framing"
              defaultValue={settingOf(forwarder, 'framing', 'octet-counting') as 'octet-counting' | 'lf'}
              orientation="horizontal"
              choices={[
                { value: 'octet-counting', label: 'octet counting' },
                { value: 'lf', label: 'new line' },
              ]}
            />
            <TextInput name="facility" label="Facility" defaultValue={settingOf(forwarder, 'facility', 'local0')} />
            {transport === 'tls' ? (
              <fieldset>
                <legend>TLS</legend>
                <TextAreaInput
                  name="ca"
                  label="CA certificate (PEM)"
                  rows={3}
                  defaultValue={settingOf(forwarder, 'ca')}
                  description="The server is verified against it (and its name against the host); empty: the system's CAs."
                />
                <TextAreaInput
                  name="client_cert"
                  label="Client certificate (PEM)"
                  rows={3}
                  defaultValue={settingOf(forwarder, 'client_cert')}
                  description="For a server that demands one (mutual TLS), with its key."
                />
                <SecretField
                  name="client_key"
                  label="Client key (PEM)"
                  stored={keyStored}
                  hint="The certificate's private key, without a passphrase."
                />
              </fieldset>
            ) : null}
          </>
        )}
        <TextInput
          name="actions"
          label="Only these actions"
          defaultValue={forwarder?.actions.join(', ')}
          description="Event kinds separated by commas; empty: all."
        />
        <FormSubmit
          label={forwarder ? 'Save changes' : 'Create destination'}
          error={save.error}
          isDisabled={save.isPending}
          onCancel={onDone}
        />
      </Form>
    </Card>
  );
}

/** What a destination's TLS client key is: set, not set, or not applicable. */
const clientKeyState = (f: Forwarder) =>
  f.type === 'syslog' && f.config['transport'] === 'tls'
    ? f.secrets_set.includes('client_key')
      ? 'set'
      : 'not set'
    : '—';

/** Where the audit log is forwarded, and how delivery goes (administrators). */
export function AuditForwarders() {
  const queries = useQueryClient();
  const forwarders = useQuery({
    queryKey: ['audit-forwarders'],
    queryFn: () => unwrap(api.GET('/api/v1/audit-forwarder-settings')),
    refetchInterval: 5000,
  });
  const test = useRemoteTest(
    (id: string) => unwrap(api.POST('/api/v1/audit-forwarder-settings/{id}/test', { params: { path: { id } } })),
    (result) => `${result.ok ? 'Delivered' : 'Failed'}: ${result.detail}`,
  );
  // The open item is in the address (/audit-forwarding/<id>): shareable, and the back button closes it.
  const [editing, setEditing] = useItemRoute('/audit-forwarding');
  const edited = forwarders.data?.items.find((f) => f.id === editing);
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/v1/audit-forwarder-settings/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      if (editing === id) setEditing(undefined);
      void queries.invalidateQueries({ queryKey: ['audit-forwarders'] });
    },
  });
  return (
    <WithCreateForm
      base="/audit-forwarding"
      label="New destination"
      back="Audit forwarding"
      form={(done) => <ForwarderForm onDone={done} />}
    >
      {edited ? <ForwarderForm key={edited.id} forwarder={edited} onDone={() => setEditing(undefined)} /> : null}
      <DataTable
        caption="Audit forwarding destinations"
        read={forwarders}
        error={test.error ?? remove.error}
        empty="The audit log is not forwarded."
        columns={[
          { header: 'Name', cell: (f) => f.name },
          { header: 'Type', cell: (f) => (f.type === 'syslog' ? `syslog ${String(f.config['transport'])}` : 'HTTP') },
          { header: 'Client key', cell: clientKeyState },
          { header: 'Sent', cell: (f) => f.sent },
          { header: 'Waiting', cell: (f) => f.backlog },
          {
            header: 'Failed / skipped',
            cell: (f) => `${f.failed} / ${f.skipped}`,
            cellProps: (f) => ({ className: f.failed + f.skipped > 0 ? 'status failed' : undefined }),
          },
          {
            header: 'Last delivered',
            cell: (f) => (f.last_delivered_at ? new Date(f.last_delivered_at).toLocaleString() : 'never'),
          },
          {
            header: 'Last error',
            cell: (f) => test.answers[f.id] ?? f.last_error ?? '—',
            cellProps: () => ({ role: 'status' }),
          },
        ]}
        actionsClassName="row"
        actions={(f) => (
          <>
            <Button className="secondary" aria-label={`Edit ${f.name}`} onPress={() => setEditing(f.id)}>
              Edit
            </Button>
            <TestAndDelete name={f.name} what={`the destination ${f.name}`} id={f.id} test={test} deletes={remove} />
          </>
        )}
      />
    </WithCreateForm>
  );
}
