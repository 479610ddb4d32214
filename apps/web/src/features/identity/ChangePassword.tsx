import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { FormSubmit, TextInput } from '../../components/fields';

/** Blocks every other screen while the account must change its password. */
export function ChangePassword({ onDone }: { onDone: () => void }) {
  const [error, setError] = useState<unknown>();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (form.get('new_password') !== form.get('repeat')) {
      setError(new Error('The two new passwords differ'));
      return;
    }
    try {
      await unwrap(
        api.POST('/api/v1/me/password', {
          body: {
            current_password: String(form.get('current_password')),
            new_password: String(form.get('new_password')),
          },
        }),
      );
      onDone();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <main className="card narrow">
      <h1>Choose a new password</h1>
      <p>This account was created with an initial password. Choose your own before you continue.</p>
      <Form onSubmit={submit}>
        <TextInput
          name="current_password"
          label="Current password"
          type="password"
          isRequired
          autoComplete="current-password"
        />
        <TextInput
          name="new_password"
          label="New password"
          type="password"
          isRequired
          minLength={12}
          autoComplete="new-password"
          description="At least 12 characters, not your username."
        />
        <TextInput name="repeat" label="New password again" type="password" isRequired autoComplete="new-password" />
        <FormSubmit label="Change password" error={error} />
      </Form>
    </main>
  );
}
