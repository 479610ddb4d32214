import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { useProjects } from '../../api/queries';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { CheckboxList, ChoiceField, FormSubmit, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { SEVERITIES } from './AlertRules';
import { onSubmitted } from '../../components/form-data';

type SettingBody = JsonBody<'/api/v1/notification-settings', 'put'>;
type Severity = NonNullable<SettingBody['min_severity']>;
type Event = 'alert_firing' | 'alert_resolved';

const ALL_PROJECTS = 'all';
const EVENTS = [
  { id: 'alert_firing', name: 'an alert fires' },
  { id: 'alert_resolved', name: 'an alert is resolved' },
];

/** The signed-in user's own alert e-mails: per project or for all, severity, address, quiet hours. */
export function NotificationSettings() {
  const queries = useQueryClient();
  const projects = useProjects();
  const settings = useQuery({
    queryKey: ['notification-settings'],
    queryFn: () => unwrap(api.GET('/api/v1/notification-settings')),
  });
  const [project, setProject] = useState<string>(ALL_PROJECTS);
  const [events, setEvents] = useState<string[]>(['alert_firing', 'alert_resolved']);
  const [severity, setSeverity] = useState<Severity>('warning');
  const save = useMutation({
    mutationFn: (body: SettingBody) => unwrap(api.PUT('/api/v1/notification-settings', { body })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['notification-settings'] }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/notification-settings/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['notification-settings'] }),
  });
  const names = new Map((projects.data?.items ?? []).map((p) => [p.id, p.name]));
  const submit = onSubmitted(({ text }) => {
    const quiet = text('quiet_start') && text('quiet_end');
    save.mutate({
      project_id: project === ALL_PROJECTS ? null : project,
      events: events as Event[],
      min_severity: severity,
      email: text('email') || null,
      quiet_hours: quiet
        ? { start: text('quiet_start'), end: text('quiet_end'), timezone: text('timezone') || 'UTC' }
        : null,
    });
  });
  return (
    <>
      <Card id="notification-setting" title="My alert e-mails">
        <Form onSubmit={submit}>
          <ItemSelect
            label="Project"
            items={[{ id: ALL_PROJECTS, name: 'Every project' }, ...(projects.data?.items ?? [])]}
            value={project}
            onChange={setProject}
          />
          <CheckboxList label="Send me an e-mail when" items={EVENTS} value={events} onChange={setEvents} />
          <ChoiceField
            label="From severity"
            value={severity}
            onChange={setSeverity}
            orientation="horizontal"
            choices={SEVERITIES}
          />
          <TextInput name="email" label="Address" type="email" description="Empty: the address of your account." />
          <TextInput name="quiet_start" label="Quiet from (HH:MM)" description="Only critical alerts then." />
          <TextInput name="quiet_end" label="Quiet until (HH:MM)" />
          <TextInput
            name="timezone"
            label="Time zone"
            defaultValue={Intl.DateTimeFormat().resolvedOptions().timeZone}
            spellCheck={false}
          />
          <FormSubmit label="Save" error={save.error} isDisabled={save.isPending} />
        </Form>
      </Card>
      <DataTable
        caption="My notification settings"
        read={settings}
        error={remove.error}
        empty="None: you receive no alert e-mails."
        columns={[
          {
            header: 'Project',
            cell: (s) => (s.project_id ? (names.get(s.project_id) ?? s.project_id) : 'every project'),
          },
          { header: 'Events', cell: (s) => s.events.join(', ') || 'none' },
          { header: 'From severity', cell: (s) => s.min_severity },
          { header: 'Address', cell: (s) => s.email ?? 'my account' },
          {
            header: 'Quiet hours',
            cell: (s) =>
              s.quiet_hours ? `${s.quiet_hours.start}–${s.quiet_hours.end} ${s.quiet_hours.timezone}` : '—',
          },
        ]}
        actions={(s) => (
          <DeleteButton
            name="this setting"
            label={`Delete the setting of ${s.project_id ? (names.get(s.project_id) ?? s.project_id) : 'every project'}`}
            deletes={remove}
            id={s.id}
          />
        )}
      />
    </>
  );
}
