import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button, Checkbox, Form, Label, Text, TextArea, TextField } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useCurrentProject } from '../../project-context';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ChoiceField, FormSubmit, TextInput, plainChoices } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { RowsTable } from '../../components/RowsTable';
import { useAiProviders } from './AiProviders';
import { ModelSchedules } from './ModelSchedules';
import { onSubmitted } from '../../components/form-data';

type Model = JsonAnswer<'/api/v1/dw-models/{id}', 'get'>;
type ModelBody = JsonBody<'/api/v1/dw-models', 'post'>;
type Graph = JsonAnswer<'/api/v1/dw-models/graph', 'get'>;
type Materialization = ModelBody['materialization'];
type Strategy = NonNullable<ModelBody['incremental_strategy']>;
type SchemaChange = NonNullable<ModelBody['on_schema_change']>;

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The run results' statuses in the classes the other screens use for runs. */
const statusClass = (status: string) =>
  status === 'success' || status === 'pass' ? 'succeeded' : status === 'error' || status === 'fail' ? 'failed' : '';

const EXAMPLE = "select id, amount\n  from {{ source('raw', 'orders') }}";

/** A model's SQL drafted by an AI provider from a question: shown, checked by the server, used only when the user says so. */
function DraftWithAi({ project, onUse }: { project: string; onUse: (sql: string) => void }) {
  const providers = useAiProviders(project);
  const [provider, setProvider] = useState<string | undefined>();
  const draft = useMutation({
    mutationFn: (body: { question: string; include_samples: boolean }) =>
      unwrap(
        api.POST('/api/v1/ai-providers/{id}/draft-model', {
          params: { path: { id: provider! } },
          body: { project_id: project, ...body },
        }),
      ),
  });
  const usable = (providers.data?.items ?? []).filter((p) => p.enabled);
  return (
    <section aria-labelledby="draft-with-ai">
      <h3 id="draft-with-ai">Draft with AI</h3>
      <ItemSelect
        label="AI provider"
        items={usable}
        value={provider}
        onChange={setProvider}
        isRequired={false}
        empty="No AI provider for this project (see AI providers)"
      />
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          draft.mutate({
            question: String(form.get('question') ?? ''),
            include_samples: form.get('include_samples') === 'true',
          });
        }}
      >
        <TextInput
          name="question"
          label="Question"
          isRequired
          description="The prompt carries the project's warehouse tables and columns."
        />
        <Checkbox name="include_samples" value="true">
          Include a few sample rows (masked)
        </Checkbox>
        <FormSubmit label="Draft SQL" error={draft.error} isDisabled={draft.isPending || !provider} />
      </Form>
      {draft.data ? (
        <>
          <div className="table-wrap" tabIndex={0}>
            <pre aria-label="Drafted SQL">{draft.data.sql}</pre>
          </div>
          <div className="row">
            <Button className="secondary" onPress={() => onUse(draft.data.sql)}>
              Use this SQL
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}

/** A model opened (or a new one): its SQL edited, compiled and previewed (unsaved text too), saved. */
function ModelEditor({ project, model, onDone }: { project: string; model: Model | undefined; onDone: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState(model?.name ?? '');
  const [sql, setSql] = useState(model?.sql ?? EXAMPLE);
  const [materialization, setMaterialization] = useState<Materialization>(
    (model?.materialization as Materialization | undefined) ?? 'view',
  );
  const [strategy, setStrategy] = useState<Strategy>((model?.incremental_strategy as Strategy | undefined) ?? 'merge');
  const [schemaChange, setSchemaChange] = useState<SchemaChange>(
    (model?.on_schema_change as SchemaChange | undefined) ?? 'ignore',
  );
  const [tests, setTests] = useState(JSON.stringify(model?.tests ?? [], null, 2));
  const [unreadable, setUnreadable] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (body: ModelBody) =>
      model
        ? unwrap(api.PATCH('/api/v1/dw-models/{id}', { params: { path: { id: model.id } }, body }))
        : unwrap(api.POST('/api/v1/dw-models', { body })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['dw-models'] });
      void queries.invalidateQueries({ queryKey: ['dw-models-graph'] });
      if (!model) onDone();
    },
  });
  const compile = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/dw-models/{id}/compile', { params: { path: { id: model!.id } }, body: { sql } })),
  });
  const preview = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/dw-models/{id}/preview', { params: { path: { id: model!.id } }, body: { sql, limit: 20 } }),
      ),
  });
  const submit = onSubmitted(({ form }) => {
    let parsedTests: ModelBody['tests'];
    try {
      parsedTests = JSON.parse(tests || '[]') as ModelBody['tests'];
      setUnreadable(undefined);
    } catch (error) {
      setUnreadable(`The tests are not JSON: ${(error as Error).message}`);
      return;
    }
    save.mutate({
      project_id: project,
      name,
      sql,
      materialization,
      incremental_strategy: strategy,
      on_schema_change: schemaChange,
      unique_key: list(String(form.get('unique_key') ?? '')),
      tags: list(String(form.get('tags') ?? '')),
      description: String(form.get('description') ?? ''),
      tests: parsedTests,
    });
  });
  return (
    <Card id="model-editor" title={model ? `Model ${model.name}` : 'New model'} focus>
      <Form onSubmit={submit}>
        <TextInput
          label="Name"
          value={name}
          onChange={setName}
          isRequired
          description="The relation it builds: lower-case letters, digits and _."
        />
        <TextField value={sql} onChange={setSql} isRequired>
          <Label>SQL</Label>
          <TextArea rows={10} spellCheck={false} className="code" />
          <Text slot="description">
            One SELECT. {"{{ ref('model') }}"}, {"{{ source('schema', 'table') }}"}, {'{{ this }}'} and{' '}
            {'{% if is_incremental() %} … {% endif %}'}.
          </Text>
        </TextField>
        <ChoiceField
          label="Materialization"
          orientation="horizontal"
          value={materialization}
          onChange={setMaterialization}
          choices={plainChoices('view', 'table', 'incremental', 'ephemeral')}
        />
        {materialization === 'incremental' ? (
          <fieldset>
            <legend>Incremental</legend>
            <TextInput
              name="unique_key"
              label="Unique key"
              defaultValue={model?.unique_key.join(', ') ?? ''}
              description="Columns, separated by commas; needed by merge and delete_insert."
            />
            <ChoiceField
              label="Strategy"
              orientation="horizontal"
              value={strategy}
              onChange={setStrategy}
              choices={plainChoices('merge', 'append', 'delete_insert')}
            />
            <ChoiceField
              label="On schema change"
              value={schemaChange}
              onChange={setSchemaChange}
              choices={plainChoices('ignore', 'fail', 'append_new_columns', 'sync_all_columns', 'full_refresh')}
            />
          </fieldset>
        ) : null}
        <TextInput
          name="tags"
          label="Tags"
          defaultValue={model?.tags.join(', ') ?? ''}
          description="Separated by commas; select them with tag:name."
        />
        <TextInput name="description" label="Description" defaultValue={model?.description ?? ''} />
        <TextField value={tests} onChange={setTests}>
          <Label>Data tests (JSON)</Label>
          <TextArea rows={4} spellCheck={false} className="code" />
          <Text slot="description">
            For example{' '}
            {'[{"type": "not_null", "column": "id"}, {"type": "unique", "column": "id", "severity": "warn"}]'}
          </Text>
        </TextField>
        <FormSubmit
          label={model ? 'Save model' : 'Create model'}
          error={save.error}
          invalid={unreadable}
          isDisabled={save.isPending}
          onCancel={onDone}
        />
      </Form>
      <DraftWithAi project={project} onUse={setSql} />
      {model ? (
        <>
          <div className="row">
            <Button className="secondary" onPress={() => compile.mutate()} isDisabled={compile.isPending}>
              Compile
            </Button>
            <Button className="secondary" onPress={() => preview.mutate()} isDisabled={preview.isPending}>
              Preview
            </Button>
          </div>
          {sql !== model.sql ? (
            <p className="muted">Unsaved SQL: compile and preview use it; a run uses the saved model.</p>
          ) : null}
          <ErrorNotice error={compile.error ?? preview.error} />
          {compile.data ? (
            <section aria-label="Compiled SQL">
              <h3>Compiled SQL</h3>
              <div className="table-wrap" tabIndex={0}>
                <pre>{compile.data.sql}</pre>
              </div>
            </section>
          ) : null}
          {preview.data ? (
            <RowsTable
              caption="Preview: the first rows"
              columns={preview.data.columns}
              rows={preview.data.rows}
              empty="No rows."
            />
          ) : null}
        </>
      ) : (
        <p className="muted">Compile and preview once the model is created.</p>
      )}
    </Card>
  );
}

