import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Form, Input, Label, Text, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe } from '../../api/queries';
import { ErrorNotice } from '../../components/ErrorNotice';

/** The users, 100 a page: one definition, so that every screen reading ['users'] shares the same cache shape. */
export const usersQuery = infiniteQueryOptions({
  queryKey: ['users'],
  initialPageParam: undefined as string | undefined,
  queryFn: ({ pageParam }) => unwrap(api.GET('/api/v1/users', { params: { query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } })),
  getNextPageParam: (page) => page.next_cursor ?? undefined,
});

/** Users of the instance (administrators): create local users, see their state, disable or enable them. */
export function Users() {
  const me = useMe();
  const queries = useQueryClient();
  const users = useInfiniteQuery(usersQuery);
  const [created, setCreated] = useState<string | undefined>();
  // A new key empties the form after a user was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: { username: string; email: string; password: string; display_name?: string; is_admin: boolean }) => unwrap(api.POST('/api/v1/users', { body })),
    onSuccess: (user) => {
      setCreated(user.username);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const toggle = useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) => unwrap(api.PATCH('/api/v1/users/{id}', { params: { path: { id } }, body: { disabled } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['users'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const displayName = String(form.get('display_name') ?? '').trim();
    create.mutate({
      username: String(form.get('username')),
      email: String(form.get('email')),
      password: String(form.get('password')),
      ...(displayName ? { display_name: displayName } : {}),
      is_admin: form.get('is_admin') === 'true',
    });
  };
  const list = users.data?.pages.flatMap((page) => page.items);
  return (
    <>
      <section className="card" aria-labelledby="new-user">
        <h2 id="new-user">New user</h2>
        <Form key={formKey} onSubmit={submit}>
          <TextField name="username" isRequired>
            <Label>Username</Label>
            <Input autoComplete="off" />
          </TextField>
          <TextField name="email" type="email" isRequired>
            <Label>Email</Label>
            <Input autoComplete="off" />
          </TextField>
          <TextField name="password" type="password" isRequired>
            <Label>Initial password</Label>
            <Input autoComplete="new-password" />
            <Text slot="description">At least 12 characters. The user must change it at first sign-in.</Text>
          </TextField>
          <TextField name="display_name">
            <Label>Display name</Label>
            <Input autoComplete="off" />
          </TextField>
          <Checkbox name="is_admin" value="true">
            Administrator
          </Checkbox>
          <ErrorNotice error={create.error} />
          <Button type="submit" isDisabled={create.isPending}>
            Create user
          </Button>
        </Form>
        {created ? (
          <p role="status" className="once">
            User <strong>{created}</strong> created: they must change the password at first sign-in.
          </p>
        ) : null}
      </section>
      {users.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={users.error ?? toggle.error} />
      {list && list.length === 0 ? <p className="empty">No users yet.</p> : null}
      {list?.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Users</caption>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Email</th>
                <th scope="col">Display name</th>
                <th scope="col">Source</th>
                <th scope="col">Administrator</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((user) => (
                <tr key={user.id}>
                  <td>{user.username}</td>
                  <td>{user.email}</td>
                  <td>{user.display_name ?? '—'}</td>
                  <td>{user.auth_source}</td>
                  <td>{user.is_admin ? 'yes' : 'no'}</td>
                  <td>{user.disabled ? 'disabled' : user.password_change_required ? 'must change password' : 'active'}</td>
                  <td>
                    {/* Disabling ends every session and token of the user: not offered on one's own row. */}
                    {user.id === me.data?.id ? null : (
                      <Button
                        className="secondary"
                        aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.username}`}
                        isDisabled={toggle.isPending && toggle.variables?.id === user.id}
                        onPress={() => toggle.mutate({ id: user.id, disabled: !user.disabled })}
                      >
                        {user.disabled ? 'Enable' : 'Disable'}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {users.hasNextPage ? (
        <Button className="secondary" onPress={() => void users.fetchNextPage()} isDisabled={users.isFetchingNextPage}>
          More users
        </Button>
      ) : null}
    </>
  );
}
