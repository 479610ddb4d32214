import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { Card } from '../../components/Card';
import { BackToList, ListActions, useCreateRoute } from '../../components/CreateRoute';
import { DataTable } from '../../components/DataTable';
import { ChoiceField, FormSubmit, TextInput } from '../../components/fields';
import { onSubmitted } from '../../components/form-data';

/** Personal API tokens: the value is shown once, at creation, with a copy button; revoke any time. */
export function ApiTokens() {
  const queries = useQueryClient();
  const tokens = useQuery({ queryKey: ['api-tokens'], queryFn: () => unwrap(api.GET('/api/v1/api-tokens')) });
  const [created, setCreated] = useState<{ name: string; token: string } | undefined>();
  const [copied, setCopied] = useState(false);
  const { creating, start, leave } = useCreateRoute('/api-tokens');
  const create = useMutation({
    meta: { success: 'Token created.' },
    mutationFn: (body: { name: string; scope: 'read' | 'write' }) => unwrap(api.POST('/api/v1/api-tokens', { body })),
    onSuccess: (token) => {
      setCreated({ name: token.name, token: token.token });
      setCopied(false);
      void queries.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });
  const revoke = useMutation({
    meta: { success: 'Token revoked.' },
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/api-tokens/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['api-tokens'] }),
  });
  const submit = onSubmitted(({ form }) => {
    create.mutate({ name: String(form.get('name')), scope: form.get('scope') === 'write' ? 'write' : 'read' });
  });
  // The value is shown once, on the form's page: Done (or the way back) leaves it.
  const done = () => {
    setCreated(undefined);
    leave();
  };
  if (creating)
    return (
      <BackToList back="API tokens" onBack={done}>
        <Card id="new-token" title="New token">
          <Form onSubmit={submit}>
            <TextInput name="name" label="Name" isRequired />
            <ChoiceField
              name="scope"
              label="Scope"
              defaultValue="read"
              choices={[
                { value: 'read', label: 'Read: no changes' },
                { value: 'write', label: 'Write' },
              ]}
            />
            <FormSubmit label="Create token" error={create.error} isDisabled={create.isPending} />
          </Form>
          {created ? (
            <div role="status" className="once">
              <p>
                The value of <strong>{created.name}</strong>, shown this once:
              </p>
              <code aria-label="Token value">{created.token}</code>
              <div className="row">
                <Button
                  className="secondary"
                  onPress={() =>
                    void navigator.clipboard?.writeText(created.token).then(
                      () => setCopied(true),
                      () => setCopied(false),
                    )
                  }
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
                <Button className="secondary" onPress={done}>
                  Done
                </Button>
              </div>
            </div>
          ) : null}
        </Card>
      </BackToList>
    );
  return (
    <>
      <ListActions
        label="New token"
        onNew={() => {
          // A value left by the browser's back button is not shown again.
          setCreated(undefined);
          start();
        }}
      />
      <DataTable
        caption="Your tokens"
        read={tokens}
        error={revoke.error}
        empty="No tokens yet."
        columns={[
          { header: 'Name', cell: (token) => token.name },
          { header: 'Scope', cell: (token) => token.scope },
          { header: 'Ends with', cell: (token) => <code>…{token.suffix}</code> },
          {
            header: 'Last used',
            cell: (token) => (token.last_used_at ? new Date(token.last_used_at).toLocaleString() : 'never'),
          },
        ]}
        actions={(token) => (
          <Button className="secondary" aria-label={`Revoke ${token.name}`} onPress={() => revoke.mutate(token.id)}>
            Revoke
          </Button>
        )}
      />
    </>
  );
}
