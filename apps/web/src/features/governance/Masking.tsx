import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useRoles } from '../../api/queries';
import { WithCreateForm } from '../../components/CreateRoute';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CheckboxList, ChoiceField, FormSubmit, NumberInput, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { cellText } from '../../components/RowsTable';
import { useCurrentProject } from '../../project-context';
import { qualified } from './datasets';
import { onSubmitted } from '../../components/form-data';

type Policy = JsonAnswer<'/api/v1/masking-policies', 'get'>['items'][number];
type PolicyBody = JsonBody<'/api/v1/masking-policies', 'post'>;
type PolicyPatch = JsonBody<'/api/v1/masking-policies/{id}', 'patch'>;
type EvaluateBody = JsonBody<'/api/v1/masking-policies/evaluate', 'post'>;
type Method = PolicyBody['method'];
type Options = NonNullable<PolicyBody['options']>;

/** The methods, most restrictive first: the order in which one wins over another on a column. */
const METHODS: Array<{ value: Method; label: string; description: string }> = [
  { value: 'null', label: 'null', description: 'Null in place of every value.' },
  { value: 'full', label: 'full', description: 'A constant of the column type: ****, 0, 1970-01-01.' },
  {
    value: 'hash',
    label: 'hash',
    description: 'A keyed hash, the same for equal values in the project: joins on it still match.',
  },
  { value: 'partial', label: 'partial', description: 'The first and last characters kept, the rest *.' },
  { value: 'email_domain', label: 'e-mail domain', description: 'The domain kept: ****@example.com.' },
  { value: 'regex_replace', label: 'regex replace', description: 'Every match of a pattern replaced.' },
];
const METHOD_LABEL = new Map(METHODS.map((m) => [m.value, m.label]));

/** The engine's canonical types, for the try-out. */
const TYPES = [
  'string',
  'int16',
  'int32',
  'int64',
  'float32',
  'float64',
  'decimal',
  'boolean',
  'uuid',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'json',
  'binary',
].map((type) => ({ id: type, name: type }));

/** The names of a comma-separated field, trimmed, without empty ones. */
const namesOf = (text: string) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

const describeMethod = (policy: Policy) => {
  const label = METHOD_LABEL.get(policy.method) ?? policy.method;
  const options = policy.options;
  if (policy.method === 'partial')
    return `${label} (first ${String(options['keep_first'] ?? 0)}, last ${String(options['keep_last'] ?? 4)} kept)`;
  if (policy.method === 'regex_replace')
    return `${label} (/${String(options['pattern'])}/ → ${String(options['replacement'] ?? '****')})`;
  return label;
};

const describeCovers = (policy: Policy) =>
  [...policy.columns, ...policy.tags.map((tag) => `tag ${tag}`)].join(', ') || '—';

const describeExempt = (policy: Policy) =>
  [
    ...policy.exempt.capabilities.map((capability) => `holders of ${capability}`),
    ...policy.exempt.roles.map((role) => `role ${role}`),
  ].join(', ') || 'nobody';

/** The catalog's datasets of the project, for picking the columns a policy covers. */
function useProjectDatasets(projectId: string) {
  return useQuery({
    queryKey: ['catalog-datasets', 'project', projectId],
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets', { params: { query: { project_id: projectId } } })),
  });
}

/**
 * The column names typed, and a dataset of the catalog whose columns can be ticked: a ticked column
 * joins the names, an unticked one leaves them. A policy covers its columns in every dataset.
 */
