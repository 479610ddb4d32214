import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { useRemoteTest } from '../../components/useRemoteTest';
import { TestAndDelete } from '../../components/TestAndDelete';
import { ChoiceField, FormSubmit, NumberInput, SecretField, TextAreaInput, TextInput } from '../../components/fields';

type ForwarderBody = NonNullable<
  paths['/api/v1/audit-forwarder-settings']['post']['requestBody']
>['content']['application/json'];

function NewForwarder() {
  const queries = useQueryClient();
  const [type, setType] = useState<ForwarderBody['type']>('syslog');
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: ForwarderBody) => unwrap(api.POST('/api/v1/audit-forwarder-settings', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['audit-forwarders'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const config: Record<string, unknown> =
      type === 'http'
        ? { url: text('url'), ...(text('token') ? { token: text('token') } : {}) }
        : {
            host: text('host'),
            port: Number(text('port') || 514),
            transport: text('transport') || 'tcp',
            framing: text('framing') || 'octet-counting',
            facility: text('facility') || 'local0',
            ...(text('ca') ? { ca: text('ca') } : {}),
          };
    const actions = text('actions')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    create.mutate({ name: text('name'), type, config, actions });
  };
  return (
    <Card id="new-forwarder" title="New destination">
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="name" label="Name" isRequired />
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
        {type === 'http' ? (
          <>
            <TextInput name="url" label="URL" isRequired spellCheck={false} />
            <SecretField
              name="token"
              label="Verification token"
              stored={false}
              hint="Sent as X-Svc-Verification-Token."
            />
          </>
        ) : (
          <>
            <TextInput name="host" label="Host" isRequired spellCheck={false} />
            <NumberInput name="port" label="Port" defaultValue="514" />
            <ChoiceField
              label="Transport"
              name="transport"
              defaultValue="tcp"
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
              defaultValue="octet-counting"
              orientation="horizontal"
              choices={[
                { value: 'octet-counting', label: 'octet counting' },
                { value: 'lf', label: 'new line' },
              ]}
            />
            <TextInput name="facility" label="Facility" defaultValue="local0" />
            <TextAreaInput name="ca" label="CA certificate (TLS, PEM)" rows={3} />
          </>
        )}
        <TextInput
          name="actions"
          label="Only these actions"
          description="Event kinds separated by commas; empty: all."
        />
        <FormSubmit label="Create destination" error={create.error} isDisabled={create.isPending} />
      </Form>
    </Card>
  );
}

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
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/v1/audit-forwarder-settings/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['audit-forwarders'] }),
  });
  return (
    <>
      <NewForwarder />
      <DataTable
        caption="Audit forwarding destinations"
        rows={forwarders.data?.items}
        rowKey={(f) => f.id}
        pending={forwarders.isPending}
        error={forwarders.error ?? test.error ?? remove.error}
        empty="The audit log is not forwarded."
        columns={[
          { header: 'Name', cell: (f) => f.name },
          { header: 'Type', cell: (f) => (f.type === 'syslog' ? `syslog ${String(f.config['transport'])}` : 'HTTP') },
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
          <TestAndDelete
            name={f.name}
            what={`the destination ${f.name}`}
            onTest={() => test.run(f.id)}
            testing={test.busy(f.id)}
            onDelete={() => remove.mutate(f.id)}
            deleting={remove.isPending && remove.variables === f.id}
          />
        )}
      />
    </>
  );
}
