import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form, Input, Label, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { setSession } from '../../session-store';

export function Login() {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const sso = useQuery({ queryKey: ['sso'], queryFn: () => unwrap(api.GET('/api/v1/sso/discovery')) });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    try {
      const session = await unwrap(api.POST('/api/v1/auth/login', { body: { username: String(form.get('username')), password: String(form.get('password')) } }));
      setSession(session.access_token, session.expires_in);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="card narrow">
      <h1>Sign in</h1>
      <Form onSubmit={submit}>
        <TextField name="username" isRequired autoComplete="username">
          <Label>Username</Label>
          <Input />
        </TextField>
        <TextField name="password" type="password" isRequired autoComplete="current-password">
          <Label>Password</Label>
          <Input />
        </TextField>
        <ErrorNotice error={error} />
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </Form>
      {sso.data?.providers.length ? (
        <nav aria-label="Single sign-on" className="sso">
          {sso.data.providers.map((provider) => (
            <a key={provider.id} className="button secondary" href={`${provider.start_path}?redirect_to=/`}>
              Sign in with {provider.name}
            </a>
          ))}
        </nav>
      ) : null}
    </main>
  );
}