/** The models as a DAG drawn in layers (a model right of everything it refers to), with the run order as text. */
function Dag({ graph }: { graph: Graph }) {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const depth = new Map<string, number>();
  for (const id of graph.order) {
    const upstream = graph.edges.filter((e) => e.to === id).map((e) => depth.get(e.from) ?? 0);
    depth.set(id, upstream.length ? Math.max(...upstream) + 1 : 0);
  }
  const rowInLayer = new Map<string, number>();
  const layers = new Map<number, number>();
  for (const id of graph.order) {
    const d = depth.get(id) ?? 0;
    rowInLayer.set(id, layers.get(d) ?? 0);
    layers.set(d, (layers.get(d) ?? 0) + 1);
  }
  const W = 170;
  const H = 30;
  const GAP_X = 50;
  const GAP_Y = 14;
  const x = (id: string) => (depth.get(id) ?? 0) * (W + GAP_X) + 4;
  const y = (id: string) => (rowInLayer.get(id) ?? 0) * (H + GAP_Y) + 4;
  const width = Math.max(1, ...layers.keys()) * (W + GAP_X) + W + 8;
  const height = Math.max(1, ...layers.values()) * (H + GAP_Y) + 8;
  return (
    <>
      <div className="table-wrap" tabIndex={0} aria-label="Dependency graph, scrollable">
        <svg width={width} height={height} role="img" aria-labelledby="dag-title">
          <title id="dag-title">
            Dependency graph of {graph.nodes.length} models; each model is drawn right of the models it refers to
          </title>
          {graph.edges.map((e) => (
            <line
              key={`${e.from}-${e.to}`}
              x1={x(e.from) + W}
              y1={y(e.from) + H / 2}
              x2={x(e.to)}
              y2={y(e.to) + H / 2}
              stroke="#4a525c"
            />
          ))}
          {graph.nodes.map((n) => (
            <g key={n.id}>
              <rect
                x={x(n.id)}
                y={y(n.id)}
                width={W}
                height={H}
                rx={4}
                fill={n.materialization === 'view' ? '#e8f0fe' : n.materialization === 'ephemeral' ? '#fff' : '#d3e3fd'}
                stroke="#0b57d0"
                strokeDasharray={n.materialization === 'ephemeral' ? '4 3' : undefined}
              />
              <text x={x(n.id) + 8} y={y(n.id) + 19} fontSize="13" fill="#1f1f1f">
                {n.name.length > 20 ? `${n.name.slice(0, 19)}…` : n.name} ({n.materialization[0]})
              </text>
            </g>
          ))}
        </svg>
      </div>
      <p className="muted">
        Run order: {graph.order.map((id) => byId.get(id)?.name).join(' → ') || 'no models'}. (v) view, (t) table, (i)
        incremental, (e) ephemeral.
      </p>
    </>
  );
}