function ColumnsField({
  projectId,
  value,
  onChange,
}: {
  projectId: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const datasets = useProjectDatasets(projectId);
  const [datasetId, setDatasetId] = useState<string | undefined>();
  const dataset = useQuery({
    queryKey: ['catalog-dataset', datasetId],
    enabled: !!datasetId,
    queryFn: () => unwrap(api.GET('/api/v1/catalog/datasets/{id}', { params: { path: { id: datasetId! } } })),
  });
  const names = namesOf(value);
  const inDataset = dataset.data?.columns ?? [];
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const ticked = inDataset.filter((c) => names.some((n) => same(n, c.name))).map((c) => c.name);
  const tick = (next: string[]) => {
    const others = names.filter((n) => !inDataset.some((c) => same(n, c.name)));
    const added = inDataset.filter((c) => next.includes(c.name)).map((c) => c.name);
    onChange([...others, ...added].join(', '));
  };
  const items = (datasets.data?.items ?? []).map((d) => ({ id: d.id, name: qualified(d) }));
  const chosen = items.find((d) => d.id === datasetId);
  return (
    <fieldset>
      <legend>What it covers</legend>
      <TextInput
        name="columns"
        label="Column names"
        value={value}
        onChange={onChange}
        spellCheck={false}
        description="Comma-separated; in every dataset of the project, whatever the case. A column name or a tag is needed."
      />
      <ItemSelect
        label="Pick columns from a dataset"
        isRequired={false}
        items={items}
        value={datasetId}
        onChange={setDatasetId}
        description="Optional: a dataset of the catalog."
        empty="No datasets in this project's catalog"
      />
      <ErrorNotice error={datasets.error ?? dataset.error} />
      {chosen && dataset.data ? (
        <CheckboxList
          label={`Columns of ${chosen.name}`}
          items={inDataset.map((c) => ({ id: c.name, name: `${c.name} (${c.type})` }))}
          value={ticked}
          onChange={tick}
        />
      ) : null}
      <TextInput
        name="tags"
        label="Catalog tags"
        spellCheck={false}
        description="Comma-separated: every column carrying one of them."
      />
    </fieldset>
  );
}

/**
 * A new policy, or (`policy`) the change of one: name, method and its options, the columns and tags it
 * covers, and who is exempt.
 */
function PolicyForm({
  projectId,
  projectName,
  policy,
  onDone,
}: {
  projectId: string;
  projectName: string;
  policy?: Policy;
  onDone: () => void;
}) {
  const queries = useQueryClient();
  const roles = useRoles();
  const [method, setMethod] = useState<Method>(policy?.method ?? 'full');
  const [columns, setColumns] = useState((policy?.columns ?? []).join(', '));
  const [exemptRoles, setExemptRoles] = useState<string[]>(policy?.exempt.roles ?? []);
  const saved = () => {
    void queries.invalidateQueries({ queryKey: ['masking-policies'] });
    onDone();
  };
  const create = useMutation({
    meta: { success: 'Masking policy created.' },
    mutationFn: (body: PolicyBody) => unwrap(api.POST('/api/v1/masking-policies', { body })),
    onSuccess: saved,
  });
  const update = useMutation({
    meta: { success: 'Masking policy saved.' },
    mutationFn: (body: PolicyPatch) =>
      unwrap(api.PATCH('/api/v1/masking-policies/{id}', { params: { path: { id: policy!.id } }, body })),
    onSuccess: saved,
  });
  const submit = onSubmitted(({ form, text }) => {
    const options: Options = {};
    if (method === 'partial') {
      if (text('keep_first')) options.keep_first = Number(text('keep_first'));
      if (text('keep_last')) options.keep_last = Number(text('keep_last'));
    }
    if (method === 'regex_replace') {
      if (text('pattern')) options.pattern = String(form.get('pattern'));
      // The replacement is literal: spaces count, and empty removes each match.
      if (form.get('replacement') !== null) options.replacement = String(form.get('replacement'));
    }
    const fields = {
      name: text('name'),
      method,
      options,
      columns: namesOf(columns),
      tags: namesOf(text('tags')),
      exempt: { capabilities: namesOf(text('exempt_capabilities')), roles: exemptRoles },
    };
    if (policy) update.mutate(fields);
    else create.mutate({ project_id: projectId, ...fields });
  });
  const saving = policy ? update : create;
  const options: Record<string, unknown> = policy?.method === method ? policy.options : {};
  const optionText = (name: string, fallback = '') =>
    options[name] === undefined ? fallback : String(options[name] as string | number);
  return (
    <Card
      id={policy ? 'edit-masking-policy' : 'new-masking-policy'}
      title={policy ? `Edit ${policy.name}` : 'New masking policy'}
      focus={policy ? true : undefined}
    >
      <Form onSubmit={submit}>
        <p className="muted">In project {projectName}.</p>
        <TextInput name="name" label="Name" isRequired defaultValue={policy?.name} />
        <ChoiceField
          label="Method"
          value={method}
          onChange={setMethod}
          choices={METHODS}
          note="Where several policies cover one column, the most restrictive wins: the first of these, then the one keeping fewer characters, then the oldest."
        />
        {method === 'partial' ? (
          <>
            <NumberInput
              name="keep_first"
              label="Characters kept at the start"
              min={0}
              max={1000}
              defaultValue={optionText('keep_first')}
              description="Empty: 0."
            />
            <NumberInput
              name="keep_last"
              label="Characters kept at the end"
              min={0}
              max={1000}
              defaultValue={optionText('keep_last')}
              description="Empty: 4."
            />
          </>
        ) : null}
        {method === 'regex_replace' ? (
          <>
            <TextInput
              name="pattern"
              label="Pattern"
              isRequired
              spellCheck={false}
              maxLength={200}
              defaultValue={optionText('pattern')}
              description="A regular expression (no look-around, no back-references) that cannot match the empty string."
            />
            <TextInput
              name="replacement"
              label="Replacement"
              spellCheck={false}
              maxLength={200}
              defaultValue={optionText('replacement', '****')}
              description="Literal text put in place of each match."
            />
          </>
        ) : null}
        <ColumnsField projectId={projectId} value={columns} onChange={setColumns} />
        <fieldset>
          <legend>Who sees clear values</legend>
          <TextInput
            name="exempt_capabilities"
            label="Exempt capabilities"
            spellCheck={false}
            defaultValue={(policy?.exempt.capabilities ?? ['data:read_unmasked']).join(', ')}
            description="Comma-separated project capabilities; their holders (and administrators) are exempt. Empty: no one by capability."
          />
          <CheckboxList
            label="Exempt roles"
            description="Members with one of these roles in the project."
            items={(roles.data?.items ?? []).map((role) => ({ id: role.name, name: role.name }))}
            value={exemptRoles}
            onChange={setExemptRoles}
          />
          <ErrorNotice error={roles.error} />
        </fieldset>
        <FormSubmit
          label={policy ? 'Save changes' : 'Create policy'}
          error={saving.error}
          isDisabled={saving.isPending}
          onCancel={policy ? onDone : undefined}
        />
      </Form>
    </Card>
  );
}

/** The value as the form gives it, in the shape of its type (numbers and booleans as such, JSON parsed). */
function sampleOf(type: string, text: string): unknown {
  if (['int16', 'int32', 'float32', 'float64'].includes(type)) return text === '' ? null : Number(text);
  if (type === 'boolean') return text === '' ? null : text === 'true';
  if (type === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** A value of one column as the signed-in user would see it under the project's policies. */
function TryIt({ projectId }: { projectId: string }) {
  const [type, setType] = useState('string');
  const evaluate = useMutation({
    mutationFn: (body: EvaluateBody) => unwrap(api.POST('/api/v1/masking-policies/evaluate', { body })),
  });
  const submit = onSubmitted(({ form, text }) => {
    const tags = namesOf(String(form.get('tags') ?? ''));
    evaluate.mutate({
      project_id: projectId,
      columns: [{ name: text('column'), type, ...(tags.length ? { tags } : {}) }],
      rows: [[sampleOf(type, String(form.get('value') ?? ''))]],
    });
  });
  const result = evaluate.data;
  const by = result ? Object.values(result.masked)[0] : undefined;
  return (
    <Card id="try-masking" title="Try it">
      <p className="muted">A value of a column as you would see it, under this project&apos;s policies.</p>
      <Form onSubmit={submit}>
        <TextInput name="column" label="Column" isRequired spellCheck={false} />
        <ItemSelect label="Type" items={TYPES} value={type} onChange={setType} />
        <TextInput name="tags" label="Tags of the column" spellCheck={false} description="Optional, comma-separated." />
        <TextInput name="value" label="Value" spellCheck={false} />
        <FormSubmit label="Show masked value" error={evaluate.error} isDisabled={evaluate.isPending} />
      </Form>
      <div role="status">
        {result ? (
          <dl className="figures">
            <div>
              <dt>You see</dt>
              <dd>
                <code>{cellText(result.rows[0]?.[0])}</code>
              </dd>
            </div>
            <div>
              <dt>Masked by</dt>
              <dd>
                {by
                  ? `${by.policy} (${METHOD_LABEL.get(by.method as Method) ?? by.method})`
                  : 'No policy: none covers the column, or you are exempt from each that does.'}
              </dd>
            </div>
          </dl>
        ) : null}
      </div>
    </Card>
  );
}

/**
 * Masking policies of the current project: create one, change or delete it, and try a value to see
 * it as the signed-in user would.
 */
export function Masking() {
  const queries = useQueryClient();
  const { projectId, project, isLoading } = useCurrentProject();
  // The open item is in the address (/masking/<id>): shareable, and the back button closes it.
  const [editing, setEditing] = useItemRoute('/masking');
  const policies = useQuery({
    queryKey: ['masking-policies', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/masking-policies', { params: { query: { project_id: projectId! } } })),
  });
  const remove = useMutation({
    meta: { success: 'Masking policy deleted.' },
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/masking-policies/{id}', { params: { path: { id } } })),
    onSuccess: (_result, id) => {
      if (id === editing) setEditing(undefined);
      void queries.invalidateQueries({ queryKey: ['masking-policies'] });
    },
  });
  if (!project) return isLoading ? null : <p className="empty">No project to mask data in.</p>;
  const edited = policies.data?.items.find((policy) => policy.id === editing);
  return (
    <WithCreateForm
      base="/masking"
      label="New masking policy"
      back="Masking"
      form={(done) => <PolicyForm key={project.id} projectId={project.id} projectName={project.name} onDone={done} />}
    >
      {edited ? (
        <PolicyForm
          key={edited.id}
          projectId={project.id}
          projectName={project.name}
          policy={edited}
          onDone={() => setEditing(undefined)}
        />
      ) : null}
      <DataTable
        caption="Masking policies"
        read={policies}
        rowProps={(policy) => (policy.id === editing ? { 'aria-current': 'true' } : {})}
        error={remove.error}
        empty="No masking policies in this project yet."
        columns={[
          { header: 'Name', cell: (policy) => policy.name },
          { header: 'Method', cell: describeMethod },
          { header: 'Covers', cell: describeCovers },
          { header: 'Exempt', cell: describeExempt },
        ]}
        actionsClassName="row"
        actions={(policy) => (
          <>
            <Button className="secondary" aria-label={`Edit ${policy.name}`} onPress={() => setEditing(policy.id)}>
              Edit
            </Button>
            <DeleteButton
              name={`the masking policy ${policy.name}`}
              label={`Delete ${policy.name}`}
              deletes={remove}
              id={policy.id}
            />
          </>
        )}
      />
      <TryIt key={project.id} projectId={project.id} />
    </WithCreateForm>
  );
}
