import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Checkbox, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useMe } from '../../api/queries';
import { useCurrentProject } from '../../project-context';
import { WithCreateForm } from '../../components/CreateRoute';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ChoiceField, FormSubmit, NumberInput, SecretField, secretOf, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { qualified } from '../governance/datasets';
import { onSubmitted } from '../../components/form-data';
import { RowButton } from '../../components/RowButton';

type Provider = JsonAnswer<'/api/v1/ai-providers/{id}', 'get'>;
type ProviderBody = JsonBody<'/api/v1/ai-providers', 'post'>;
type ProviderType = ProviderBody['type'];

export const useAiProviders = (projectId?: string) =>
  useQuery({
    queryKey: ['ai-providers', projectId ?? null],
    queryFn: () => unwrap(api.GET('/api/v1/ai-providers', { params: { query: { project_id: projectId } } })),
  });

const numberOrNull = (form: FormData, name: string) => {
  const text = String(form.get(name) ?? '').trim();
  return text === '' ? null : Number(text);
};

/** Creates a provider: a project's, or (administrators) one for the whole instance. */
function NewProvider({ onCreated }: { onCreated: () => void }) {
  const queries = useQueryClient();
  const me = useMe();
  const { projectId: project } = useCurrentProject();
  const [type, setType] = useState<ProviderType>('openai_compatible');
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: ProviderBody) => unwrap(api.POST('/api/v1/ai-providers', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['ai-providers'] });
      onCreated();
    },
  });
  const admin = me.data?.is_admin === true;
  const submit = onSubmitted(({ form, text }) => {
    const instanceWide = form.get('instance_wide') === 'true';
    create.mutate({
      project_id: instanceWide ? null : (project ?? null),
      name: text('name'),
      type,
      model: text('model'),
      ...(text('base_url') ? { base_url: text('base_url') } : {}),
      ...(secretOf(form, 'api_key') ? { api_key: secretOf(form, 'api_key') } : {}),
      temperature: numberOrNull(form, 'temperature'),
      max_tokens: numberOrNull(form, 'max_tokens'),
      requests_per_minute: numberOrNull(form, 'requests_per_minute'),
      tokens_per_month: numberOrNull(form, 'tokens_per_month'),
    });
  });
  return (
    <Card id="new-ai-provider" title="New AI provider">
      <Form key={formKey} onSubmit={submit}>
        {admin ? (
          <Checkbox name="instance_wide" value="true">
            Instance-wide: usable in every project (administrators only)
          </Checkbox>
        ) : null}
        <TextInput name="name" label="Name" isRequired />
        <ChoiceField
          label="Type"
          value={type}
          onChange={setType}
          choices={[
            { value: 'openai', label: 'OpenAI' },
            { value: 'anthropic', label: 'Anthropic' },
            {
              value: 'openai_compatible',
              label: 'OpenAI-compatible',
              description: 'A self-hosted server: Ollama, vLLM, LiteLLM.',
            },
          ]}
        />
        <TextInput
          name="base_url"
          label="Base URL"
          type="url"
          isRequired={type === 'openai_compatible'}
          description={
            type === 'openai_compatible'
              ? 'For Ollama: http://host:11434/v1. Reached through the egress policy.'
              : 'Empty: the public API.'
          }
        />
        <TextInput name="model" label="Model" isRequired />
        <SecretField name="api_key" label="API key" stored={false} isRequired={type === 'anthropic'} />
        <NumberInput name="temperature" label="Temperature" description="Empty: the model's default." step={0.1} />
        <NumberInput name="max_tokens" label="Max tokens per answer" />
        <NumberInput name="requests_per_minute" label="Limit: requests per minute" description="Empty: no limit." />
        <NumberInput name="tokens_per_month" label="Limit: tokens per month" description="Empty: no limit." />
        <FormSubmit label="Create provider" error={create.error} isDisabled={create.isPending} />
      </Form>
    </Card>
  );
}

/** A provider's calls against its limits, and the latest ones. */
function ProviderUsage({ provider }: { provider: Provider }) {
  const usage = useQuery({
    queryKey: ['ai-usage', provider.id],
    queryFn: () => unwrap(api.GET('/api/v1/ai-providers/{id}/usage', { params: { path: { id: provider.id } } })),
  });
  const limit = (value: number | null) => (value === null ? 'no limit' : value.toLocaleString());
  return (
    <Card id="ai-usage" title={`Usage of ${provider.name}`} focus>
      <ErrorNotice error={usage.error} />
      {usage.data ? (
        <>
          <p>
            {usage.data.requests_last_minute} requests in the last minute ({limit(usage.data.requests_per_minute)});{' '}
            {usage.data.tokens_this_month.toLocaleString()} tokens this month ({limit(usage.data.tokens_per_month)}).
          </p>
          <DataTable
            caption="Latest calls"
            rows={usage.data.recent}
            rowKey={(r) => `${r.at}-${r.purpose}-${r.status}-${r.input_tokens}`}
            empty="No calls yet."
            columns={[
              { header: 'When', cell: (r) => new Date(r.at).toLocaleString() },
              { header: 'Purpose', cell: (r) => r.purpose },
              { header: 'Status', cell: (r) => r.status },
              { header: 'Tokens in / out', cell: (r) => `${r.input_tokens} / ${r.output_tokens}` },
            ]}
          />
        </>
      ) : null}
    </Card>
  );
}

