import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { usePipelines } from '../../api/queries';
import { useCurrentProject } from '../../project-context';
import { DeleteButton } from '../../components/DeleteButton';
import { WithCreateForm } from '../../components/CreateRoute';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { CheckboxField, FormSubmit } from '../../components/fields';
import {
  describeTiming,
  ScheduleFields,
  timingOf,
  type MissedPolicy,
  type TimingKind,
} from '../../components/ScheduleFields';
import { ItemSelect } from '../../components/ItemSelect';
import { onSubmitted } from '../../components/form-data';

type ScheduleBody = JsonBody<'/api/v1/etl/schedules', 'post'>;
type Action = 'pause' | 'resume' | 'delete';

/** Schedules a pipeline: a cron expression in a time zone, or a fixed interval. */
function NewSchedule({ onCreated }: { onCreated: () => void }) {
  const queries = useQueryClient();
  const pipelines = usePipelines();
  const { projectId } = useCurrentProject();
  const [pipeline, setPipeline] = useState<string | undefined>();
  const [timing, setTiming] = useState<TimingKind>('cron');
  const [policy, setPolicy] = useState<MissedPolicy>('skip');
  // A new key empties the form after a schedule was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    meta: { success: 'Schedule created.' },
    mutationFn: (body: ScheduleBody) => unwrap(api.POST('/api/v1/etl/schedules', { body })),
    onSuccess: () => {
      setPipeline(undefined);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['schedules-dashboard'] });
      onCreated();
    },
  });
  const submit = onSubmitted(({ form }) => {
    if (!pipeline) return;
    create.mutate({
      pipeline_id: pipeline,
      ...timingOf(form, timing),
      missed_policy: policy,
      paused: form.get('paused') === 'true',
    });
  });
  return (
    <Card id="new-schedule" title="New schedule">
      <Form key={formKey} onSubmit={submit}>
        <ItemSelect
          label="Pipeline"
          items={(pipelines.data?.items ?? []).filter((p) => p.project_id === projectId)}
          value={pipeline}
          onChange={setPipeline}
          description="One schedule per pipeline."
          empty="No pipelines yet"
        />
        <ScheduleFields
          timing={timing}
          onTimingChange={(next) => next !== 'none' && setTiming(next)}
          policy={policy}
          onPolicyChange={setPolicy}
          what="The pipeline"
        />
        <CheckboxField name="paused" label="Start paused" />
        <FormSubmit label="Create schedule" error={create.error} isDisabled={create.isPending || !pipeline} />
      </Form>
    </Card>
  );
}

/** The calls behind the row actions. */
const calls: Record<Action, (id: string) => Promise<unknown>> = {
  pause: (id) => unwrap(api.POST('/api/v1/etl/schedules/{id}/pause', { params: { path: { id } } })),
  resume: (id) => unwrap(api.POST('/api/v1/etl/schedules/{id}/resume', { params: { path: { id } } })),
  delete: (id) => unwrap(api.DELETE('/api/v1/etl/schedules/{id}', { params: { path: { id } } })),
};

/** The schedules dashboard: next due time, last run, failures in a row, missed runs; pause, resume or delete each. */
export function Schedules() {
  const queries = useQueryClient();
  const { projectId } = useCurrentProject();
  const dashboard = useQuery({
    queryKey: ['schedules-dashboard', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/schedules/dashboard', { params: { query: { project_id: projectId } } })),
    refetchInterval: 5000,
  });
  const key = ['schedules-dashboard', projectId];
  type Dashboard = NonNullable<typeof dashboard.data>;
  const act = useMutation({
    meta: { success: 'Schedule updated.' },
    mutationFn: ({ id, action }: { id: string; action: Action }) => calls[action](id),
    // Pause and resume show at once (safe: the answer or the next poll corrects them); a refusal puts
    // the row back as it was. A deletion waits for the answer.
    onMutate: async ({ id, action }) => {
      if (action === 'delete') return undefined;
      await queries.cancelQueries({ queryKey: key });
      const before = queries.getQueryData<Dashboard>(key);
      queries.setQueryData<Dashboard>(
        key,
        (now) =>
          now && {
            ...now,
            items: now.items.map((item) => (item.schedule_id === id ? { ...item, paused: action === 'pause' } : item)),
          },
      );
      return { before };
    },
    onError: (_error, _variables, context) => {
      if (context?.before) queries.setQueryData(key, context.before);
    },
    onSettled: () => void queries.invalidateQueries({ queryKey: ['schedules-dashboard'] }),
  });
  return (
    <WithCreateForm
      base="/schedules"
      label="New schedule"
      back="Schedules"
      form={(done) => <NewSchedule onCreated={done} />}
    >
      <DataTable
        caption="Schedules"
        read={dashboard}
        rowKey={(item) => item.schedule_id}
        error={act.error}
        empty="No schedules yet."
        columns={[
          { header: 'Pipeline', cell: (item) => item.pipeline_name },
          {
            header: 'When',
            cell: (item) => describeTiming(item),
          },
          {
            header: 'Next due',
            cell: (item) =>
              item.paused ? 'paused' : item.next_due_at ? new Date(item.next_due_at).toLocaleString() : '—',
          },
          {
            header: 'Last run',
            cell: (item) =>
              item.last_run ? (
                <>
                  <span className={`status ${item.last_run.status}`}>{item.last_run.status}</span>
                  {item.last_run.duration_ms !== null ? ` in ${(item.last_run.duration_ms / 1000).toFixed(1)} s` : ''}
                </>
              ) : (
                'never'
              ),
          },
          {
            header: 'Failures in a row',
            cell: (item) => item.failures_in_a_row,
            cellProps: (item) => ({ className: item.failures_in_a_row > 0 ? 'status failed' : undefined }),
          },
          { header: 'Missed runs', cell: (item) => item.missed_runs },
        ]}
        actions={(item) => {
          const busy = act.isPending && act.variables.id === item.schedule_id;
          const toggle: Action = item.paused ? 'resume' : 'pause';
          return (
            <div className="row">
              <Button
                className="secondary"
                aria-label={`${item.paused ? 'Resume' : 'Pause'} ${item.pipeline_name}`}
                onPress={() => act.mutate({ id: item.schedule_id, action: toggle })}
                isDisabled={busy}
              >
                {item.paused ? 'Resume' : 'Pause'}
              </Button>
              <DeleteButton
                name={`the schedule of ${item.pipeline_name}`}
                label={`Delete schedule of ${item.pipeline_name}`}
                onConfirm={() => act.mutate({ id: item.schedule_id, action: 'delete' })}
                isPending={busy}
              />
            </div>
          );
        }}
      />
    </WithCreateForm>
  );
}
