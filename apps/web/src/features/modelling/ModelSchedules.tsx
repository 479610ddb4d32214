import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Checkbox, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import {
  describeTiming,
  ScheduleFields,
  timingOf,
  type MissedPolicy,
  type TimingKind,
} from '../../components/ScheduleFields';
import { FormSubmit, TextInput } from '../../components/fields';
import { onSubmitted } from '../../components/form-data';

type ScheduleBody = JsonBody<'/api/v1/dw-models/schedules', 'post'>;

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Schedules of model runs in the project: a selection run on a cron expression or an interval; pause, resume, delete. */
export function ModelSchedules({ project }: { project: string }) {
  const queries = useQueryClient();
  const [timing, setTiming] = useState<TimingKind>('cron');
  const [policy, setPolicy] = useState<MissedPolicy>('skip');
  const [formKey, setFormKey] = useState(0);
  const schedules = useQuery({
    queryKey: ['dw-model-schedules', project],
    queryFn: () => unwrap(api.GET('/api/v1/dw-models/schedules', { params: { query: { project_id: project } } })),
    refetchInterval: 10_000,
  });
  const refresh = () => void queries.invalidateQueries({ queryKey: ['dw-model-schedules'] });
  const create = useMutation({
    meta: { success: 'Model schedule created.' },
    mutationFn: (body: ScheduleBody) => unwrap(api.POST('/api/v1/dw-models/schedules', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      refresh();
    },
  });
  const pause = useMutation({
    meta: { success: 'Model schedule updated.' },
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) =>
      unwrap(api.PATCH('/api/v1/dw-models/schedules/{id}', { params: { path: { id } }, body: { paused } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    meta: { success: 'Model schedule deleted.' },
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/dw-models/schedules/{id}', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const submit = onSubmitted(({ form, text }) => {
    create.mutate({
      project_id: project,
      name: text('name'),
      select: list(String(form.get('select') ?? '')),
      full_refresh: form.get('full_refresh') === 'true',
      ...timingOf(form, timing),
      missed_policy: policy,
    });
  });
  return (
    <Card id="model-schedules" title="Scheduled model runs">
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="name" label="Schedule name" isRequired />
        <TextInput
          name="select"
          label="Models to run"
          description="As for a run: name, +name, name+, tag:x, separated by spaces. Empty: every model."
        />
        <Checkbox name="full_refresh" value="true">
          Full refresh (build incremental models whole)
        </Checkbox>
        <ScheduleFields
          timing={timing}
          onTimingChange={(next) => next !== 'none' && setTiming(next)}
          policy={policy}
          onPolicyChange={setPolicy}
          what="The selection"
        />
        <FormSubmit label="Create schedule" error={create.error} isDisabled={create.isPending} />
      </Form>
      <DataTable
        caption="Schedules of model runs"
        read={schedules}
        error={pause.error ?? remove.error}
        empty="No scheduled model runs in this project."
        columns={[
          { header: 'Name', cell: (s) => s.name },
          { header: 'Models', cell: (s) => s.select.join(' ') || 'all' },
          { header: 'When', cell: (s) => describeTiming(s) },
          {
            header: 'Next due',
            cell: (s) => (s.paused ? 'paused' : s.next_due_at ? new Date(s.next_due_at).toLocaleString() : '—'),
          },
        ]}
        actions={(s) => (
          <div className="row">
            <Button
              className="secondary"
              aria-label={`${s.paused ? 'Resume' : 'Pause'} ${s.name}`}
              onPress={() => pause.mutate({ id: s.id, paused: !s.paused })}
              isDisabled={pause.isPending}
            >
              {s.paused ? 'Resume' : 'Pause'}
            </Button>
            <DeleteButton name={s.name} label={`Delete ${s.name}`} deletes={remove} id={s.id} />
          </div>
        )}
      />
    </Card>
  );
}