/** The uses that are not part of another screen: pipeline steps from a description, a dataset described. */
function Assistant({ providers }: { providers: Provider[] }) {
  const { projectId: project } = useCurrentProject();
  const [provider, setProvider] = useState<string | undefined>();
  const [chosen, setChosen] = useState<{ project?: string; dataset?: string }>({});
  // A dataset of another project is dropped once the project changes.
  const dataset = chosen.project === project ? chosen.dataset : undefined;
  const setDataset = (id: string | undefined) => setChosen({ project, dataset: id });
  const datasets = useQuery({
    queryKey: ['catalog', 'project', project],
    enabled: !!project,
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets', { params: { query: { project_id: project! } } })),
  });
  const steps = useMutation({
    mutationFn: (description: string) =>
      unwrap(
        api.POST('/api/v1/ai-providers/{id}/suggest-steps', {
          params: { path: { id: provider! } },
          body: { project_id: project!, description },
        }),
      ),
  });
  const describe = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/ai-providers/{id}/describe-dataset', {
          params: { path: { id: provider! } },
          body: { dataset_id: dataset! },
        }),
      ),
  });
  const usable = providers.filter((p) => p.enabled && (p.project_id === null || p.project_id === project));
  return (
    <Card id="ai-assistant" title="Ask the AI">
      <ItemSelect
        label="Provider"
        items={usable}
        value={provider}
        onChange={setProvider}
        isDisabled={!project}
        empty="No enabled provider for this project"
      />
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          steps.mutate(String(new FormData(event.currentTarget).get('description') ?? ''));
        }}
      >
        <TextInput
          name="description"
          label="Pipeline steps for"
          isRequired
          description="What the steps should do; the answer is checked against the step schema and saved nowhere."
        />
        <FormSubmit label="Suggest steps" error={steps.error} isDisabled={steps.isPending || !provider} />
      </Form>
      {steps.data ? (
        <section aria-label="Suggested steps">
          <h3>Suggested steps (copy them into a pipeline)</h3>
          <div className="table-wrap" tabIndex={0}>
            <pre>{JSON.stringify(steps.data.steps, null, 2)}</pre>
          </div>
        </section>
      ) : null}
      <ItemSelect
        label="Dataset to describe"
        items={(datasets.data?.items ?? []).map((d) => ({ id: d.id, name: qualified(d) }))}
        value={dataset}
        onChange={setDataset}
        isDisabled={!project}
        isRequired={false}
        empty="The catalog has no datasets of this project"
      />
      <div className="row">
        <Button
          className="secondary"
          onPress={() => describe.mutate()}
          isDisabled={describe.isPending || !provider || !dataset}
        >
          Describe dataset
        </Button>
      </div>
      <ErrorNotice error={describe.error} />
      {describe.data ? (
        <section aria-label="Dataset description">
          <DatasetDescription description={describe.data} />
        </section>
      ) : null}
    </Card>
  );
}

/** AI providers: create them, test them, follow their usage, and ask for steps or a dataset's description. */

/** A dataset's description by an AI provider: the dataset's, then each column's. */
export function DatasetDescription({
  description,
}: {
  description: { description: string; columns: Array<{ name: string; description: string }> };
}) {
  return (
    <>
      <p>{description.description}</p>
      <dl className="details">
        {description.columns.map((c) => (
          <div key={c.name}>
            <dt>{c.name}</dt>
            <dd>{c.description}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

export function AiProviders() {
  const queries = useQueryClient();
  const providers = useAiProviders();
  const [shown, setShown] = useState<string | undefined>();
  const test = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/ai-providers/{id}/test', { params: { path: { id } } })),
    onSettled: (_data, _error, id) => void queries.invalidateQueries({ queryKey: ['ai-usage', id] }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/ai-providers/{id}', { params: { path: { id } } })),
    onSuccess: (_result, id) => {
      if (shown === id) setShown(undefined);
      void queries.invalidateQueries({ queryKey: ['ai-providers'] });
    },
  });
  const items = providers.data?.items ?? [];
  const opened = items.find((p) => p.id === shown);
  return (
    <WithCreateForm
      base="/ai-providers"
      label="New AI provider"
      back="AI providers"
      form={(done) => <NewProvider onCreated={done} />}
    >
      <DataTable
        caption="AI providers"
        read={providers}
        error={remove.error}
        empty="No AI providers yet."
        columns={[
          { header: 'Name', cell: (p) => p.name },
          { header: 'Scope', cell: (p) => (p.project_id ? 'project' : 'instance-wide') },
          { header: 'Type', cell: (p) => p.type },
          { header: 'Model', cell: (p) => p.model },
          { header: 'Key', cell: (p) => (p.api_key_set ? 'stored' : 'none') },
          { header: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
        ]}
        actions={(p) => (
          <div className="row">
            <RowButton label={`Test ${p.name}`} mutation={test} id={p.id}>
              Test
            </RowButton>
            <Button className="secondary" aria-label={`Usage of ${p.name}`} onPress={() => setShown(p.id)}>
              Usage
            </Button>
            <DeleteButton name={p.name} warning="Its usage record goes with it." deletes={remove} id={p.id} />
          </div>
        )}
      />
      <ErrorNotice error={test.error} />
      {test.data ? (
        <p role="status">
          The provider answered “{test.data.reply}” in {test.data.duration_ms} ms ({test.data.input_tokens} tokens in,{' '}
          {test.data.output_tokens} out).
        </p>
      ) : null}
      {opened ? <ProviderUsage key={opened.id} provider={opened} /> : null}
      <Assistant providers={items} />
    </WithCreateForm>
  );
}
