import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonAnswer } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { useCurrentProject } from '../../project-context';
import { DeleteButton } from '../../components/DeleteButton';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { BackToList, ListActions, useCreateRoute } from '../../components/CreateRoute';
import { DataTable } from '../../components/DataTable';
import { CheckboxField, FormSubmit, SecretField, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { onSubmitted } from '../../components/form-data';

interface Property {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  'x-secret'?: boolean;
  enum?: string[];
}

/**
 * A configuration form drawn from a connector kind's JSON Schema: text, numbers, switches, secrets.
 * Editing, the fields start from the saved values; secrets start empty and stay as they are unless typed.
 */
function ConfigFields({
  spec,
  values,
  secretsSet,
}: {
  spec: Record<string, unknown>;
  values?: Record<string, unknown>;
  secretsSet?: string[];
}) {
  const properties = (spec['properties'] ?? {}) as Record<string, Property>;
  const required = new Set((spec['required'] as string[] | undefined) ?? []);
  return (
    <>
      {Object.entries(properties).map(([name, property]) => {
        const label = property.title ?? name;
        const initial = values && name in values ? values[name] : property.default;
        if (property.type === 'boolean')
          return <CheckboxField key={name} name={`config.${name}`} label={label} defaultSelected={initial === true} />;
        const json = property.type === 'object' || property.type === 'array';
        if (property['x-secret'] && !json)
          return (
            <SecretField
              key={name}
              name={`config.${name}`}
              label={label}
              stored={secretsSet?.includes(name) === true}
              isRequired={required.has(name)}
            />
          );
        const shown = initial === undefined || initial === null ? '' : json ? JSON.stringify(initial) : String(initial);
        return (
          <TextInput
            key={name}
            name={`config.${name}`}
            label={json ? `${label} (JSON)` : label}
            isRequired={required.has(name)}
            type={property.type === 'integer' || property.type === 'number' ? 'number' : 'text'}
            defaultValue={shown}
          />
        );
      })}
    </>
  );
}

/**
 * The form's config.* fields as the kind's types: numbers, booleans, JSON. Empty fields are left out
 * (a stored secret is kept); editing, an emptied field that had a value is sent as null (removed).
 */
function configOf(
  form: FormData,
  spec: Record<string, unknown>,
  saved?: Record<string, unknown>,
): Record<string, unknown> {
  const properties = (spec['properties'] ?? {}) as Record<string, Property>;
  const config: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const raw = form.get(`config.${name}`);
    if (property.type === 'boolean') config[name] = raw === 'true';
    else if (
      (raw === null || raw === '') &&
      saved &&
      !property['x-secret'] &&
      saved[name] !== undefined &&
      saved[name] !== null
    )
      config[name] = null;
    else if (raw === null || raw === '') continue;
    else if (property.type === 'integer' || property.type === 'number') config[name] = Number(raw);
    else if (property.type === 'object' || property.type === 'array') config[name] = JSON.parse(String(raw)) as unknown;
    else config[name] = String(raw);
  }
  return config;
}

type Connector = JsonAnswer<'/api/v1/data-connectors/{id}', 'get'>;

/** Changes a connector: its name and configuration, drawn from its kind's spec and filled with what is saved. */
function EditConnector({
  connector,
  spec,
  onDone,
}: {
  connector: Connector;
  spec: Record<string, unknown>;
  onDone: () => void;
}) {
  const queries = useQueryClient();
  const [invalid, setInvalid] = useState<string | undefined>();
  const update = useMutation({
    meta: { success: 'Connector saved.' },
    mutationFn: (body: { name: string; config: Record<string, unknown> }) =>
      unwrap(api.PATCH('/api/v1/data-connectors/{id}', { params: { path: { id: connector.id } }, body })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['connectors'] });
      onDone();
    },
  });
  const submit = onSubmitted(({ form }) => {
    try {
      setInvalid(undefined);
      update.mutate({ name: String(form.get('name')), config: configOf(form, spec, connector.config) });
    } catch (error) {
      setInvalid(`Invalid JSON: ${(error as Error).message}`);
    }
  });
  return (
    <Card id="edit-connector" title={`Edit ${connector.name}`}>
      <Form onSubmit={submit}>
        <TextInput name="name" label="Name" isRequired defaultValue={connector.name} />
        <ConfigFields spec={spec} values={connector.config} secretsSet={connector.secrets_set} />
        <FormSubmit
          label="Save changes"
          error={update.error}
          invalid={invalid}
          isDisabled={update.isPending}
          onCancel={onDone}
        />
      </Form>
    </Card>
  );
}

