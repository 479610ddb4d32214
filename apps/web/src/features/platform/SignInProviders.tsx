import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useProjects, useRoles } from '../../api/queries';
import { Card } from '../../components/Card';
import { DataTable, type Column } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import {
  CheckboxField,
  FormSubmit,
  NumberInput,
  SecretField,
  secretOf,
  TextAreaInput,
  TextInput,
} from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';

type Provider = JsonAnswer<'/api/v1/sso/providers', 'get'>['items'][number];
type SsoBody = JsonBody<'/api/v1/sso/providers', 'post'>;
type LdapBody = JsonBody<'/api/v1/ldap/providers', 'post'>;
type GroupMapping = NonNullable<SsoBody['config']['group_mappings']>[number];
type LdapCheck = JsonAnswer<'/api/v1/ldap/providers/{id}/test', 'post'>;

/** A group mapping being edited: the project and role stay empty until chosen. */
interface MappingDraft {
  key: number;
  group: string;
  project_id: string | null;
  role: string | null;
}

let nextMappingKey = 0;
const draftOf = (mapping?: GroupMapping): MappingDraft => ({
  key: nextMappingKey++,
  group: mapping?.group ?? '',
  project_id: mapping?.project_id ?? null,
  role: mapping?.role ?? null,
});

/** Whether a stored value is a complete group mapping. */
function isMapping(value: unknown): value is GroupMapping {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['group'] === 'string' &&
    typeof record['project_id'] === 'string' &&
    typeof record['role'] === 'string'
  );
}

/** The stored group mappings of a provider, as rows to edit. */
function draftsOf(config: Record<string, unknown> | undefined): MappingDraft[] {
  const value = config?.['group_mappings'];
  return Array.isArray(value) ? value.filter(isMapping).map(draftOf) : [];
}

/** The rows as the API's group mappings, or undefined while one lacks its group, project or role. */
function mappingsOf(drafts: MappingDraft[]): GroupMapping[] | undefined {
  const mappings = drafts.flatMap((d) =>
    d.group.trim() && d.project_id && d.role ? [{ group: d.group.trim(), project_id: d.project_id, role: d.role }] : [],
  );
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
  return {
    name: field(form, 'name'),
    enabled: form.get('enabled') === 'true',
    ...(position ? { position: Number(position) } : {}),
  };
}

/** The result of an LDAP check, in words: OK, or the reason and message the API gives. */
const describeCheck = (result: LdapCheck): string =>
  result.ok
    ? 'OK: connection, TLS, service bind and user base work'
    : `Failed (${result.reason ?? 'error'}): ${result.message ?? ''}`;

