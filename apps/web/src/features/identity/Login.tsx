import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { FormSubmit, TextInput } from '../../components/fields';
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
      const session = await unwrap(
        api.POST('/api/v1/auth/login', {
          body: { username: String(form.get('username')), password: String(form.get('password')) },
        }),
      );
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
        <TextInput name="username" label="Username" isRequired autoComplete="username" />
        <TextInput name="password" label="Password" type="password" isRequired autoComplete="current-password" />
        <FormSubmit label={busy ? 'Signing in…' : 'Sign in'} error={error} isDisabled={busy} />
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