export function Connectors() {
  const queries = useQueryClient();
  const connectors = useConnectors();
  const kinds = useQuery({
    queryKey: ['connector-kinds'],
    queryFn: () => unwrap(api.GET('/api/v1/data-connectors/kinds')),
  });
  const { projectId: project } = useCurrentProject();
  const [kind, setKind] = useState<string | undefined>();
  const [checks, setChecks] = useState<Record<string, string>>({});
  // The open item is in the address (/connectors/<id>): shareable, and the back button closes it.
  const [editing, setEditing] = useItemRoute('/connectors');
  const { creating, start, leave, back } = useCreateRoute('/connectors');
  const edited = connectors.data?.items.find((c) => c.id === editing);
  const editedSpec = kinds.data?.items.find((k) => k.kind === edited?.kind)?.spec;
  // A new key empties the form after a connector was created.
  const [formKey, setFormKey] = useState(0);
  const spec = kinds.data?.items.find((k) => k.kind === kind)?.spec;
  const create = useMutation({
    meta: { success: 'Connector created.' },
    mutationFn: (body: { project_id: string; name: string; kind: string; config: Record<string, unknown> }) =>
      unwrap(api.POST('/api/v1/data-connectors', { body })),
    onSuccess: () => {
      setKind(undefined);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['connectors'] });
      leave();
    },
  });
  const test = useMutation({
    meta: { success: 'Connection tested.' },
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/data-connectors/{id}/test', { params: { path: { id } } })),
    onSuccess: (result, id) =>
      setChecks((all) => ({
        ...all,
        [id]: result.ok
          ? `Connection works (${result.duration_ms} ms)`
          : `Failed (${result.code ?? 'error'}): ${result.message ?? ''}`,
      })),
  });
  const remove = useMutation({
    meta: { success: 'Connector deleted.' },
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/data-connectors/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      if (editing === id) setEditing(undefined);
      void queries.invalidateQueries({ queryKey: ['connectors'] });
    },
  });
  const discover = useMutation({
    meta: { success: 'Discovery finished.' },
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/data-connectors/{id}/discover', { params: { path: { id } } })),
    onSuccess: (result, id) =>
      setChecks((all) => ({ ...all, [id]: `Discovered ${result.datasets.length} datasets into the catalog` })),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!kind || !spec || !project) return;
    const form = new FormData(event.currentTarget);
    try {
      create.mutate({ project_id: project, name: String(form.get('name')), kind, config: configOf(form, spec) });
    } catch (error) {
      create.reset();
      setChecks((all) => ({ ...all, form: `Invalid JSON: ${(error as Error).message}` }));
    }
  };
  if (creating)
    return (
      <BackToList back="Connectors" onBack={back}>
        <Card id="new-connector" title="New connector">
          <Form key={formKey} onSubmit={submit}>
            <ItemSelect
              label="Kind"
              items={(kinds.data?.items ?? []).map((k) => ({ id: k.kind, name: k.title }))}
              value={kind}
              onChange={setKind}
            />
            <TextInput name="name" label="Name" isRequired />
            {spec ? <ConfigFields key={kind} spec={spec} /> : null}
            <FormSubmit
              label="Create connector"
              error={create.error}
              invalid={checks['form']}
              isDisabled={!spec || !project || create.isPending}
            />
          </Form>
        </Card>
      </BackToList>
    );
  return (
    <>
      <ListActions label="New connector" onNew={start} isDisabled={!project} />
      {edited && editedSpec ? (
        <EditConnector key={edited.id} connector={edited} spec={editedSpec} onDone={() => setEditing(undefined)} />
      ) : null}
      <DataTable
        caption="Data connectors"
        rows={connectors.data?.items.filter((c) => c.project_id === project)}
        rowKey={(connector) => connector.id}
        pending={connectors.isPending}
        error={connectors.error ?? test.error ?? discover.error ?? remove.error}
        empty="No connectors in this project yet: add one with New connector."
        columns={[
          { header: 'Name', cell: (connector) => connector.name },
          { header: 'Kind', cell: (connector) => connector.kind },
          { header: 'Secrets set', cell: (connector) => connector.secrets_set.join(', ') || '—' },
          { header: 'Result', cell: (connector) => checks[connector.id] ?? '', cellProps: () => ({ role: 'status' }) },
        ]}
        actionsClassName="row"
        actions={(connector) => (
          <>
            <Button
              className="secondary"
              aria-label={`Edit ${connector.name}`}
              onPress={() => setEditing(connector.id)}
            >
              Edit
            </Button>
            <Button
              className="secondary"
              aria-label={`Test ${connector.name}`}
              onPress={() => test.mutate(connector.id)}
            >
              Test
            </Button>
            <Button
              className="secondary"
              aria-label={`Discover ${connector.name}`}
              onPress={() => discover.mutate(connector.id)}
            >
              Discover
            </Button>
            <DeleteButton
              name={connector.name}
              onConfirm={() => remove.mutate(connector.id)}
              isPending={remove.isPending}
            />
          </>
        )}
      />
    </>
  );
}
