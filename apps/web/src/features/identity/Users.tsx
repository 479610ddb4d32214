import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe } from '../../api/queries';
import { Card } from '../../components/Card';
import { BackToList, ListActions, useCreateRoute } from '../../components/CreateRoute';
import { DataTable } from '../../components/DataTable';
import { CheckboxField, FormSubmit, TextInput } from '../../components/fields';
import { onSubmitted } from '../../components/form-data';

/** The users, 100 a page: one definition, so that every screen reading ['users'] shares the same cache shape. */
export const usersQuery = infiniteQueryOptions({
  queryKey: ['users'],
  initialPageParam: undefined as string | undefined,
  queryFn: ({ pageParam }) =>
    unwrap(
      api.GET('/api/v1/users', { params: { query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } }),
    ),
  getNextPageParam: (page) => page.next_cursor ?? undefined,
});

/** Users of the instance (administrators): create local users, see their state, disable or enable them. */
export function Users() {
  const me = useMe();
  const queries = useQueryClient();
  const users = useInfiniteQuery(usersQuery);
  const [created, setCreated] = useState<string | undefined>();
  const { creating, start, leave, back } = useCreateRoute('/users');
  // A new key empties the form after a user was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    meta: { success: 'User created.' },
    mutationFn: (body: {
      username: string;
      email: string;
      password: string;
      display_name?: string;
      is_admin: boolean;
    }) => unwrap(api.POST('/api/v1/users', { body })),
    onSuccess: (user) => {
      setCreated(user.username);
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['users'] });
      leave();
    },
  });
  const toggle = useMutation({
    meta: { success: 'User updated.' },
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      unwrap(api.PATCH('/api/v1/users/{id}', { params: { path: { id } }, body: { disabled } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['users'] }),
  });
  const submit = onSubmitted(({ form, text }) => {
    const displayName = text('display_name');
    create.mutate({
      username: String(form.get('username')),
      email: String(form.get('email')),
      password: String(form.get('password')),
      ...(displayName ? { display_name: displayName } : {}),
      is_admin: form.get('is_admin') === 'true',
    });
  });
  const list = users.data?.pages.flatMap((page) => page.items);
  if (creating)
    return (
      <BackToList back="Users" onBack={back}>
        <Card id="new-user" title="New user">
          <Form key={formKey} onSubmit={submit}>
            <TextInput name="username" label="Username" isRequired />
            <TextInput name="email" label="Email" type="email" isRequired />
            <TextInput
              name="password"
              label="Initial password"
              type="password"
              isRequired
              autoComplete="new-password"
              description="At least 12 characters. The user must change it at first sign-in."
            />
            <TextInput name="display_name" label="Display name" />
            <CheckboxField name="is_admin" label="Administrator" />
            <FormSubmit label="Create user" error={create.error} isDisabled={create.isPending} />
          </Form>
        </Card>
      </BackToList>
    );
  return (
    <>
      <ListActions
        label="New user"
        onNew={() => {
          setCreated(undefined);
          start();
        }}
      />
      {created ? (
        <p role="status" className="once">
          User <strong>{created}</strong> created: they must change the password at first sign-in.
        </p>
      ) : null}
      <DataTable
        caption="Users"
        rows={list}
        rowKey={(user) => user.id}
        pending={users.isPending}
        error={users.error ?? toggle.error}
        empty="No users yet."
        columns={[
          { header: 'Username', cell: (user) => user.username },
          { header: 'Email', cell: (user) => user.email },
          { header: 'Display name', cell: (user) => user.display_name ?? '—' },
          { header: 'Source', cell: (user) => user.auth_source },
          { header: 'Administrator', cell: (user) => (user.is_admin ? 'yes' : 'no') },
          {
            header: 'State',
            cell: (user) =>
              user.disabled ? 'disabled' : user.password_change_required ? 'must change password' : 'active',
          },
        ]}
        // Disabling ends every session and token of the user: not offered on one's own row.
        actions={(user) =>
          user.id === me.data?.id ? null : (
            <Button
              className="secondary"
              aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.username}`}
              isDisabled={toggle.isPending && toggle.variables?.id === user.id}
              onPress={() => toggle.mutate({ id: user.id, disabled: !user.disabled })}
            >
              {user.disabled ? 'Enable' : 'Disable'}
            </Button>
          )
        }
        more={users}
        moreLabel="More users"
      />
    </>
  );
}
