import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe, useProjects, useRoles } from '../../api/queries';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { BackToList, ListActions, useCreateRoute } from '../../components/CreateRoute';
import { DataTable } from '../../components/DataTable';
import { FormSubmit, TextInput } from '../../components/fields';
import { ItemSelect } from '../../components/ItemSelect';
import { QueryState } from '../../components/QueryState';
import { usersQuery } from '../identity/Users';
import { NameAndDescription, nameAndDescriptionOf } from './NameAndDescription';

/** A select of roles by name; labelled by a visible label or, in a table, by aria-label. */
function RoleSelect({
  label,
  ariaLabel,
  value,
  onChange,
  isDisabled,
}: {
  label?: string;
  ariaLabel?: string;
  value: string | null;
  onChange: (role: string) => void;
  isDisabled?: boolean;
}) {
  const roles = useRoles();
  const items = (roles.data?.items ?? []).map((role) => ({ id: role.name, name: role.name }));
  return (
    <ItemSelect
      label={label}
      ariaLabel={ariaLabel}
      items={items}
      value={value}
      onChange={onChange}
      isDisabled={isDisabled}
    />
  );
}

/** The members of one project: change a role, remove a member, add one. */
function Members({ project }: { project: { id: string; name: string } }) {
  const queries = useQueryClient();
  const key = ['members', project.id];
  const members = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET('/api/v1/admin/projects/{id}/members', { params: { path: { id: project.id } } })),
  });
  const roles = useRoles();
  // Listing users is for administrators: only they get the form that adds a member.
  const admin = useMe().data?.is_admin === true;
  const users = useInfiniteQuery({ ...usersQuery, enabled: admin });
  // The user select offers every user: fetch the remaining pages (not again after a failure).
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = users;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
  const [user, setUser] = useState<string | null>(null);
  const [role, setRole] = useState<string | null>(null);
  const putMember = ({ userId, ...body }: { userId: string; role: string; environment_ids?: string[] | null }) =>
    unwrap(
      api.PUT('/api/v1/admin/projects/{id}/members/{user_id}', {
        params: { path: { id: project.id, user_id: userId } },
        body,
      }),
    );
  const add = useMutation({
    meta: { success: 'Member added.' },
    mutationFn: putMember,
    onSuccess: () => {
      setUser(null);
      setRole(null);
      void queries.invalidateQueries({ queryKey: key });
    },
  });
  // environment_ids is sent back unchanged: leaving it out would widen a narrowed member to every environment.
  const changeRole = useMutation({
    meta: { success: 'Role changed.' },
    mutationFn: putMember,
    onSuccess: () => void queries.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    meta: { success: 'Member removed.' },
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/api/v1/admin/projects/{id}/members/{user_id}', {
          params: { path: { id: project.id, user_id: userId } },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: key }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (user && role) add.mutate({ userId: user, role });
  };
  const memberIds = new Set(members.data?.items.map((m) => m.user_id));
  const candidates = (users.data?.pages.flatMap((page) => page.items) ?? []).filter((u) => !memberIds.has(u.id));
  return (
    <Card id="members-of" title={`Members of ${project.name}`}>
      <DataTable
        caption={`Members of ${project.name}`}
        read={members}
        error={roles.error ?? users.error ?? remove.error ?? changeRole.error}
        empty="No members yet."
        columns={[
          { header: 'Username', cell: (member) => member.username },
          {
            header: 'Role',
            cell: (member) => (
              <RoleSelect
                ariaLabel={`Role of ${member.username}`}
                value={member.role}
                isDisabled={changeRole.isPending}
                onChange={(next) => {
                  if (next !== member.role)
                    changeRole.mutate({ userId: member.user_id, role: next, environment_ids: member.environment_ids });
                }}
              />
            ),
          },
          {
            header: 'Environments',
            cell: (member) => (member.environment_ids === null ? 'all' : member.environment_ids.length),
          },
        ]}
        actions={(member) => (
          <Button
            className="secondary"
            aria-label={`Remove ${member.username}`}
            onPress={() => remove.mutate(member.user_id)}
          >
            Remove
          </Button>
        )}
      />
      {admin ? (
        <>
          <h3 id="add-member">Add member</h3>
          <Form onSubmit={submit} aria-labelledby="add-member">
            <div className="row">
              <ItemSelect
                label="User"
                items={candidates.map((u) => ({ id: u.id, name: u.username }))}
                value={user}
                onChange={setUser}
              />
              <RoleSelect label="Role" value={role} onChange={setRole} />
            </div>
            <FormSubmit label="Add member" error={add.error} isDisabled={!user || !role || add.isPending} />
          </Form>
        </>
      ) : (
        <p className="muted">Adding a member needs the list of users, which administrators see.</p>
      )}
    </Card>
  );
}

