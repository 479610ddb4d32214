import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe, useRoles } from '../../api/queries';
import { Card } from '../../components/Card';
import { BackToList, ListActions, useCreateRoute } from '../../components/CreateRoute';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { CheckboxList, FormSubmit } from '../../components/fields';
import { NameAndDescription, nameAndDescriptionOf } from './NameAndDescription';

/** Roles (administrators): the built-in and custom roles with their capabilities; create or delete custom ones. */
export function Roles() {
  const admin = useMe().data?.is_admin === true;
  const queries = useQueryClient();
  const roles = useRoles();
  const [capabilities, setCapabilities] = useState<string[]>([]);
  const { creating, start, leave, back } = useCreateRoute('/roles');
  // A new key empties the form after a role was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    meta: { success: 'Role created.' },
    mutationFn: (body: { name: string; description?: string; capabilities: string[] }) =>
      unwrap(api.POST('/api/v1/admin/roles', { body })),
    onSuccess: () => {
      setCapabilities([]);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['roles'] });
      leave();
    },
  });
  const remove = useMutation({
    meta: { success: 'Role deleted.' },
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/admin/roles/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['roles'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate({ ...nameAndDescriptionOf(new FormData(event.currentTarget)), capabilities });
  };
  // No endpoint lists the capabilities: the built-in owner holds every one, so the union of all roles is the catalogue.
  const catalogue = [...new Set(roles.data?.items.flatMap((role) => role.capabilities))].sort();
  if (creating && admin)
    return (
      <BackToList back="Roles" onBack={back}>
        <Card id="new-role" title="New role">
          <Form key={formKey} onSubmit={submit}>
            <NameAndDescription />
            <CheckboxList
              label="Capabilities"
              items={catalogue.map((capability) => ({ id: capability, name: capability }))}
              value={capabilities}
              onChange={setCapabilities}
            />
            <FormSubmit label="Create role" error={create.error} isDisabled={create.isPending} />
          </Form>
        </Card>
      </BackToList>
    );
  return (
    <>
      {admin ? <ListActions label="New role" onNew={start} /> : null}
      <DataTable
        caption="Roles"
        read={roles}
        error={remove.error}
        empty="No roles yet."
        columns={[
          { header: 'Name', cell: (role) => role.name },
          { header: 'Kind', cell: (role) => (role.built_in ? 'built-in' : 'custom') },
          { header: 'Description', cell: (role) => role.description ?? '—' },
          { header: 'Capabilities', cell: (role) => role.capabilities.join(', ') || '—' },
        ]}
        actions={(role) =>
          role.built_in || !admin ? null : (
            <DeleteButton name={role.name} onConfirm={() => remove.mutate(role.id)} isPending={remove.isPending} />
          )
        }
      />
    </>
  );
}