/** Runs a selection and follows the run: a line per model, polled while it runs. */
function RunModels({ project }: { project: string }) {
  const [executionId, setExecutionId] = useState<string | undefined>();
  const run = useMutation({
    mutationFn: (body: { project_id: string; select: string[]; full_refresh: boolean }) =>
      unwrap(api.POST('/api/v1/dw-models/run', { body })),
    onSuccess: (execution) => setExecutionId(execution.id),
  });
  const results = useQuery({
    queryKey: ['dw-model-run', executionId],
    queryFn: () => unwrap(api.GET('/api/v1/dw-models/runs/{id}', { params: { path: { id: executionId! } } })),
    enabled: !!executionId,
    refetchInterval: (query) =>
      query.state.data && !['queued', 'running'].includes(query.state.data.status) ? false : 1000,
  });
  useEffect(() => setExecutionId(undefined), [project]);
  const submit = onSubmitted(({ form }) => {
    run.mutate({
      project_id: project,
      select: list(String(form.get('select') ?? '')),
      full_refresh: form.get('full_refresh') === 'true',
    });
  });
  return (
    <Card id="run-models" title="Run models">
      <Form onSubmit={submit}>
        <TextInput
          name="select"
          label="Selection"
          description="Separated by spaces: name, +name (with upstream), name+ (with downstream), tag:x. Empty: every model."
        />
        <Checkbox name="full_refresh" value="true">
          Full refresh (build incremental models whole)
        </Checkbox>
        <FormSubmit label="Run" error={run.error} isDisabled={run.isPending} />
      </Form>
      {results.data ? (
        <>
          <p role="status">
            Run <code>{results.data.execution_id}</code>:{' '}
            <span className={`status ${results.data.status}`}>{results.data.status}</span>
            {['queued', 'running'].includes(results.data.status) ? <progress aria-label="Running" /> : null}
          </p>
          <DataTable
            caption="Results per model"
            rows={results.data.results}
            rowKey={(line) => line.model}
            empty="No model finished yet."
            columns={[
              { header: 'Model', cell: (line) => line.model },
              {
                header: 'Status',
                cell: (line) => <span className={`status ${statusClass(line.status)}`}>{line.status}</span>,
              },
              { header: 'Rows', cell: (line) => (line.rows === null ? '—' : line.rows.toLocaleString()) },
              { header: 'Duration', cell: (line) => `${(line.duration_ms / 1000).toFixed(2)} s` },
              {
                header: 'Tests',
                cell: (line) =>
                  line.tests.length ? (
                    <ul className="runs">
                      {line.tests.map((test) => (
                        <li key={test.name}>
                          <span className={`status ${statusClass(test.status)}`}>{test.status}</span> {test.name}
                          {test.message ? <span className="muted"> ({test.message})</span> : null}
                        </li>
                      ))}
                    </ul>
                  ) : (
                    '—'
                  ),
              },
              { header: 'Error', cell: (line) => line.error ?? '' },
            ]}
          />
        </>
      ) : null}
    </Card>
  );
}

