import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Form, Input, Label, RadioButton, RadioField, RadioGroup, Text, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { usePipelines } from '../../api/queries';
import type { paths } from '../../api/schema';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';

type ScheduleBody = NonNullable<paths['/api/v1/etl/schedules']['post']['requestBody']>['content']['application/json'];
type Policy = NonNullable<ScheduleBody['missed_policy']>;
type Action = 'pause' | 'resume' | 'delete';

/** Schedules a pipeline: a cron expression in a time zone, or a fixed interval. */
function NewSchedule() {
  const queries = useQueryClient();
  const pipelines = usePipelines();
  const [pipeline, setPipeline] = useState<string | undefined>();
  const [timing, setTiming] = useState<'cron' | 'interval'>('cron');
  const [policy, setPolicy] = useState<Policy>('skip');
  // A new key empties the form after a schedule was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: ScheduleBody) => unwrap(api.POST('/api/v1/etl/schedules', { body })),
    onSuccess: () => {
      setPipeline(undefined);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['schedules-dashboard'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pipeline) return;
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const when = timing === 'cron' ? { cron: text('cron'), timezone: text('timezone') } : { interval_seconds: Number(text('interval_seconds')) };
    create.mutate({ pipeline_id: pipeline, ...when, missed_policy: policy, paused: form.get('paused') === 'true' });
  };
  return (
    <section className="card" aria-labelledby="new-schedule">
      <h2 id="new-schedule">New schedule</h2>
      <Form key={formKey} onSubmit={submit}>
        <ItemSelect label="Pipeline" items={pipelines.data?.items ?? []} value={pipeline} onChange={setPipeline} description="One schedule per pipeline." empty="No pipelines yet" />
        <RadioGroup value={timing} onChange={(next) => setTiming(next as 'cron' | 'interval')} orientation="horizontal">
          <Label>Timing</Label>
          <RadioField value="cron">
            <RadioButton className="react-aria-Radio">cron</RadioButton>
          </RadioField>
          <RadioField value="interval">
            <RadioButton className="react-aria-Radio">interval</RadioButton>
          </RadioField>
        </RadioGroup>
        {timing === 'cron' ? (
          <>
            <TextField name="cron" isRequired>
              <Label>Cron expression</Label>
              <Input autoComplete="off" spellCheck={false} />
              <Text slot="description">
                Five fields, or six with seconds first; e.g. <code>0 3 * * *</code> runs at 03:00.
              </Text>
            </TextField>
            <TextField name="timezone" isRequired defaultValue={Intl.DateTimeFormat().resolvedOptions().timeZone}>
              <Label>Time zone</Label>
              <Input autoComplete="off" spellCheck={false} />
              <Text slot="description">An IANA name, e.g. Europe/Paris or UTC.</Text>
            </TextField>
          </>
        ) : (
          <TextField name="interval_seconds" type="number" isRequired>
            <Label>Every (seconds)</Label>
            <Input min={1} step={1} />
            <Text slot="description">Counted from the creation, or the last resume.</Text>
          </TextField>
        )}
        <RadioGroup value={policy} onChange={(next) => setPolicy(next as Policy)}>
          <Label>Missed runs</Label>
          <Text slot="description">Due times that passed while no scheduler ran (the service was down):</Text>
          <RadioField value="skip">
            <RadioButton className="react-aria-Radio">skip</RadioButton>
            <Text slot="description">They are not run.</Text>
          </RadioField>
          <RadioField value="run_once">
            <RadioButton className="react-aria-Radio">run once</RadioButton>
            <Text slot="description">The pipeline runs once for all of them.</Text>
          </RadioField>
        </RadioGroup>
        <Checkbox name="paused" value="true">
          Start paused
        </Checkbox>
        <ErrorNotice error={create.error} />
        <Button type="submit" isDisabled={create.isPending || !pipeline}>
          Create schedule
        </Button>
      </Form>
    </section>
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
  const dashboard = useQuery({ queryKey: ['schedules-dashboard'], queryFn: () => unwrap(api.GET('/api/v1/schedules/dashboard')), refetchInterval: 5000 });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: Action }) => calls[action](id),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['schedules-dashboard'] }),
  });
  return (
    <>
      <NewSchedule />
      {dashboard.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={dashboard.error ?? act.error} />
      {dashboard.data?.items.length === 0 ? <p className="empty">No schedules yet.</p> : null}
      {dashboard.data?.items.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Schedules</caption>
            <thead>
              <tr>
                <th scope="col">Pipeline</th>
                <th scope="col">When</th>
                <th scope="col">Next due</th>
                <th scope="col">Last run</th>
                <th scope="col">Failures in a row</th>
                <th scope="col">Missed runs</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {dashboard.data.items.map((item) => {
                const busy = act.isPending && act.variables.id === item.schedule_id;
                const toggle: Action = item.paused ? 'resume' : 'pause';
                return (
                  <tr key={item.schedule_id}>
                    <td>{item.pipeline_name}</td>
                    <td>{item.kind === 'cron' ? `${item.cron} (${item.timezone})` : `every ${item.interval_seconds} s`}</td>
                    <td>{item.paused ? 'paused' : item.next_due_at ? new Date(item.next_due_at).toLocaleString() : '—'}</td>
                    <td>
                      {item.last_run ? (
                        <>
                          <span className={`status ${item.last_run.status}`}>{item.last_run.status}</span>
                          {item.last_run.duration_ms !== null ? ` in ${(item.last_run.duration_ms / 1000).toFixed(1)} s` : ''}
                        </>
                      ) : (
                        'never'
                      )}
                    </td>
                    <td className={item.failures_in_a_row > 0 ? 'status failed' : undefined}>{item.failures_in_a_row}</td>
                    <td>{item.missed_runs}</td>
                    <td>
                      <div className="row">
                        <Button className="secondary" aria-label={`${item.paused ? 'Resume' : 'Pause'} ${item.pipeline_name}`} onPress={() => act.mutate({ id: item.schedule_id, action: toggle })} isDisabled={busy}>
                          {item.paused ? 'Resume' : 'Pause'}
                        </Button>
                        <DeleteButton name={`the schedule of ${item.pipeline_name}`} label={`Delete schedule of ${item.pipeline_name}`} onConfirm={() => act.mutate({ id: item.schedule_id, action: 'delete' })} isPending={busy} />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
