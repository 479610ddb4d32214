import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Checkbox, Form, Input, Label, Text, TextArea, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useProjects, useRoles } from '../../api/queries';
import type { paths } from '../../api/schema';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';

type Provider = paths['/api/v1/sso/providers']['get']['responses'][200]['content']['application/json']['items'][number];
type SsoBody = paths['/api/v1/sso/providers']['post']['requestBody']['content']['application/json'];
type LdapBody = paths['/api/v1/ldap/providers']['post']['requestBody']['content']['application/json'];
type GroupMapping = NonNullable<SsoBody['config']['group_mappings']>[number];
type LdapCheck = paths['/api/v1/ldap/providers/{id}/test']['post']['responses'][200]['content']['application/json'];

/** A group mapping being edited: the project and role stay empty until chosen. */
interface MappingDraft {
  key: number;
  group: string;
  project_id: string | null;
  role: string | null;
}

let nextMappingKey = 0;
const draftOf = (mapping?: GroupMapping): MappingDraft => ({ key: nextMappingKey++, group: mapping?.group ?? '', project_id: mapping?.project_id ?? null, role: mapping?.role ?? null });

/** Whether a stored value is a complete group mapping. */
function isMapping(value: unknown): value is GroupMapping {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['group'] === 'string' && typeof record['project_id'] === 'string' && typeof record['role'] === 'string';
}

/** The stored group mappings of a provider, as rows to edit. */
function draftsOf(config: Record<string, unknown> | undefined): MappingDraft[] {
  const value = config?.['group_mappings'];
  return Array.isArray(value) ? value.filter(isMapping).map(draftOf) : [];
}

/** The rows as the API's group mappings, or undefined while one lacks its group, project or role. */
function mappingsOf(drafts: MappingDraft[]): GroupMapping[] | undefined {
  const mappings = drafts.flatMap((d) => (d.group.trim() && d.project_id && d.role ? [{ group: d.group.trim(), project_id: d.project_id, role: d.role }] : []));
  return mappings.length === drafts.length ? mappings : undefined;
}

