import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { useCurrentProject } from '../../project-context';
import { WithCreateForm } from '../../components/CreateRoute';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { ChoiceField, FormSubmit, NumberInput, SecretField, TextInput } from '../../components/fields';
import { useRemoteTest } from '../../components/useRemoteTest';
import { TestAndDelete } from '../../components/TestAndDelete';
import { onSubmitted } from '../../components/form-data';
import { ProjectNote } from '../../components/ProjectNote';

type ChannelBody = JsonBody<'/api/v1/notification-configs', 'post'>;
type ChannelType = ChannelBody['type'];

export const useChannels = () =>
  useQuery({ queryKey: ['notification-configs'], queryFn: () => unwrap(api.GET('/api/v1/notification-configs')) });

/** The settings of a type, read from the form (secrets only when typed). */
function settingsOf(type: ChannelType, form: FormData): Record<string, unknown> {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  switch (type) {
    case 'email':
      return {
        host: text('host'),
        port: Number(text('port') || 587),
        tls: text('tls') || 'starttls',
        ...(text('user') ? { user: text('user') } : {}),
        ...(text('password') ? { password: text('password') } : {}),
        from: text('from'),
        to: text('to')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    case 'webhook':
      return { url: text('url'), ...(text('hmac_secret') ? { hmac_secret: text('hmac_secret') } : {}) };
    case 'pagerduty':
      return { routing_key: text('routing_key'), ...(text('url') ? { url: text('url') } : {}) };
    default:
      return { url: text('url') };
  }
}

function NewChannel({ onCreated }: { onCreated: () => void }) {
  const queries = useQueryClient();
  const { projectId: project, project: current } = useCurrentProject();
  const [type, setType] = useState<ChannelType>('slack');
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: ChannelBody) => unwrap(api.POST('/api/v1/notification-configs', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['notification-configs'] });
      onCreated();
    },
  });
  const submit = onSubmitted(({ form, text }) => {
    if (!project) return;
    create.mutate({
      project_id: project,
      name: text('name'),
      type,
      config: settingsOf(type, form),
    });
  });
  return (
    <Card id="new-channel" title="New channel">
      <Form key={formKey} onSubmit={submit}>
        <ProjectNote project={current} />
        <TextInput name="name" label="Name" isRequired />
        <ChoiceField
          label="Type"
          value={type}
          onChange={setType}
          orientation="horizontal"
          choices={[
            { value: 'slack', label: 'Slack' },
            { value: 'teams', label: 'Teams' },
            { value: 'webhook', label: 'Webhook' },
            { value: 'pagerduty', label: 'PagerDuty' },
            { value: 'email', label: 'E-mail' },
          ]}
        />
        {type === 'slack' || type === 'teams' ? (
          <SecretField
            name="url"
            label={type === 'slack' ? 'Incoming webhook URL' : 'Workflows webhook URL'}
            stored={false}
            isRequired
            hint="It carries its own token."
          />
        ) : null}
        {type === 'webhook' ? (
          <>
            <TextInput name="url" label="URL" isRequired spellCheck={false} />
            <SecretField
              name="hmac_secret"
              label="Signing secret"
              stored={false}
              hint="Optional: signs each body (X-Svc-Signature)."
            />
          </>
        ) : null}
        {type === 'pagerduty' ? (
          <>
            <SecretField name="routing_key" label="Routing key" stored={false} isRequired />
            <TextInput
              name="url"
              label="Events API URL"
              spellCheck={false}
              description="Empty: https://events.pagerduty.com/v2/enqueue"
            />
          </>
        ) : null}
        {type === 'email' ? (
          <>
            <TextInput name="host" label="SMTP server" isRequired spellCheck={false} />
            <NumberInput name="port" label="Port" defaultValue="587" />
            <ChoiceField
              label="TLS"
              name="tls"
              defaultValue="starttls"
              orientation="horizontal"
              choices={[
                { value: 'starttls', label: 'STARTTLS' },
                { value: 'tls', label: 'TLS' },
                { value: 'none', label: 'none' },
              ]}
            />
            <TextInput name="user" label="User" />
            <SecretField name="password" label="Password" stored={false} />
            <TextInput name="from" label="From" type="email" isRequired />
            <TextInput name="to" label="To" isRequired description="Addresses separated by commas." />
          </>
        ) : null}
        <FormSubmit label="Create channel" error={create.error} isDisabled={create.isPending || !project} />
      </Form>
    </Card>
  );
}

/** Notification channels with a test button that shows what the other side answered. */
export function Channels() {
  const queries = useQueryClient();
  const channels = useChannels();
  const test = useRemoteTest(
    (id: string) => unwrap(api.POST('/api/v1/notification-configs/{id}/test', { params: { path: { id } } })),
    (result) =>
      `${result.ok ? 'Delivered' : 'Failed'}${result.status !== null ? ` (${result.status})` : ''}: ${result.response}`,
  );
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/notification-configs/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['notification-configs'] }),
  });
  return (
    <WithCreateForm
      base="/channels"
      label="New channel"
      back="Channels"
      form={(done) => <NewChannel onCreated={done} />}
    >
      <DataTable
        caption="Notification channels"
        read={channels}
        error={test.error ?? remove.error}
        empty="No channels yet."
        columns={[
          { header: 'Name', cell: (c) => c.name },
          { header: 'Type', cell: (c) => c.type },
          { header: 'Scope', cell: (c) => (c.project_id ? 'project' : 'instance') },
          {
            header: 'Last test',
            cell: (c) => test.answers[c.id] ?? '—',
            cellProps: () => ({ role: 'status' }),
          },
        ]}
        actionsClassName="row"
        actions={(c) => (
          <TestAndDelete name={c.name} what={`the channel ${c.name}`} id={c.id} test={test} deletes={remove} />
        )}
      />
    </WithCreateForm>
  );
}
