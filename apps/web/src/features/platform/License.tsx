import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form, Label, Text, TextArea, TextField } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe } from '../../api/queries';
import { ErrorNotice } from '../../components/ErrorNotice';

const STATES = {
  unlicensed: 'Community mode: no license installed, everything writable',
  licensed: 'Licensed',
  expired: 'Expired: the instance is read-only',
} as const;

/** The instance license (administrators): its state, customer, seats, features and expiry; install a new one. */
export function License() {
  // Installing is for administrators; everyone sees the state.
  const admin = useMe().data?.is_admin === true;
  const queries = useQueryClient();
  const license = useQuery({ queryKey: ['license'], queryFn: () => unwrap(api.GET('/api/v1/license')) });
  const [installed, setInstalled] = useState(false);
  // A new key empties the form after a license was installed.
  const [formKey, setFormKey] = useState(0);
  const install = useMutation({
    mutationFn: (text: string) => unwrap(api.PUT('/api/v1/license', { body: { license: text } })),
    onSuccess: () => {
      setInstalled(true);
      setFormKey((k) => k + 1);
      // The shell's read-only banner reads the same key.
      void queries.invalidateQueries({ queryKey: ['license'] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setInstalled(false);
    install.mutate(String(new FormData(event.currentTarget).get('license') ?? '').trim());
  };
  return (
    <div className="grid">
      {license.isPending ? <p aria-busy="true">Loading…</p> : null}
      <ErrorNotice error={license.error} />
      {license.data ? (
        <section className="card" aria-labelledby="current-license">
          <h2 id="current-license">Current license</h2>
          <dl>
            <dt>State</dt>
            <dd>{STATES[license.data.state]}</dd>
            {license.data.state === 'unlicensed' ? null : (
              <>
                <dt>Customer</dt>
                <dd>{license.data.customer ?? '—'}</dd>
                <dt>Seats</dt>
                <dd>{license.data.seats ?? '—'}</dd>
                <dt>Features</dt>
                <dd>{license.data.features.join(', ') || 'none'}</dd>
                <dt>Expires at</dt>
                <dd>{license.data.expires_at ? new Date(license.data.expires_at).toLocaleString() : 'never'}</dd>
              </>
            )}
          </dl>
          {license.data.state === 'unlicensed' ? <p className="empty">Customer, seats, features and expiry come with a license.</p> : null}
        </section>
      ) : null}
      {admin ? (
        <section className="card" aria-labelledby="install-license">
          <h2 id="install-license">Install a license</h2>
          <Form key={formKey} onSubmit={submit}>
            <TextField name="license" isRequired>
              <Label>License</Label>
              <TextArea rows={6} spellCheck={false} />
              <Text slot="description">The signed license text you received. Installing works in read-only mode too.</Text>
            </TextField>
            <ErrorNotice error={install.error} />
            <Button type="submit" isDisabled={install.isPending}>
              Install license
            </Button>
          </Form>
          {installed ? (
            <p role="status" className="once">
              License installed.
            </p>
      ) : null}
      </section>
      ) : null}
    </div>
  );
}
