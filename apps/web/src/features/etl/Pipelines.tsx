import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { navigate, stillAt, useItemRoute, useItemTab } from '../../navigation';
import { useCurrentProject } from '../../project-context';
import {
  Button,
  ComboBox,
  Form,
  Input,
  Label,
  Link,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
  ToggleButton,
} from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useConnectors, usePipelines } from '../../api/queries';
import { Card } from '../../components/Card';
import { BackToList, ListActions, useCreateRoute } from '../../components/CreateRoute';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CheckboxList, FormSubmit, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { ItemTabs } from '../../components/ItemTabs';
import { LiveRunProgress } from '../../components/RunProgress';
import { cellText, RowsTable } from '../../components/RowsTable';
import { useProjectConnectors } from '../connectivity/useProjectConnectors';
import { qualified, useConnectorDatasets } from '../governance/datasets';
import { toDraft, toStep, type StepDraft } from './pipeline-steps';
import { SuggestSteps } from '../modelling/AiAssist';
import { StepsEditor } from './StepsEditor';
import { WriteMode, type WriteModeValue } from './WriteMode';
import { onSubmitted } from '../../components/form-data';

type Pipeline = JsonAnswer<'/api/v1/etl/pipelines/{id}', 'get'>;
type PipelineBody = JsonBody<'/api/v1/etl/pipelines', 'post'>;

/** Runs of a pipeline, polled while one is queued or running; a running one shows its progress. */
function Runs({ pipelineId, limit }: { pipelineId: string; limit: number }) {
  const runs = useQuery({
    queryKey: ['pipeline-runs', pipelineId, limit],
    queryFn: () => unwrap(api.GET('/api/v1/executions', { params: { query: { pipeline_id: pipelineId, limit } } })),
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => r.status === 'queued' || r.status === 'running') ? 500 : 5000,
  });
  if (!runs.data?.items.length) return <p className="empty">Not run yet: Run now starts it.</p>;
  return (
    <ul className="runs" aria-label="Latest runs">
      {runs.data.items.map((run) => (
        <li key={run.id}>
          <span className={`status ${run.status}`}>{run.status}</span> {run.rows_read.toLocaleString()} rows read,{' '}
          {run.rows_written.toLocaleString()} written
          {run.started_at ? <span className="muted"> · {new Date(run.started_at).toLocaleString()}</span> : null}{' '}
          <Link href={`/executions/${run.id}`}>Log and details</Link>
          {run.status === 'running' || run.status === 'queued' ? <LiveRunProgress id={run.id} /> : null}
          {run.error ? <div className="muted">{run.error}</div> : null}
        </li>
      ))}
    </ul>
  );
}

const TABS = ['overview', 'steps', 'runs', 'settings'] as const;

/**
 * A pipeline's page, in tabs: what it reads and writes (overview), its steps edited and previewed on
 * a sample (with the unsaved steps), its runs, and its settings (incremental state, deletion).
 */
