import { useState, type FormEvent } from 'react';
import { Button, Form, Input, Label, Text, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';

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
      await unwrap(api.POST('/api/v1/me/password', { body: { current_password: String(form.get('current_password')), new_password: String(form.get('new_password')) } }));
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
        <TextField name="current_password" type="password" isRequired autoComplete="current-password">
          <Label>Current password</Label>
          <Input />
        </TextField>
        <TextField name="new_password" type="password" isRequired minLength={12} autoComplete="new-password">
          <Label>New password</Label>
          <Input />
          <Text slot="description">At least 12 characters, not your username.</Text>
        </TextField>
        <TextField name="repeat" type="password" isRequired autoComplete="new-password">
          <Label>New password again</Label>
          <Input />
        </TextField>
        <ErrorNotice error={error} />
        <Button type="submit">Change password</Button>
      </Form>
    </main>
  );
}
