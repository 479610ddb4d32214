import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Button, Form, Input, Label, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe, useProjects, useRoles } from '../../api/queries';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';
import { usersQuery } from '../identity/Users';

/** A select of roles by name; labelled by a visible label or, in a table, by aria-label. */
function RoleSelect({ label, ariaLabel, value, onChange, isDisabled }: { label?: string; ariaLabel?: string; value: string | null; onChange: (role: string) => void; isDisabled?: boolean }) {
  const roles = useRoles();
  const items = (roles.data?.items ?? []).map((role) => ({ id: role.name, name: role.name }));
  return <ItemSelect label={label} ariaLabel={ariaLabel} items={items} value={value} onChange={onChange} isDisabled={isDisabled} />;
}

/** The members of one project: change a role, remove a member, add one. */
function Members({ project }: { project: { id: string; name: string } }) {
  const queries = useQueryClient();
  const key = ['members', project.id];
  const members = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/v1/admin/projects/{id}/members', { params: { path: { id: project.id } } })) });
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
    unwrap(api.PUT('/api/v1/admin/projects/{id}/members/{user_id}', { params: { path: { id: project.id, user_id: userId } }, body }));
  const add = useMutation({
    mutationFn: putMember,
    onSuccess: () => {
      setUser(null);
      setRole(null);
      void queries.invalidateQueries({ queryKey: key });
    },
  });
  // environment_ids is sent back unchanged: leaving it out would widen a narrowed member to every environment.
  const changeRole = useMutation({ mutationFn: putMember, onSuccess: () => void queries.invalidateQueries({ queryKey: key }) });
  const remove = useMutation({
    mutationFn: (userId: string) => unwrap(api.DELETE('/api/v1/admin/projects/{id}/members/{user_id}', { params: { path: { id: project.id, user_id: userId } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: key }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (user && role) add.mutate({ userId: user, role });
  };
  const memberIds = new Set(members.data?.items.map((m) => m.user_id));
  const candidates = (users.data?.pages.flatMap((page) => page.items) ?? []).filter((u) => !memberIds.has(u.id));
  return (
    <section className="card" aria-labelledby="members-of">
      <h2 id="members-of">Members of {project.name}</h2>
      {members.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={members.error ?? roles.error ?? users.error ?? remove.error ?? changeRole.error} />
      {members.data && members.data.items.length === 0 ? <p className="empty">No members yet.</p> : null}
      {members.data?.items.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Members of {project.name}</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Role</th>
                <th scope="col">Environments</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.items.map((member) => (
                <tr key={member.id}>
                  <td>{member.username}</td>
                  <td>
                    <RoleSelect
                      ariaLabel={`Role of ${member.username}`}
                      value={member.role}
                      isDisabled={changeRole.isPending}
                      onChange={(next) => {
                        if (next !== member.role) changeRole.mutate({ userId: member.user_id, role: next, environment_ids: member.environment_ids });
                      }}
                    />
                  </td>
                  <td>{member.environment_ids === null ? 'all' : member.environment_ids.length}</td>
                  <td>
                    <Button className="secondary" aria-label={`Remove ${member.username}`} onPress={() => remove.mutate(member.user_id)}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {admin ? (
        <>
          <h3 id="add-member">Add member</h3>
          <Form onSubmit={submit} aria-labelledby="add-member">
            <div className="row">
              <ItemSelect label="User" items={candidates.map((u) => ({ id: u.id, name: u.username }))} value={user} onChange={setUser} />
              <RoleSelect label="Role" value={role} onChange={setRole} />
            </div>
            <ErrorNotice error={add.error} />
            <Button type="submit" isDisabled={!user || !role || add.isPending}>
              Add member
            </Button>
          </Form>
        </>
      ) : (
        <p className="muted">Adding a member needs the list of users, which administrators see.</p>
      )}
    </section>
  );
}

/** The environments of one project (dev, staging, prod, ...): listed, and one added by name. */
function Environments({ project }: { project: { id: string; name: string } }) {
  const queries = useQueryClient();
  const key = ['environments', project.id];
  const environments = useQuery({ queryKey: key, queryFn: () => unwrap(api.GET('/api/v1/admin/projects/{id}/environments', { params: { path: { id: project.id } } })) });
  const [formKey, setFormKey] = useState(0);
  const add = useMutation({
    mutationFn: (name: string) => unwrap(api.POST('/api/v1/admin/projects/{id}/environments', { params: { path: { id: project.id } }, body: { name } })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: key });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    add.mutate(String(new FormData(event.currentTarget).get('environment') ?? '').trim());
  };
  return (
    <section className="card" aria-labelledby="environments-of">
      <h2 id="environments-of">Environments of {project.name}</h2>
      {environments.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={environments.error} />
      {environments.data && environments.data.items.length === 0 ? <p className="empty">No environments: members and connectors belong to the project as a whole.</p> : null}
      {environments.data?.items.length ? (
        <ul aria-label={`Environments of ${project.name}`}>
          {environments.data.items.map((environment) => (
            <li key={environment.id}>{environment.name}</li>
          ))}
        </ul>
      ) : null}
      <Form key={formKey} onSubmit={submit}>
        <TextField name="environment" isRequired>
          <Label>Environment name</Label>
          <Input autoComplete="off" />
        </TextField>
        <ErrorNotice error={add.error} />
        <Button type="submit" isDisabled={add.isPending}>
          Add environment
        </Button>
      </Form>
    </section>
  );
}

/** Projects (administrators): create one, list them, and manage the members of the one selected. */
export function Projects() {
  const queries = useQueryClient();
  const admin = useMe().data?.is_admin === true;
  const projects = useProjects();
  const [selected, setSelected] = useState<string | undefined>();
  // A new key empties the form after a project was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: { name: string; description?: string }) => unwrap(api.POST('/api/v1/admin/projects', { body })),
    onSuccess: (project) => {
      setFormKey((k) => k + 1);
      setSelected(project.id);
      void queries.invalidateQueries({ queryKey: ['projects'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get('description') ?? '').trim();
    create.mutate({ name: String(form.get('name')), ...(description ? { description } : {}) });
  };
  const project = projects.data?.items.find((p) => p.id === selected);
  return (
    <>
      {admin ? (
        <section className="card" aria-labelledby="new-project">
          <h2 id="new-project">New project</h2>
          <Form key={formKey} onSubmit={submit}>
            <TextField name="name" isRequired>
              <Label>Name</Label>
              <Input autoComplete="off" />
            </TextField>
            <TextField name="description">
              <Label>Description</Label>
              <Input autoComplete="off" />
            </TextField>
            <ErrorNotice error={create.error} />
            <Button type="submit" isDisabled={create.isPending}>
              Create project
            </Button>
          </Form>
        </section>
      ) : null}
      {projects.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={projects.error} />
      {projects.data && projects.data.items.length === 0 ? <p className="empty">No projects yet.</p> : null}
      {projects.data?.items.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Projects</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {projects.data.items.map((p) => (
                <tr key={p.id} aria-current={p.id === selected ? 'true' : undefined}>
                  <td>{p.name}</td>
                  <td>{p.description ?? '—'}</td>
                  <td>{new Date(p.created_at).toLocaleString()}</td>
                  <td>
                    <Button className="secondary" aria-label={`Members of ${p.name}`} onPress={() => setSelected(p.id)}>
                      Members
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {project ? <Members key={project.id} project={project} /> : null}
      {project ? <Environments key={`environments-${project.id}`} project={project} /> : null}
    </>
  );
}