/** A stored text (or number) setting, or '' when it is not set. */
function textOf(config: Record<string, unknown> | undefined, key: string): string {
  const value = config?.[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** A stored list setting as comma-separated text. */
function listOf(config: Record<string, unknown> | undefined, key: string): string {
  const value = config?.[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').join(', ') : '';
}

/** Comma- (or space-) separated text as a list, without empty items. */
const splitList = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

/** A form field's text, trimmed ('' when absent). */
const field = (form: FormData, name: string): string => String(form.get(name) ?? '').trim();

/** The fields every provider has, as the API takes them: name, enabled, position (left out when emptied). */
function commonOf(form: FormData): { name: string; enabled: boolean; position?: number } {
  const position = field(form, 'position');
  return { name: field(form, 'name'), enabled: form.get('enabled') === 'true', ...(position ? { position: Number(position) } : {}) };
}

/** The result of an LDAP check, in words: OK, or the reason and message the API gives. */
const describeCheck = (result: LdapCheck): string =>
  result.ok ? 'OK: connection, TLS, service bind and user base work' : `Failed (${result.reason ?? 'error'}): ${result.message ?? ''}`;

/** The state a provider section keeps: its list, the provider being edited, the form's key and focus, the last save, deletion. */
function useProviders(queryKey: string, list: () => Promise<{ items: Provider[] }>, remove: (id: string) => Promise<unknown>) {
  const queries = useQueryClient();
  const providers = useQuery({ queryKey: [queryKey], queryFn: list });
  const [editing, setEditing] = useState<string | undefined>();
  // A new key empties the form after a save; the focus moves to the form when it changes on request.
  const [formKey, setFormKey] = useState(0);
  const [focusForm, setFocusForm] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const removal = useMutation({
    mutationFn: remove,
    onSuccess: (_, id) => {
      setEditing((current) => (current === id ? undefined : current));
      void queries.invalidateQueries({ queryKey: [queryKey] });
    },
  });
  return {
    providers,
    removal,
    editing,
    edited: providers.data?.items.find((p) => p.id === editing),
    formKey: `${editing ?? 'new'}-${formKey}`,
    focusForm,
    saved,
    /** Opens the form on a provider (undefined: back to a new one). */
    open: (id: string | undefined) => {
      setEditing(id);
      setSaved(undefined);
      setFocusForm(true);
    },
    onSaved: (name: string) => {
      setEditing(undefined);
      setFormKey((k) => k + 1);
      setSaved(name);
      setFocusForm(true);
      void queries.invalidateQueries({ queryKey: [queryKey] });
    },
  };
}

/** The group mappings of a provider: one row per mapping (group → project → role), added and removed in place. */
function GroupMappings({ rows, onChange }: { rows: MappingDraft[]; onChange: (rows: MappingDraft[]) => void }) {
  const projects = useProjects();
  const roles = useRoles();
  const roleItems = (roles.data?.items ?? []).map((role) => ({ id: role.name, name: role.name }));
  const addButton = useRef<HTMLButtonElement>(null);
  // The row just added takes the focus.
  const [added, setAdded] = useState<number | undefined>();
  const update = (key: number, change: Partial<MappingDraft>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <>
      <p className="muted">At sign-in, a member of the group becomes a member of the project with the role (a user who is a member already keeps their role).</p>
      <ErrorNotice error={projects.error ?? roles.error} />
      {rows.length === 0 ? <p className="empty">No group mappings.</p> : null}
      {rows.map((row, index) => {
        const n = index + 1;
        return (
          <div key={row.key} role="group" aria-label={`Mapping ${n}`} className="row">
            <TextField value={row.group} onChange={(group) => update(row.key, { group })} isRequired>
              <Label>{`Group of mapping ${n}`}</Label>
              <Input autoComplete="off" autoFocus={row.key === added} />
            </TextField>
            <ItemSelect label={`Project of mapping ${n}`} items={projects.data?.items ?? []} value={row.project_id} onChange={(id) => update(row.key, { project_id: id })} empty="No projects" />
            <ItemSelect label={`Role of mapping ${n}`} items={roleItems} value={row.role} onChange={(id) => update(row.key, { role: id })} empty="No roles" />
            <Button
              className="secondary"
              onPress={() => {
                addButton.current?.focus();
                onChange(rows.filter((r) => r.key !== row.key));
              }}
            >
              {`Remove mapping ${n}`}
            </Button>
          </div>
        );
      })}
      <div className="row">
        <Button
          ref={addButton}
          className="secondary"
          onPress={() => {
            const next = draftOf();
            setAdded(next.key);
            onChange([...rows, next]);
          }}
        >
          Add mapping
        </Button>
      </div>
    </>
  );
}

/** A form card, a region named by its heading, which takes the focus when the card changed on request. */
function FormCard({ id, title, focus, notice, children }: { id: string; title: string; focus: boolean; notice?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h2>
      {notice}
      {children}
    </section>
  );
}

/** The fields every provider has: its name, whether it is enabled, and its position. */
function CommonFields({ nameLabel, provider, positionHelp }: { nameLabel: string; provider?: Provider; positionHelp: string }) {
  return (
    <>
      <TextField name="name" isRequired maxLength={100} defaultValue={provider?.name ?? ''}>
        <Label>{nameLabel}</Label>
        <Input autoComplete="off" />
      </TextField>
      <Checkbox name="enabled" value="true" defaultSelected={provider?.enabled ?? true}>
        Enabled
      </Checkbox>
      <TextField name="position" type="number" defaultValue={String(provider?.position ?? 0)}>
        <Label>Position</Label>
        <Input min={0} step={1} inputMode="numeric" />
        <Text slot="description">{positionHelp}</Text>
      </TextField>
    </>
  );
}

/** A write-only secret: never shown; when editing, an empty field keeps the stored value. */
function SecretField({ name, label, provider, optional }: { name: string; label: string; provider?: Provider; optional: string }) {
  const stored = provider?.secrets_set.includes(name) === true;
  return (
    <TextField name={name} type="password">
      <Label>{label}</Label>
      <Input autoComplete="new-password" />
      <Text slot="description">
        {stored ? 'A value is stored (encrypted); leave empty to keep it.' : `${optional} Stored encrypted; never shown again.`}
      </Text>
    </TextField>
  );
}

/** A text setting of a provider's config, filled with the stored value when editing. */
function ConfigText({ name, label, provider, help, isRequired, type, initial }: { name: string; label: string; provider?: Provider; help?: string; isRequired?: boolean; type?: string; initial?: string }) {
  return (
    <TextField name={name} isRequired={isRequired} type={type} defaultValue={provider ? textOf(provider.config, name) : (initial ?? '')}>
      <Label>{label}</Label>
      <Input autoComplete="off" spellCheck={false} />
      {help ? <Text slot="description">{help}</Text> : null}
    </TextField>
  );
}

/** A list setting of a provider's config as comma-separated text. */
function ConfigList({ name, label, provider, help }: { name: string; label: string; provider?: Provider; help: string }) {
  return (
    <TextField name={name} defaultValue={listOf(provider?.config, name)}>
      <Label>{label}</Label>
      <Input autoComplete="off" spellCheck={false} />
      <Text slot="description">{help}</Text>
    </TextField>
  );
}

/** The buttons under a provider form: create or save, and cancel when editing. */
function SubmitRow({ editing, create, pending, onCancel }: { editing: boolean; create: string; pending: boolean; onCancel: () => void }) {
  return (
    <div className="row">
      <Button type="submit" isDisabled={pending}>
        {editing ? 'Save changes' : create}
      </Button>
      {editing ? (
        <Button className="secondary" onPress={onCancel}>
          Cancel
        </Button>
      ) : null}
    </div>
  );
}

interface FormProps {
  provider?: Provider;
  focus: boolean;
  notice?: ReactNode;
  onSaved: (name: string) => void;
  onCancel: () => void;
}

const INCOMPLETE_MAPPING = 'Each group mapping needs a group, a project and a role.';

/** The form of an OIDC provider: a new one, or the changes to one (an empty client secret keeps the stored one). */
function SsoForm({ provider, focus, notice, onSaved, onCancel }: FormProps) {
  const [mappings, setMappings] = useState(() => draftsOf(provider?.config));
  const [invalid, setInvalid] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (body: SsoBody) =>
      provider ? unwrap(api.PATCH('/api/v1/sso/providers/{id}', { params: { path: { id: provider.id } }, body })) : unwrap(api.POST('/api/v1/sso/providers', { body })),
    onSuccess: (saved) => onSaved(saved.name),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const groupMappings = mappingsOf(mappings);
    setInvalid(groupMappings ? undefined : INCOMPLETE_MAPPING);
    if (!groupMappings) return;
    const secret = String(form.get('client_secret') ?? '');
    const scopes = splitList(field(form, 'scopes'));
    const domains = splitList(field(form, 'allowed_email_domains'));
    const config: SsoBody['config'] = {
      issuer: field(form, 'issuer'),
      client_id: field(form, 'client_id'),
      ...(secret ? { client_secret: secret } : {}),
      ...(scopes.length ? { scopes } : {}),
    };
    for (const key of ['username_claim', 'email_claim', 'groups_claim'] as const) {
      const value = field(form, key);
      if (value) config[key] = value;
    }
    if (domains.length) config.allowed_email_domains = domains;
    config.group_mappings = groupMappings;
    save.mutate({ ...commonOf(form), config });
  };
  return (
    <FormCard id="sso-form" title={provider ? `Edit ${provider.name}` : 'New SSO provider'} focus={focus} notice={notice}>
      <Form onSubmit={submit}>
        <CommonFields nameLabel="Provider name" provider={provider} positionHelp="Orders the sign-in buttons on the login page, lowest first." />
        <fieldset>
          <legend>Client</legend>
          <ConfigText name="issuer" label="Issuer" type="url" isRequired provider={provider} help="Issuer URL; its /.well-known/openid-configuration is read." />
          <ConfigText name="client_id" label="Client ID" isRequired provider={provider} />
          <SecretField name="client_secret" label="Client secret" provider={provider} optional="Optional (a public client uses PKCE only)." />
          <ConfigList name="scopes" label="Scopes" provider={provider} help="Comma-separated. Default openid, email, profile." />
        </fieldset>
        <fieldset>
          <legend>Claims</legend>
          <ConfigText name="username_claim" label="Username claim" provider={provider} help="Default preferred_username." />
          <ConfigText name="email_claim" label="Email claim" provider={provider} help="Default email." />
          <ConfigText name="groups_claim" label="Groups claim" provider={provider} help="Default groups." />
        </fieldset>
        <fieldset>
          <legend>Access</legend>
          <ConfigList name="allowed_email_domains" label="Allowed email domains" provider={provider} help="Comma-separated. When set, only verified addresses of these domains may sign in." />
          <GroupMappings rows={mappings} onChange={setMappings} />
        </fieldset>
        <ErrorNotice error={save.error} />
        {invalid ? (
          <p role="alert" className="error">
            {invalid}
          </p>
        ) : null}
        <SubmitRow editing={!!provider} create="Create provider" pending={save.isPending} onCancel={onCancel} />
      </Form>
    </FormCard>
  );
}

/** The form of an LDAP directory: a new one, or the changes to one (an empty bind password keeps the stored one). */
function LdapForm({ provider, focus, notice, onSaved, onCancel }: FormProps) {
  const [mappings, setMappings] = useState(() => draftsOf(provider?.config));
  const [invalid, setInvalid] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (body: LdapBody) =>
      provider ? unwrap(api.PATCH('/api/v1/ldap/providers/{id}', { params: { path: { id: provider.id } }, body })) : unwrap(api.POST('/api/v1/ldap/providers', { body })),
    onSuccess: (saved) => onSaved(saved.name),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const groupMappings = mappingsOf(mappings);
    setInvalid(groupMappings ? undefined : INCOMPLETE_MAPPING);
    if (!groupMappings) return;
    const caPem = String(form.get('ca_pem') ?? '');
    const bindDn = field(form, 'bind_dn');
    const password = String(form.get('bind_password') ?? '');
    const groupBaseDn = field(form, 'group_base_dn');
    const timeout = field(form, 'timeout_ms');
    save.mutate({
      ...commonOf(form),
      config: {
        url: field(form, 'url'),
        start_tls: form.get('start_tls') === 'true',
        ...(caPem.trim() ? { ca_pem: caPem } : {}),
        ...(bindDn ? { bind_dn: bindDn } : {}),
        ...(password ? { bind_password: password } : {}),
        user_base_dn: field(form, 'user_base_dn'),
        user_filter: field(form, 'user_filter'),
        username_attribute: field(form, 'username_attribute'),
        email_attribute: field(form, 'email_attribute'),
        ...(groupBaseDn ? { group_base_dn: groupBaseDn } : {}),
        ...(timeout ? { timeout_ms: Number(timeout) } : {}),
        group_mappings: groupMappings,
      },
    });
  };
  return (
    <FormCard id="ldap-form" title={provider ? `Edit ${provider.name}` : 'New LDAP directory'} focus={focus} notice={notice}>
      <Form onSubmit={submit}>
        <CommonFields nameLabel="Directory name" provider={provider} positionHelp="The order directories are tried in at sign-in, lowest first." />
        <fieldset>
          <legend>Connection</legend>
          <TextField name="url" isRequired defaultValue={textOf(provider?.config, 'url')} validate={(value) => (value === '' || /^ldaps?:\/\//.test(value) ? null : 'Starts with ldap:// or ldaps://')}>
            <Label>URL</Label>
            <Input autoComplete="off" spellCheck={false} />
            <Text slot="description">ldap://host:port or ldaps://host:port</Text>
          </TextField>
          <Checkbox name="start_tls" value="true" defaultSelected={provider?.config['start_tls'] === true}>
            Use StartTLS (upgrades an ldap:// connection)
          </Checkbox>
          <TextField name="ca_pem" defaultValue={textOf(provider?.config, 'ca_pem')}>
            <Label>CA certificate (PEM)</Label>
            <TextArea rows={4} spellCheck={false} />
            <Text slot="description">The CA to trust (else the system CAs). Certificates are always verified.</Text>
          </TextField>
          <TextField name="timeout_ms" type="number" defaultValue={textOf(provider?.config, 'timeout_ms')}>
            <Label>Timeout (ms)</Label>
            <Input min={100} max={60000} step={1} inputMode="numeric" />
            <Text slot="description">100 to 60000. Default 5000.</Text>
          </TextField>
        </fieldset>
        <fieldset>
          <legend>Service account</legend>
          <ConfigText name="bind_dn" label="Bind DN" provider={provider} help="The account that searches for users; empty: anonymous search." />
          <SecretField name="bind_password" label="Bind password" provider={provider} optional="Optional." />
        </fieldset>
        <fieldset>
          <legend>Users</legend>
          <ConfigText name="user_base_dn" label="User base DN" isRequired provider={provider} />
          <ConfigText name="user_filter" label="User filter" isRequired provider={provider} initial="(uid={username})" help="e.g. (uid={username}); the login name is escaped." />
          <ConfigText name="username_attribute" label="Username attribute" isRequired provider={provider} initial="uid" help="e.g. uid" />
          <ConfigText name="email_attribute" label="Email attribute" isRequired provider={provider} initial="mail" help="e.g. mail" />
        </fieldset>
        <fieldset>
          <legend>Groups</legend>
          <ConfigText name="group_base_dn" label="Group base DN" provider={provider} help="Groups are searched here by member; empty: the user's memberOf." />
          <GroupMappings rows={mappings} onChange={setMappings} />
        </fieldset>
        <ErrorNotice error={save.error} />
        {invalid ? (
          <p role="alert" className="error">
            {invalid}
          </p>
        ) : null}
        <SubmitRow editing={!!provider} create="Create directory" pending={save.isPending} onCancel={onCancel} />
      </Form>
    </FormCard>
  );
}

interface Column {
  header: string;
  cell: (provider: Provider) => ReactNode;
  /** The cell announces its changes (a check's result). */
  status?: boolean;
}

/** Providers as a table: the given columns, then Edit, any extra action, and Delete (which asks first). */
function ProviderTable({
  caption,
  providers,
  columns,
  editing,
  onEdit,
  onDelete,
  deleting,
  actions,
}: {
  caption: string;
  providers: Provider[];
  columns: Column[];
  editing?: string;
  onEdit: (id: string) => void;
  onDelete: (id: string) => void;
  deleting: boolean;
  actions?: (provider: Provider) => ReactNode;
}) {
  return (
    <div className="table-wrap" tabIndex={0}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {providers.map((provider) => (
            <tr key={provider.id} aria-current={provider.id === editing ? 'true' : undefined}>
              {columns.map((column) => (
                <td key={column.header}>{column.status ? <span role="status">{column.cell(provider)}</span> : column.cell(provider)}</td>
              ))}
              <td>
                <div className="row">
                  <Button className="secondary" aria-label={`Edit ${provider.name}`} onPress={() => onEdit(provider.id)}>
                    Edit
                  </Button>
                  {actions?.(provider)}
                  <DeleteButton name={provider.name} onConfirm={() => onDelete(provider.id)} isPending={deleting} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const secretState = (provider: Provider, name: string) => (provider.secrets_set.includes(name) ? 'set' : 'not set');
const orDash = (text: string) => text || '—';
const mappingCount = (provider: Provider) => draftsOf(provider.config).length;

const SSO_COLUMNS: Column[] = [
  { header: 'Name', cell: (p) => p.name },
  { header: 'Issuer', cell: (p) => textOf(p.config, 'issuer') },
  { header: 'Client ID', cell: (p) => textOf(p.config, 'client_id') },
  { header: 'Client secret', cell: (p) => secretState(p, 'client_secret') },
  { header: 'Allowed email domains', cell: (p) => orDash(listOf(p.config, 'allowed_email_domains')) },
  { header: 'Group mappings', cell: mappingCount },
  { header: 'Position', cell: (p) => p.position },
  { header: 'Enabled', cell: (p) => yesNo(p.enabled) },
];

/** OIDC single sign-on providers: the list, and the form to add one or change the one being edited. */
function SsoSection() {
  const state = useProviders(
    'sso-providers',
    () => unwrap(api.GET('/api/v1/sso/providers')),
    (id) => unwrap(api.DELETE('/api/v1/sso/providers/{id}', { params: { path: { id } } })),
  );
  const { providers, removal } = state;
  return (
    <section className="providers" aria-labelledby="sso-providers">
      <h2 id="sso-providers">Single sign-on (OIDC)</h2>
      <dl className="details">
        <dt>Callback URL</dt>
        <dd>
          <code>{`${window.location.origin}/api/v1/sso/callback`}</code> (or under SVC_PUBLIC_URL when set): the provider must allow it.
        </dd>
      </dl>
      {providers.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={providers.error ?? removal.error} />
      {providers.data && providers.data.items.length === 0 ? <p className="empty">No SSO providers yet.</p> : null}
      {providers.data?.items.length ? (
        <ProviderTable
          caption="SSO providers"
          providers={providers.data.items}
          columns={SSO_COLUMNS}
          editing={state.editing}
          onEdit={state.open}
          onDelete={(id) => removal.mutate(id)}
          deleting={removal.isPending}
        />
      ) : null}
      <SsoForm
        key={state.formKey}
        provider={state.edited}
        focus={state.focusForm}
        notice={
          state.saved ? (
            <p role="status" className="once">
              Provider <strong>{state.saved}</strong> saved.
            </p>
          ) : null
        }
        onSaved={state.onSaved}
        onCancel={() => state.open(undefined)}
      />
    </section>
  );
}

/** LDAP directories: the list with a connection check per directory, and the form to add one or change the one being edited. */
function LdapSection() {
  const state = useProviders(
    'ldap-providers',
    () => unwrap(api.GET('/api/v1/ldap/providers')),
    (id) => unwrap(api.DELETE('/api/v1/ldap/providers/{id}', { params: { path: { id } } })),
  );
  const { providers, removal } = state;
  const [checks, setChecks] = useState<Record<string, string>>({});
  const test = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/ldap/providers/{id}/test', { params: { path: { id } } })),
    onMutate: (id) => setChecks((all) => ({ ...all, [id]: 'Checking…' })),
    onSuccess: (result, id) => setChecks((all) => ({ ...all, [id]: describeCheck(result) })),
    onError: (_, id) => setChecks((all) => ({ ...all, [id]: 'The check could not run.' })),
  });
  const columns: Column[] = [
    { header: 'Name', cell: (p) => p.name },
    { header: 'URL', cell: (p) => textOf(p.config, 'url') },
    { header: 'User base DN', cell: (p) => textOf(p.config, 'user_base_dn') },
    { header: 'Bind DN', cell: (p) => orDash(textOf(p.config, 'bind_dn')) },
    { header: 'Bind password', cell: (p) => secretState(p, 'bind_password') },
    { header: 'Group mappings', cell: mappingCount },
    { header: 'Position', cell: (p) => p.position },
    { header: 'Enabled', cell: (p) => yesNo(p.enabled) },
    { header: 'Check', cell: (p) => checks[p.id] ?? '', status: true },
  ];
  return (
    <section className="providers" aria-labelledby="ldap-providers">
      <h2 id="ldap-providers">LDAP directories</h2>
      {providers.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={providers.error ?? removal.error ?? test.error} />
      {providers.data && providers.data.items.length === 0 ? <p className="empty">No LDAP directories yet.</p> : null}
      {providers.data?.items.length ? (
        <ProviderTable
          caption="LDAP directories"
          providers={providers.data.items}
          columns={columns}
          editing={state.editing}
          onEdit={state.open}
          onDelete={(id) => removal.mutate(id)}
          deleting={removal.isPending}
          actions={(p) => (
            <Button className="secondary" aria-label={`Check ${p.name}`} isDisabled={test.isPending && test.variables === p.id} onPress={() => test.mutate(p.id)}>
              Check
            </Button>
          )}
        />
      ) : null}
      <LdapForm
        key={state.formKey}
        provider={state.edited}
        focus={state.focusForm}
        notice={
          state.saved ? (
            <p role="status" className="once">
              Directory <strong>{state.saved}</strong> saved.
            </p>
          ) : null
        }
        onSaved={state.onSaved}
        onCancel={() => state.open(undefined)}
      />
    </section>
  );
}

/** Sign-in providers (administrators): OIDC single sign-on providers and LDAP directories, each listed, added, changed and deleted. */
export function SignInProviders() {
  return (
    <>
      <SsoSection />
      <LdapSection />
    </>
  );
}