/** Warehouse models of a project: the list, the SQL editor with compile and preview, the DAG, runs and their results. */
export function Models() {
  const queries = useQueryClient();
  const { projectId: project } = useCurrentProject();
  // The open model is in the address (/models/<id>, /models/new): shareable, and the back button closes it.
  // A model of another project is not in this project's list, so it stays closed there.
  const [open, setOpen] = useItemRoute('/models');
  const models = useQuery({
    queryKey: ['dw-models', project],
    queryFn: () => unwrap(api.GET('/api/v1/dw-models', { params: { query: { project_id: project } } })),
    enabled: !!project,
  });
  const graph = useQuery({
    queryKey: ['dw-models-graph', project],
    queryFn: () => unwrap(api.GET('/api/v1/dw-models/graph', { params: { query: { project_id: project } } })),
    enabled: !!project,
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/dw-models/{id}', { params: { path: { id } } })),
    onSuccess: (_result, id) => {
      if (open === id) setOpen(undefined);
      void queries.invalidateQueries({ queryKey: ['dw-models'] });
      void queries.invalidateQueries({ queryKey: ['dw-models-graph'] });
    },
  });
  const opened = models.data?.items.find((m) => m.id === open);
  return (
    <>
      {project ? (
        <>
          <div className="row">
            <Button onPress={() => setOpen('new')}>New model</Button>
          </div>
          {open === 'new' ? (
            <ModelEditor key="new" project={project} model={undefined} onDone={() => setOpen(undefined)} />
          ) : opened ? (
            <ModelEditor key={opened.id} project={project} model={opened} onDone={() => setOpen(undefined)} />
          ) : null}
          <DataTable
            caption="Models"
            read={models}
            rowProps={(m) => ({ 'aria-selected': m.id === open })}
            error={remove.error}
            empty="No models in this project yet."
            columns={[
              { header: 'Name', cell: (m) => m.name },
              { header: 'Materialization', cell: (m) => m.materialization },
              { header: 'Refers to', cell: (m) => m.refs.join(', ') || '—' },
              { header: 'Tags', cell: (m) => m.tags.join(', ') || '—' },
              { header: 'Tests', cell: (m) => m.tests.length },
            ]}
            actions={(m) => (
              <div className="row">
                <Button className="secondary" aria-label={`Open ${m.name}`} onPress={() => setOpen(m.id)}>
                  Open
                </Button>
                <DeleteButton
                  name={m.name}
                  warning="The relation it built stays in the warehouse."
                  deletes={remove}
                  id={m.id}
                />
              </div>
            )}
          />
          {graph.data?.nodes.length ? (
            <Card id="model-graph" title="Dependency graph">
              <Dag graph={graph.data} />
            </Card>
          ) : null}
          <RunModels project={project} />
          <ModelSchedules key={project} project={project} />
        </>
      ) : (
        <p className="empty">No project yet: create one under Projects, then choose it in the project switcher.</p>
      )}
    </>
  );
}
