import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, CheckboxGroup, Form, Input, Label, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe, useRoles } from '../../api/queries';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';

/** Roles (administrators): the built-in and custom roles with their capabilities; create or delete custom ones. */
export function Roles() {
  const admin = useMe().data?.is_admin === true;
  const queries = useQueryClient();
  const roles = useRoles();
  const [capabilities, setCapabilities] = useState<string[]>([]);
  // A new key empties the form after a role was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: { name: string; description?: string; capabilities: string[] }) => unwrap(api.POST('/api/v1/admin/roles', { body })),
    onSuccess: () => {
      setCapabilities([]);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['roles'] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/admin/roles/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['roles'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get('description') ?? '').trim();
    create.mutate({ name: String(form.get('name')), ...(description ? { description } : {}), capabilities });
  };
  // No endpoint lists the capabilities: the built-in owner holds every one, so the union of all roles is the catalogue.
  const catalogue = [...new Set(roles.data?.items.flatMap((role) => role.capabilities))].sort();
  return (
    <>
      {admin ? (
        <section className="card" aria-labelledby="new-role">
          <h2 id="new-role">New role</h2>
          <Form key={formKey} onSubmit={submit}>
            <TextField name="name" isRequired>
              <Label>Name</Label>
              <Input autoComplete="off" />
            </TextField>
            <TextField name="description">
              <Label>Description</Label>
              <Input autoComplete="off" />
            </TextField>
            <CheckboxGroup value={capabilities} onChange={setCapabilities}>
              <Label>Capabilities</Label>
              {catalogue.map((capability) => (
                <Checkbox key={capability} value={capability}>
                  {capability}
                </Checkbox>
              ))}
            </CheckboxGroup>
            <ErrorNotice error={create.error} />
            <Button type="submit" isDisabled={create.isPending}>
              Create role
            </Button>
          </Form>
        </section>
      ) : null}
      {roles.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={roles.error ?? remove.error} />
      {roles.data && roles.data.items.length === 0 ? <p className="empty">No roles yet.</p> : null}
      {roles.data?.items.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Roles</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Description</th>
                <th scope="col">Capabilities</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {roles.data.items.map((role) => (
                <tr key={role.id}>
                  <td>{role.name}</td>
                  <td>{role.built_in ? 'built-in' : 'custom'}</td>
                  <td>{role.description ?? '—'}</td>
                  <td>{role.capabilities.join(', ') || '—'}</td>
                  <td>
                    {role.built_in || !admin ? null : <DeleteButton name={role.name} onConfirm={() => remove.mutate(role.id)} isPending={remove.isPending} />}
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