/** The state a provider section keeps: its list, the provider being edited, the form's key and focus, the last save, deletion. */
function useProviders(
  queryKey: string,
  list: () => Promise<{ items: Provider[] }>,
  remove: (id: string) => Promise<unknown>,
) {
  const queries = useQueryClient();
  const providers = useQuery({ queryKey: [queryKey], queryFn: list });
  const [editing, setEditing] = useState<string | undefined>();
  // A new key empties the form after a save; the focus moves to the form when it changes on request.
  const [formKey, setFormKey] = useState(0);
  const [focusForm, setFocusForm] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const removal = useMutation({
    meta: { success: 'Sign-in provider deleted.' },
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
  const update = (key: number, change: Partial<MappingDraft>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  return (
    <>
      <p className="muted">
        At sign-in, a member of the group becomes a member of the project with the role (a user who is a member already
        keeps their role).
      </p>
      <ErrorNotice error={projects.error ?? roles.error} />
      {rows.length === 0 ? <p className="empty">No group mappings.</p> : null}
      {rows.map((row, index) => {
        const n = index + 1;
        return (
          <div key={row.key} role="group" aria-label={`Mapping ${n}`} className="row">
            <TextInput
              label={`Group of mapping ${n}`}
              value={row.group}
              onChange={(group) => update(row.key, { group })}
              isRequired
              autoFocus={row.key === added}
            />
            <ItemSelect
              label={`Project of mapping ${n}`}
              items={projects.data?.items ?? []}
              value={row.project_id}
              onChange={(id) => update(row.key, { project_id: id })}
              empty="No projects"
            />
            <ItemSelect
              label={`Role of mapping ${n}`}
              items={roleItems}
              value={row.role}
              onChange={(id) => update(row.key, { role: id })}
              empty="No roles"
            />
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

/** The fields every provider has: its name, whether it is enabled, and its position. */
function CommonFields({
  nameLabel,
  provider,
  positionHelp,
}: {
  nameLabel: string;
  provider?: Provider;
  positionHelp: string;
}) {
  return (
    <>
      <TextInput name="name" label={nameLabel} isRequired maxLength={100} defaultValue={provider?.name ?? ''} />
      <CheckboxField name="enabled" label="Enabled" defaultSelected={provider?.enabled ?? true} />
      <NumberInput
        name="position"
        label="Position"
        min={0}
        defaultValue={String(provider?.position ?? 0)}
        description={positionHelp}
      />
    </>
  );
}

/** A write-only secret of a provider: when editing, an empty field keeps the stored value. */
function ProviderSecret({
  name,
  label,
  provider,
  optional,
}: {
  name: string;
  label: string;
  provider?: Provider;
  optional: string;
}) {
  return (
    <SecretField name={name} label={label} stored={provider?.secrets_set.includes(name) === true} hint={optional} />
  );
}

/** A text setting of a provider's config, filled with the stored value when editing. */
function ConfigText({
  name,
  label,
  provider,
  help,
  isRequired,
  type,
  initial,
}: {
  name: string;
  label: string;
  provider?: Provider;
  help?: string;
  isRequired?: boolean;
  type?: 'url';
  initial?: string;
}) {
  const value = provider ? textOf(provider.config, name) : (initial ?? '');
  return (
    <TextInput
      name={name}
      label={label}
      isRequired={isRequired}
      type={type}
      defaultValue={value}
      spellCheck={false}
      description={help}
    />
  );
}

/** A list setting of a provider's config as comma-separated text. */
function ConfigList({
  name,
  label,
  provider,
  help,
}: {
  name: string;
  label: string;
  provider?: Provider;
  help: string;
}) {
  return (
    <TextInput
      name={name}
      label={label}
      defaultValue={listOf(provider?.config, name)}
      spellCheck={false}
      description={help}
    />
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

/**
 * What a provider form keeps: its group mapping rows, what it refused (a mapping not complete), and
 * the save (`send`: create, or change the provider being edited) of the body `bodyOf` builds.
 */
function useProviderForm<Body>(
  provider: Provider | undefined,
  onSaved: (name: string) => void,
  send: (body: Body) => Promise<{ name: string }>,
  bodyOf: (form: FormData, groupMappings: GroupMapping[]) => Body,
) {
  const [mappings, setMappings] = useState(() => draftsOf(provider?.config));
  const [invalid, setInvalid] = useState<string | undefined>();
  const save = useMutation({
    meta: { success: 'Sign-in provider saved.' },
    mutationFn: send,
    onSuccess: (saved) => onSaved(saved.name),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const groupMappings = mappingsOf(mappings);
    setInvalid(groupMappings ? undefined : INCOMPLETE_MAPPING);
    if (groupMappings) save.mutate(bodyOf(new FormData(event.currentTarget), groupMappings));
  };
  return { mappings, setMappings, invalid, save, submit };
}

/** The form of an OIDC provider: a new one, or the changes to one (an empty client secret keeps the stored one). */
function SsoForm({ provider, focus, notice, onSaved, onCancel }: FormProps) {
  const { mappings, setMappings, invalid, save, submit } = useProviderForm<SsoBody>(
    provider,
    onSaved,
    (body) =>
      provider
        ? unwrap(api.PATCH('/api/v1/sso/providers/{id}', { params: { path: { id: provider.id } }, body }))
        : unwrap(api.POST('/api/v1/sso/providers', { body })),
    (form, groupMappings) => {
      const secret = secretOf(form, 'client_secret');
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
      return { ...commonOf(form), config };
    },
  );
  return (
    <Card id="sso-form" title={provider ? `Edit ${provider.name}` : 'New SSO provider'} focus={focus}>
      {notice}
      <Form onSubmit={submit}>
        <CommonFields
          nameLabel="Provider name"
          provider={provider}
          positionHelp="Orders the sign-in buttons on the login page, lowest first."
        />
        <fieldset>
          <legend>Client</legend>
          <ConfigText
            name="issuer"
            label="Issuer"
            type="url"
            isRequired
            provider={provider}
            help="Issuer URL; its /.well-known/openid-configuration is read."
          />
          <ConfigText name="client_id" label="Client ID" isRequired provider={provider} />
          <ProviderSecret
            name="client_secret"
            label="Client secret"
            provider={provider}
            optional="Optional (a public client uses PKCE only)."
          />
          <ConfigList
            name="scopes"
            label="Scopes"
            provider={provider}
            help="Comma-separated. Default openid, email, profile."
          />
        </fieldset>
        <fieldset>
          <legend>Claims</legend>
          <ConfigText
            name="username_claim"
            label="Username claim"
            provider={provider}
            help="Default preferred_username."
          />
          <ConfigText name="email_claim" label="Email claim" provider={provider} help="Default email." />
          <ConfigText name="groups_claim" label="Groups claim" provider={provider} help="Default groups." />
        </fieldset>
        <fieldset>
          <legend>Access</legend>
          <ConfigList
            name="allowed_email_domains"
            label="Allowed email domains"
            provider={provider}
            help="Comma-separated. When set, only verified addresses of these domains may sign in."
          />
          <GroupMappings rows={mappings} onChange={setMappings} />
        </fieldset>
        <FormSubmit
          label={provider ? 'Save changes' : 'Create provider'}
          error={save.error}
          invalid={invalid}
          isDisabled={save.isPending}
          onCancel={provider ? onCancel : undefined}
        />
      </Form>
    </Card>
  );
}

/** The form of an LDAP directory: a new one, or the changes to one (an empty bind password keeps the stored one). */
function LdapForm({ provider, focus, notice, onSaved, onCancel }: FormProps) {
  const { mappings, setMappings, invalid, save, submit } = useProviderForm<LdapBody>(
    provider,
    onSaved,
    (body) =>
      provider
        ? unwrap(api.PATCH('/api/v1/ldap/providers/{id}', { params: { path: { id: provider.id } }, body }))
        : unwrap(api.POST('/api/v1/ldap/providers', { body })),
    (form, groupMappings) => {
      const caPem = String(form.get('ca_pem') ?? '');
      const bindDn = field(form, 'bind_dn');
      const password = secretOf(form, 'bind_password');
      const groupBaseDn = field(form, 'group_base_dn');
      const timeout = field(form, 'timeout_ms');
      return {
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
      };
    },
  );
  return (
    <Card id="ldap-form" title={provider ? `Edit ${provider.name}` : 'New LDAP directory'} focus={focus}>
      {notice}
      <Form onSubmit={submit}>
        <CommonFields
          nameLabel="Directory name"
          provider={provider}
          positionHelp="The order directories are tried in at sign-in, lowest first."
        />
        <fieldset>
          <legend>Connection</legend>
          <TextInput
            name="url"
            label="URL"
            isRequired
            spellCheck={false}
            defaultValue={textOf(provider?.config, 'url')}
            validate={(value) =>
              value === '' || /^ldaps?:\/\//.test(value) ? null : 'Starts with ldap:// or ldaps://'
            }
            description="ldap://host:port or ldaps://host:port"
          />
          <CheckboxField
            name="start_tls"
            label="Use StartTLS (upgrades an ldap:// connection)"
            defaultSelected={provider?.config['start_tls'] === true}
          />
          <TextAreaInput
            name="ca_pem"
            label="CA certificate (PEM)"
            rows={4}
            defaultValue={textOf(provider?.config, 'ca_pem')}
            description="The CA to trust (else the system CAs). Certificates are always verified."
          />
          <NumberInput
            name="timeout_ms"
            label="Timeout (ms)"
            min={100}
            max={60000}
            defaultValue={textOf(provider?.config, 'timeout_ms')}
            description="100 to 60000. Default 5000."
          />
        </fieldset>
        <fieldset>
          <legend>Service account</legend>
          <ConfigText
            name="bind_dn"
            label="Bind DN"
            provider={provider}
            help="The account that searches for users; empty: anonymous search."
          />
          <ProviderSecret name="bind_password" label="Bind password" provider={provider} optional="Optional." />
        </fieldset>
        <fieldset>
          <legend>Users</legend>
          <ConfigText name="user_base_dn" label="User base DN" isRequired provider={provider} />
          <ConfigText
            name="user_filter"
            label="User filter"
            isRequired
            provider={provider}
            initial="(uid={username})"
            help="e.g. (uid={username}); the login name is escaped."
          />
          <ConfigText
            name="username_attribute"
            label="Username attribute"
            isRequired
            provider={provider}
            initial="uid"
            help="e.g. uid"
          />
          <ConfigText
            name="email_attribute"
            label="Email attribute"
            isRequired
            provider={provider}
            initial="mail"
            help="e.g. mail"
          />
        </fieldset>
        <fieldset>
          <legend>Groups</legend>
          <ConfigText
            name="group_base_dn"
            label="Group base DN"
            provider={provider}
            help="Groups are searched here by member; empty: the user's memberOf."
          />
          <GroupMappings rows={mappings} onChange={setMappings} />
        </fieldset>
        <FormSubmit
          label={provider ? 'Save changes' : 'Create directory'}
          error={save.error}
          invalid={invalid}
          isDisabled={save.isPending}
          onCancel={provider ? onCancel : undefined}
        />
      </Form>
    </Card>
  );
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const secretState = (provider: Provider, name: string) => (provider.secrets_set.includes(name) ? 'set' : 'not set');
const orDash = (text: string) => text || '—';
const mappingCount = (provider: Provider) => draftsOf(provider.config).length;

const SSO_COLUMNS: Array<Column<Provider>> = [
  { header: 'Name', cell: (p) => p.name },
  { header: 'Issuer', cell: (p) => textOf(p.config, 'issuer') },
  { header: 'Client ID', cell: (p) => textOf(p.config, 'client_id') },
  { header: 'Client secret', cell: (p) => secretState(p, 'client_secret') },
  { header: 'Allowed email domains', cell: (p) => orDash(listOf(p.config, 'allowed_email_domains')) },
  { header: 'Group mappings', cell: mappingCount },
  { header: 'Position', cell: (p) => p.position },
  { header: 'Enabled', cell: (p) => yesNo(p.enabled) },
];

/**
 * One kind of sign-in provider: the list (Edit, any extra action, and Delete, which asks first) and
 * the form to add one or change the one being edited, which says what was saved.
 */
function ProviderSection(props: {
  id: string;
  title: string;
  intro?: ReactNode;
  state: ReturnType<typeof useProviders>;
  caption: string;
  empty: string;
  columns: Array<Column<Provider>>;
  error?: unknown;
  actions?: (provider: Provider) => ReactNode;
  noun: string;
  form: (props: FormProps) => ReactNode;
}) {
  const { state, form: ProviderForm } = props;
  const { providers, removal } = state;
  return (
    <section className="providers" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.intro}
      <DataTable
        caption={props.caption}
        read={providers}
        rowProps={(provider) => ({ 'aria-current': provider.id === state.editing ? 'true' : undefined })}
        error={removal.error ?? props.error}
        empty={props.empty}
        columns={props.columns}
        actions={(provider) => (
          <div className="row">
            <Button className="secondary" aria-label={`Edit ${provider.name}`} onPress={() => state.open(provider.id)}>
              Edit
            </Button>
            {props.actions?.(provider)}
            <DeleteButton
              name={provider.name}
              onConfirm={() => removal.mutate(provider.id)}
              isPending={removal.isPending}
            />
          </div>
        )}
      />
      <ProviderForm
        key={state.formKey}
        provider={state.edited}
        focus={state.focusForm}
        notice={
          state.saved ? (
            <p role="status" className="once">
              {props.noun} <strong>{state.saved}</strong> saved.
            </p>
          ) : null
        }
        onSaved={state.onSaved}
        onCancel={() => state.open(undefined)}
      />
    </section>
  );
}

/** OIDC single sign-on providers: the list, and the form to add one or change the one being edited. */
function SsoSection() {
  const state = useProviders(
    'sso-providers',
    () => unwrap(api.GET('/api/v1/sso/providers')),
    (id) => unwrap(api.DELETE('/api/v1/sso/providers/{id}', { params: { path: { id } } })),
  );
  return (
    <ProviderSection
      id="sso-providers"
      title="Single sign-on (OIDC)"
      intro={
        <dl className="details">
          <dt>Callback URL</dt>
          <dd>
            <code>{`${window.location.origin}/api/v1/sso/callback`}</code> (or under SVC_PUBLIC_URL when set): the
            provider must allow it.
          </dd>
        </dl>
      }
      state={state}
      caption="SSO providers"
      empty="No SSO providers yet."
      columns={SSO_COLUMNS}
      noun="Provider"
      form={SsoForm}
    />
  );
}

/** LDAP directories: the list with a connection check per directory, and the form to add one or change the one being edited. */
function LdapSection() {
  const state = useProviders(
    'ldap-providers',
    () => unwrap(api.GET('/api/v1/ldap/providers')),
    (id) => unwrap(api.DELETE('/api/v1/ldap/providers/{id}', { params: { path: { id } } })),
  );
  const [checks, setChecks] = useState<Record<string, string>>({});
  const test = useMutation({
    meta: { success: 'LDAP provider checked.' },
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/ldap/providers/{id}/test', { params: { path: { id } } })),
    onMutate: (id) => setChecks((all) => ({ ...all, [id]: 'Checking…' })),
    onSuccess: (result, id) => setChecks((all) => ({ ...all, [id]: describeCheck(result) })),
    onError: (_, id) => setChecks((all) => ({ ...all, [id]: 'The check could not run.' })),
  });
  const columns: Array<Column<Provider>> = [
    { header: 'Name', cell: (p) => p.name },
    { header: 'URL', cell: (p) => textOf(p.config, 'url') },
    { header: 'User base DN', cell: (p) => textOf(p.config, 'user_base_dn') },
    { header: 'Bind DN', cell: (p) => orDash(textOf(p.config, 'bind_dn')) },
    { header: 'Bind password', cell: (p) => secretState(p, 'bind_password') },
    { header: 'Group mappings', cell: mappingCount },
    { header: 'Position', cell: (p) => p.position },
    { header: 'Enabled', cell: (p) => yesNo(p.enabled) },
    // The cell announces the check's result.
    { header: 'Check', cell: (p) => <span role="status">{checks[p.id] ?? ''}</span> },
  ];
  return (
    <ProviderSection
      id="ldap-providers"
      title="LDAP directories"
      state={state}
      caption="LDAP directories"
      empty="No LDAP directories yet."
      columns={columns}
      error={test.error}
      actions={(p) => (
        <Button
          className="secondary"
          aria-label={`Check ${p.name}`}
          isDisabled={test.isPending && test.variables === p.id}
          onPress={() => test.mutate(p.id)}
        >
          Check
        </Button>
      )}
      noun="Directory"
      form={LdapForm}
    />
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