/** The environments of one project (dev, staging, prod, ...): listed, and one added by name. */
function Environments({ project }: { project: { id: string; name: string } }) {
  const queries = useQueryClient();
  const key = ['environments', project.id];
  const environments = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.GET('/api/v1/admin/projects/{id}/environments', { params: { path: { id: project.id } } })),
  });
  const [formKey, setFormKey] = useState(0);
  const add = useMutation({
    meta: { success: 'Environment added.' },
    mutationFn: (name: string) =>
      unwrap(
        api.POST('/api/v1/admin/projects/{id}/environments', { params: { path: { id: project.id } }, body: { name } }),
      ),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: key });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    add.mutate(String(new FormData(event.currentTarget).get('environment') ?? '').trim());
  };
  const items = environments.data?.items;
  return (
    <Card id="environments-of" title={`Environments of ${project.name}`}>
      <QueryState
        pending={environments.isPending}
        error={environments.error}
        empty={
          items?.length === 0 ? 'No environments: members and connectors belong to the project as a whole.' : undefined
        }
      />
      {items?.length ? (
        <ul aria-label={`Environments of ${project.name}`}>
          {items.map((environment) => (
            <li key={environment.id}>{environment.name}</li>
          ))}
        </ul>
      ) : null}
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="environment" label="Environment name" isRequired />
        <FormSubmit label="Add environment" error={add.error} isDisabled={add.isPending} />
      </Form>
    </Card>
  );
}

/** Projects (administrators): create one, list them, and manage the members of the one selected. */
export function Projects() {
  const queries = useQueryClient();
  const admin = useMe().data?.is_admin === true;
  const projects = useProjects();
  // The open item is in the address (/projects/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/projects');
  const { creating, start, leave, back } = useCreateRoute('/projects');
  // A new key empties the form after a project was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    meta: { success: 'Project created.' },
    mutationFn: (body: { name: string; description?: string }) => unwrap(api.POST('/api/v1/admin/projects', { body })),
    onSuccess: (project) => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['projects'] });
      // The new project opens (its members and environments).
      leave(`/projects/${project.id}`);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(nameAndDescriptionOf(new FormData(event.currentTarget)));
  };
  const project = projects.data?.items.find((p) => p.id === selected);
  if (creating && admin)
    return (
      <BackToList back="Projects" onBack={back}>
        <Card id="new-project" title="New project">
          <Form key={formKey} onSubmit={submit}>
            <NameAndDescription />
            <FormSubmit label="Create project" error={create.error} isDisabled={create.isPending} />
          </Form>
        </Card>
      </BackToList>
    );
  return (
    <>
      {admin ? <ListActions label="New project" onNew={start} /> : null}
      <DataTable
        caption="Projects"
        read={projects}
        rowProps={(p) => ({ 'aria-current': p.id === selected ? 'true' : undefined })}
        empty="No projects yet."
        columns={[
          { header: 'Name', cell: (p) => p.name },
          { header: 'Description', cell: (p) => p.description ?? '—' },
          { header: 'Created', cell: (p) => new Date(p.created_at).toLocaleString() },
        ]}
        actions={(p) => (
          <Button className="secondary" aria-label={`Members of ${p.name}`} onPress={() => setSelected(p.id)}>
            Members
          </Button>
        )}
      />
      {project ? <Members key={project.id} project={project} /> : null}
      {project ? <Environments key={`environments-${project.id}`} project={project} /> : null}
    </>
  );
}
