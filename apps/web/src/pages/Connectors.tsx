import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Form, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Text, TextField } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { ErrorNotice } from '../ErrorNotice';

interface Property {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  'x-secret'?: boolean;
  enum?: string[];
}

/** A configuration form drawn from a connector kind's JSON Schema: text, numbers, switches, secrets. */
function ConfigFields({ spec }: { spec: Record<string, unknown> }) {
  const properties = (spec['properties'] ?? {}) as Record<string, Property>;
  const required = new Set((spec['required'] as string[] | undefined) ?? []);
  return (
    <>
      {Object.entries(properties).map(([name, property]) => {
        const label = property.title ?? name;
        if (property.type === 'boolean') {
          return (
            <Checkbox key={name} name={`config.${name}`} defaultSelected={property.default === true} value="true">
              {label}
            </Checkbox>
          );
        }
        if (property.type === 'object' || property.type === 'array') {
          return (
            <TextField key={name} name={`config.${name}`} isRequired={required.has(name)}>
              <Label>{label} (JSON)</Label>
              <Input defaultValue={property.default === undefined ? '' : JSON.stringify(property.default)} />
            </TextField>
          );
        }
        return (
          <TextField
            key={name}
            name={`config.${name}`}
            isRequired={required.has(name)}
            type={property['x-secret'] ? 'password' : property.type === 'integer' || property.type === 'number' ? 'number' : 'text'}
            defaultValue={property.default === undefined ? '' : String(property.default)}
          >
            <Label>{label}</Label>
            <Input autoComplete={property['x-secret'] ? 'new-password' : 'off'} />
            {property['x-secret'] ? <Text slot="description">Stored encrypted; never shown again.</Text> : null}
          </TextField>
        );
      })}
    </>
  );
}

/** The form's config.* fields as the kind's types: numbers, booleans, JSON; empty optional fields left out. */
function configOf(form: FormData, spec: Record<string, unknown>): Record<string, unknown> {
  const properties = (spec['properties'] ?? {}) as Record<string, Property>;
  const config: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const raw = form.get(`config.${name}`);
    if (property.type === 'boolean') config[name] = raw === 'true';
    else if (raw === null || raw === '') continue;
    else if (property.type === 'integer' || property.type === 'number') config[name] = Number(raw);
    else if (property.type === 'object' || property.type === 'array') config[name] = JSON.parse(String(raw)) as unknown;
    else config[name] = String(raw);
  }
  return config;
}

export function Connectors() {
  const queries = useQueryClient();
  const connectors = useQuery({ queryKey: ['connectors'], queryFn: () => unwrap(api.GET('/api/v1/data-connectors')) });
  const kinds = useQuery({ queryKey: ['connector-kinds'], queryFn: () => unwrap(api.GET('/api/v1/data-connectors/kinds')) });
  const projects = useQuery({ queryKey: ['projects'], queryFn: () => unwrap(api.GET('/api/v1/admin/projects')) });
  const [kind, setKind] = useState<string | undefined>();
  const [project, setProject] = useState<string | undefined>();
  const [checks, setChecks] = useState<Record<string, string>>({});
  // A new key empties the form after a connector was created.
  const [formKey, setFormKey] = useState(0);
  const spec = kinds.data?.items.find((k) => k.kind === kind)?.spec;
  const create = useMutation({
    mutationFn: (body: { project_id: string; name: string; kind: string; config: Record<string, unknown> }) => unwrap(api.POST('/api/v1/data-connectors', { body })),
    onSuccess: () => {
      setKind(undefined);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['connectors'] });
    },
  });
  const test = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/data-connectors/{id}/test', { params: { path: { id } } })),
    onSuccess: (result, id) => setChecks((all) => ({ ...all, [id]: result.ok ? `Connection works (${result.duration_ms} ms)` : `Failed (${result.code ?? 'error'}): ${result.message ?? ''}` })),
  });
  const discover = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/data-connectors/{id}/discover', { params: { path: { id } } })),
    onSuccess: (result, id) => setChecks((all) => ({ ...all, [id]: `Discovered ${result.datasets.length} datasets into the catalog` })),
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
  return (
    <>
      <section className="card" aria-labelledby="new-connector">
        <h2 id="new-connector">New connector</h2>
        <Form key={formKey} onSubmit={submit}>
          <Select selectedKey={project ?? null} onSelectionChange={(key) => setProject(String(key))} isRequired>
            <Label>Project</Label>
            <Button>
              <SelectValue />
            </Button>
            <Popover>
              <ListBox items={projects.data?.items ?? []}>{(item) => <ListBoxItem id={item.id}>{item.name}</ListBoxItem>}</ListBox>
            </Popover>
          </Select>
          <Select selectedKey={kind ?? null} onSelectionChange={(key) => setKind(String(key))} isRequired>
            <Label>Kind</Label>
            <Button>
              <SelectValue />
            </Button>
            <Popover>
              <ListBox items={(kinds.data?.items ?? []).map((k) => ({ id: k.kind, title: k.title }))}>{(item) => <ListBoxItem id={item.id}>{item.title}</ListBoxItem>}</ListBox>
            </Popover>
          </Select>
          <TextField name="name" isRequired>
            <Label>Name</Label>
            <Input />
          </TextField>
          {spec ? <ConfigFields key={kind} spec={spec} /> : null}
          <ErrorNotice error={create.error} />
          {checks['form'] ? <p role="alert" className="error">{checks['form']}</p> : null}
          <Button type="submit" isDisabled={!spec || !project || create.isPending}>
            Create connector
          </Button>
        </Form>
      </section>
      {connectors.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={connectors.error ?? test.error ?? discover.error} />
      {connectors.data && connectors.data.items.length === 0 ? <p className="empty">No connectors yet.</p> : null}
      {connectors.data?.items.length ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Data connectors</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Secrets set</th>
                <th scope="col">Result</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {connectors.data.items.map((connector) => (
                <tr key={connector.id}>
                  <td>{connector.name}</td>
                  <td>{connector.kind}</td>
                  <td>{connector.secrets_set.join(', ') || '—'}</td>
                  <td role="status">{checks[connector.id] ?? ''}</td>
                  <td className="row">
                    <Button className="secondary" aria-label={`Test ${connector.name}`} onPress={() => test.mutate(connector.id)}>
                      Test
                    </Button>
                    <Button className="secondary" aria-label={`Discover ${connector.name}`} onPress={() => discover.mutate(connector.id)}>
                      Discover
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