function PipelineDetail({
  pipeline,
  siblings,
  onDeleted,
}: {
  pipeline: Pipeline;
  siblings: Pipeline[];
  onDeleted: () => void;
}) {
  const queries = useQueryClient();
  const [tab, setTab] = useItemTab('/pipelines', pipeline.id, TABS);
  const connectors = useConnectors();
  const [steps, setSteps] = useState<StepDraft[]>([]);
  const [unreadable, setUnreadable] = useState<string | undefined>();
  // Edits since the last save; a save that answers after further edits leaves them unsaved.
  const [edits, setEdits] = useState(0);
  const editsAtSave = useRef(0);
  const saved = edits === 0;
  // The saved steps come into the form when it holds no edits: on opening, and when the pipeline
  // changes elsewhere (another tab, another user) while nothing is being edited here.
  useEffect(() => {
    if (!saved) return;
    try {
      setSteps(pipeline.transforms.map(toDraft));
      setUnreadable(undefined);
    } catch (error) {
      setUnreadable((error as Error).message);
    }
    // Only a new version of the pipeline reloads the form (not each edit).
  }, [pipeline.version]);
  const edit = (next: StepDraft[]) => {
    setSteps(next);
    setEdits((n) => n + 1);
    preview.reset();
  };
  const id = pipeline.id;
  const preview = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/etl/pipelines/{id}/preview', {
          params: { path: { id } },
          body: { limit: 20, transforms: steps.map(toStep) },
        }),
      ),
  });
  const save = useMutation({
    meta: { success: 'Pipeline saved.' },
    mutationFn: () => {
      editsAtSave.current = edits;
      return unwrap(
        api.PATCH('/api/v1/etl/pipelines/{id}', { params: { path: { id } }, body: { transforms: steps.map(toStep) } }),
      );
    },
    onSuccess: (updated) => {
      setEdits((n) => n - editsAtSave.current);
      // What was saved is now the original of each step: later edits compare against it.
      if (edits === editsAtSave.current) setSteps(updated.transforms.map(toDraft));
      void queries.invalidateQueries({ queryKey: ['pipelines'] });
    },
  });
  const run = useMutation({
    meta: { success: 'Pipeline run started.' },
    mutationFn: () => unwrap(api.POST('/api/v1/etl/pipelines/{id}/run', { params: { path: { id } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['pipeline-runs', id] });
      // The run is followed where it is shown (unless the user has left the pipeline meanwhile).
      if (tab !== 'overview' && stillAt(`/pipelines/${encodeURIComponent(id)}`)) setTab('runs');
    },
  });
  // Polled: a run that succeeds moves the cursors.
  const state = useQuery({
    queryKey: ['pipeline-state', id],
    queryFn: () => unwrap(api.GET('/api/v1/etl/pipelines/{id}/state', { params: { path: { id } } })),
    refetchInterval: 5000,
  });
  const reset = useMutation({
    meta: { success: 'Pipeline state reset.' },
    mutationFn: () => unwrap(api.DELETE('/api/v1/etl/pipelines/{id}/state', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['pipeline-state', id] }),
  });
  const remove = useMutation({
    meta: { success: 'Pipeline deleted.' },
    mutationFn: () => unwrap(api.DELETE('/api/v1/etl/pipelines/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      onDeleted();
      void queries.invalidateQueries({ queryKey: ['pipelines'] });
    },
  });
  const cursors = state.data?.streams.filter((s) => s.cursor_column) ?? [];
  const connectorName = (connectorId: string) =>
    connectors.data?.items.find((c) => c.id === connectorId)?.name ?? connectorId;
  const nameOf = (pipelineId: string) => siblings.find((p) => p.id === pipelineId)?.name ?? pipelineId;
  const dependents = siblings.filter((p) => p.depends_on.includes(id));
  return (
    <Card id="pipeline-detail" title={pipeline.name}>
      <div className="row">
        <Button onPress={() => run.mutate()} isDisabled={run.isPending || !saved}>
          Run now
        </Button>
        <Button className="secondary" onPress={() => navigate(`/lineage/${encodeURIComponent(`item:${pipeline.id}`)}`)}>
          Lineage
        </Button>
      </div>
      {saved ? null : (
        <p className="muted">Unsaved steps: the preview uses them; a run uses the saved ones, so save first.</p>
      )}
      <ErrorNotice error={run.error} />
      <ItemTabs
        base="/pipelines"
        itemId={pipeline.id}
        label={`Sections of ${pipeline.name}`}
        tab={tab}
        onTab={setTab}
        tabs={[
          {
            id: 'overview',
            title: 'Overview',
            content: () => (
              <>
                <dl className="details">
                  <dt>Reads</dt>
                  <dd>
                    {pipeline.sources
                      .map(
                        (s) =>
                          `${s.query ? 'a query' : [s.namespace, s.dataset].filter(Boolean).join('.')} of ${connectorName(s.connector_id)}`,
                      )
                      .join('; ')}
                  </dd>
                  <dt>Steps</dt>
                  <dd>
                    {pipeline.transforms.map((t) => String(t['type'])).join(' → ') || 'none: rows are copied as read'}
                  </dd>
                  <dt>Writes</dt>
                  <dd>
                    {[pipeline.destination.namespace, pipeline.destination.table].filter(Boolean).join('.')} of{' '}
                    {connectorName(pipeline.destination.connector_id)} ({pipeline.destination.mode}
                    {pipeline.destination.key_columns.length
                      ? ` on ${pipeline.destination.key_columns.join(', ')}`
                      : ''}
                    )
                  </dd>
                  <dt>Runs after</dt>
                  <dd>{pipeline.depends_on.map(nameOf).join(', ') || '—'}</dd>
                  <dt>Starts</dt>
                  <dd>{dependents.map((p) => p.name).join(', ') || '—'}</dd>
                </dl>
                <h3>Latest run</h3>
                <Runs pipelineId={id} limit={1} />
              </>
            ),
          },
          {
            id: 'steps',
            title: 'Steps',
            content: () => (
              <>
                {unreadable ? (
                  <p role="alert" className="error">
                    The steps cannot be edited here ({unreadable}); runs still use them.
                  </p>
                ) : (
                  <>
                    <StepsEditor steps={steps} onChange={edit} />
                    <SuggestSteps
                      projectId={pipeline.project_id}
                      onUse={(more) => edit([...steps, ...more.map(toDraft)])}
                    />
                  </>
                )}
                <div className="row">
                  <Button
                    className="secondary"
                    onPress={() => preview.mutate()}
                    isDisabled={preview.isPending || !!unreadable}
                  >
                    Preview
                  </Button>
                  <Button
                    className="secondary"
                    onPress={() => save.mutate()}
                    isDisabled={saved || save.isPending || !!unreadable}
                  >
                    Save steps
                  </Button>
                </div>
                <ErrorNotice error={preview.error ?? save.error} />
                {preview.data ? (
                  <RowsTable
                    caption={`Preview: the first rows after the steps (${preview.data.pushdown ? 'a run pushes the steps into the source' : 'a run transforms in process'})`}
                    columns={preview.data.columns}
                    rows={preview.data.rows}
                    empty="No rows pass the steps in the sample."
                  />
                ) : null}
              </>
            ),
          },
          {
            id: 'runs',
            title: 'Runs',
            content: () => (
              <>
                <Runs pipelineId={id} limit={10} />
              </>
            ),
          },
          {
            id: 'settings',
            title: 'Settings',
            content: () => (
              <>
                <h3>Incremental state</h3>
                {cursors.length ? (
                  <>
                    <ul>
                      {cursors.map((c) => (
                        <li key={c.stream}>
                          {c.stream}: past {c.cursor_column} ={' '}
                          {c.cursor_value === null
                            ? 'nothing yet (the next run reads everything)'
                            : cellText(c.cursor_value)}
                        </li>
                      ))}
                    </ul>
                    <Button className="secondary" onPress={() => reset.mutate()} isDisabled={reset.isPending}>
                      Reset incremental state
                    </Button>
                  </>
                ) : (
                  <p className="empty">No cursor column: every run reads everything.</p>
                )}
                <ErrorNotice error={state.error ?? reset.error ?? remove.error} />
                <h3>Delete</h3>
                <DeleteButton
                  name={pipeline.name}
                  label="Delete pipeline"
                  onConfirm={() => remove.mutate()}
                  isPending={remove.isPending}
                />
              </>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** Builds a pipeline: a source dataset (from the catalog, or typed), the steps, a destination table. */
function NewPipeline({ onCreated }: { onCreated: (pipeline: Pipeline) => void }) {
  const queries = useQueryClient();
  const { project, source, setSource, destination, setDestination, inProject } = useProjectConnectors();
  const [dataset, setDataset] = useState('');
  const [mode, setMode] = useState<WriteModeValue>('append');
  const [steps, setSteps] = useState<StepDraft[]>([]);
  const [upstream, setUpstream] = useState<string[]>([]);
  const [formKey, setFormKey] = useState(0);
  const pipelines = usePipelines();
  const siblings = (pipelines.data?.items ?? []).filter((p) => p.project_id === project);
  const catalog = useConnectorDatasets(source);
  const create = useMutation({
    meta: { success: 'Pipeline created.' },
    mutationFn: (body: PipelineBody) => unwrap(api.POST('/api/v1/etl/pipelines', { body })),
    onSuccess: (pipeline) => {
      setSteps([]);
      setUpstream([]);
      setDataset('');
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['pipelines'] });
      onCreated(pipeline);
    },
  });
  const submit = onSubmitted(({ text }) => {
    if (!project || !source || !destination) return;
    // A dataset picked from the catalog carries its namespace; a typed one is the connector's own.
    const known = catalog.data?.items.find((d) => qualified(d) === dataset.trim());
    const keys = text('key_columns')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    create.mutate({
      project_id: project,
      name: text('name'),
      sources: [
        {
          connector_id: source,
          ...(known ? { namespace: known.namespace, dataset: known.name } : { dataset: dataset.trim() }),
          ...(text('cursor_column') ? { cursor_column: text('cursor_column') } : {}),
        },
      ],
      transforms: steps.map(toStep),
      destination: {
        connector_id: destination,
        table: text('table'),
        mode,
        ...(keys.length ? { key_columns: keys } : {}),
      },
      ...(upstream.length ? { depends_on: upstream } : {}),
    });
  });
  return (
    <Card id="new-pipeline" title="New pipeline">
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="name" label="Name" isRequired />
        <fieldset>
          <legend>Source</legend>
          <ItemSelect
            label="Source connector"
            items={inProject()}
            value={source}
            onChange={(id) => {
              setSource(id);
              setDataset('');
            }}
            isDisabled={!project}
            empty="No connectors in this project"
          />
          <ComboBox
            allowsCustomValue
            inputValue={dataset}
            onInputChange={setDataset}
            isRequired
            isDisabled={!source}
            items={catalog.data?.items ?? []}
          >
            <Label>Source dataset</Label>
            <div className="row">
              <Input />
              <Button className="secondary" aria-label="Datasets in the catalog">
                ▾
              </Button>
            </div>
            <Text slot="description">Pick one the catalog found, or type a table, file dataset or endpoint.</Text>
            <Popover>
              <ListBox>
                {(item: { id: string; namespace: string | null; name: string }) => (
                  <ListBoxItem id={item.id}>{qualified(item)}</ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </ComboBox>
          <TextInput
            name="cursor_column"
            label="Cursor column"
            description="Optional: each run then reads only rows past the value the previous run reached."
          />
        </fieldset>
        <fieldset>
          <legend>Steps</legend>
          <StepsEditor steps={steps} onChange={setSteps} />
          <SuggestSteps projectId={project} onUse={(more) => setSteps([...steps, ...more.map(toDraft)])} />
        </fieldset>
        <fieldset>
          <legend>Destination</legend>
          <ItemSelect
            label="Destination connector"
            items={inProject()}
            value={destination}
            onChange={setDestination}
            isDisabled={!project}
            empty="No connectors in this project"
          />
          <TextInput name="table" label="Table" isRequired />
          <WriteMode value={mode} onChange={setMode} order={['append', 'overwrite', 'upsert']} />
          {mode === 'upsert' ? (
            <TextInput name="key_columns" label="Key columns" isRequired description="Comma-separated" />
          ) : null}
        </fieldset>
        {siblings.length ? (
          <CheckboxList
            label="Run after"
            description="Each successful run of a pipeline ticked here starts this one."
            items={siblings}
            value={upstream}
            onChange={setUpstream}
          />
        ) : null}
        <FormSubmit label="Create pipeline" error={create.error} isDisabled={create.isPending || !project} />
      </Form>
    </Card>
  );
}

const PipelineGraph = lazy(() => import('./PipelineGraph').then((m) => ({ default: m.PipelineGraph })));

/**
 * Pipelines of the current project: the list (or the graph of what runs after what) with a "New
 * pipeline" button; the form at /pipelines/new; a pipeline's page at /pipelines/<id>.
 */
export function Pipelines() {
  const pipelines = usePipelines();
  const { projectId } = useCurrentProject();
  const inProject = pipelines.data?.items.filter((p) => p.project_id === projectId);
  const [selected, setSelected] = useItemRoute('/pipelines');
  const { creating, start, leave, back } = useCreateRoute('/pipelines');
  const [asGraph, setAsGraph] = useState(false);
  const open = pipelines.data?.items.find((p) => p.id === selected);
  const nameOf = (id: string) => pipelines.data?.items.find((p) => p.id === id)?.name ?? id;
  if (creating)
    return (
      <BackToList back="Pipelines" onBack={back}>
        <NewPipeline key={projectId} onCreated={(pipeline) => leave(`/pipelines/${pipeline.id}`)} />
      </BackToList>
    );
  if (open)
    return (
      <BackToList back="Pipelines" onBack={() => setSelected(undefined)}>
        <PipelineDetail
          key={open.id}
          pipeline={open}
          siblings={inProject ?? []}
          onDeleted={() => setSelected(undefined)}
        />
      </BackToList>
    );
  return (
    <>
      <ListActions label="New pipeline" onNew={start} isDisabled={!projectId}>
        <ToggleButton className="react-aria-Button secondary" isSelected={asGraph} onChange={setAsGraph}>
          Dependency graph
        </ToggleButton>
      </ListActions>
      {asGraph && inProject?.length ? (
        <Suspense fallback={<p aria-busy="true">Drawing…</p>}>
          <PipelineGraph pipelines={inProject} onOpen={setSelected} />
        </Suspense>
      ) : null}
      <DataTable
        caption="Pipelines"
        rows={inProject}
        rowKey={(pipeline) => pipeline.id}
        pending={pipelines.isPending}
        error={pipelines.error}
        empty="No pipelines yet: New pipeline builds one from a source dataset, steps and a destination table."
        columns={[
          { header: 'Name', cell: (pipeline) => pipeline.name },
          { header: 'Streams', cell: (pipeline) => pipeline.sources.map((s) => s.name).join(', ') },
          { header: 'Steps', cell: (pipeline) => pipeline.transforms.map((t) => String(t['type'])).join(' → ') || '—' },
          { header: 'Destination', cell: (pipeline) => `${pipeline.destination.table} (${pipeline.destination.mode})` },
          {
            header: 'Runs after',
            cell: (pipeline) => pipeline.depends_on.map((upstream) => nameOf(upstream)).join(', ') || '—',
          },
        ]}
        actions={(pipeline) => (
          <Button className="secondary" aria-label={`Open ${pipeline.name}`} onPress={() => setSelected(pipeline.id)}>
            Open
          </Button>
        )}
      />
    </>
  );
}
