import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form, Input, Label, Radio, RadioGroup, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';

/** Personal API tokens: the value is shown once, at creation, with a copy button; revoke any time. */
export function ApiTokens() {
  const queries = useQueryClient();
  const tokens = useQuery({ queryKey: ['api-tokens'], queryFn: () => unwrap(api.GET('/api/v1/api-tokens')) });
  const [created, setCreated] = useState<{ name: string; token: string } | undefined>();
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: (body: { name: string; scope: 'read' | 'write' }) => unwrap(api.POST('/api/v1/api-tokens', { body })),
    onSuccess: (token) => {
      setCreated({ name: token.name, token: token.token });
      setCopied(false);
      void queries.invalidateQueries({ queryKey: ['api-tokens'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/api-tokens/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['api-tokens'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ name: String(form.get('name')), scope: form.get('scope') === 'write' ? 'write' : 'read' });
  };
  return (
    <>
      <section className="card" aria-labelledby="new-token">
        <h2 id="new-token">New token</h2>
        <Form onSubmit={submit}>
          <TextField name="name" isRequired>
            <Label>Name</Label>
            <Input />
          </TextField>
          <RadioGroup name="scope" defaultValue="read">
            <Label>Scope</Label>
            <Radio value="read">Read: no changes</Radio>
            <Radio value="write">Write</Radio>
          </RadioGroup>
          <ErrorNotice error={create.error} />
          <Button type="submit" isDisabled={create.isPending}>
            Create token
          </Button>
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
                onPress={() => void navigator.clipboard?.writeText(created.token).then(() => setCopied(true), () => setCopied(false))}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
              <Button className="secondary" onPress={() => setCreated(undefined)}>
                Done
              </Button>
            </div>
          </div>
        ) : null}
      </section>
      {tokens.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={tokens.error ?? revoke.error} />
      {tokens.data && tokens.data.items.length === 0 ? <p className="empty">No tokens yet.</p> : null}
      {tokens.data?.items.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">Your tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Ends with</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.items.map((token) => (
                <tr key={token.id}>
                  <td>{token.name}</td>
                  <td>{token.scope}</td>
                  <td>
                    <code>…{token.suffix}</code>
                  </td>
                  <td>{token.last_used_at ? new Date(token.last_used_at).toLocaleString() : 'never'}</td>
                  <td>
                    <Button className="secondary" aria-label={`Revoke ${token.name}`} onPress={() => revoke.mutate(token.id)}>
                      Revoke
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
