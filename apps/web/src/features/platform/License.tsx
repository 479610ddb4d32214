import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useMe } from '../../api/queries';
import { Card } from '../../components/Card';
import { FormSubmit, TextAreaInput } from '../../components/fields';
import { QueryState } from '../../components/QueryState';

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
      <QueryState pending={license.isPending} error={license.error} />
      {license.data ? (
        <Card id="current-license" title="Current license">
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
          {license.data.state === 'unlicensed' ? (
            <p className="empty">Customer, seats, features and expiry come with a license.</p>
          ) : null}
        </Card>
      ) : null}
      {admin ? (
        <Card id="install-license" title="Install a license">
          <Form key={formKey} onSubmit={submit}>
            <TextAreaInput
              name="license"
              label="License"
              rows={6}
              isRequired
              description="The signed license text you received. Installing works in read-only mode too."
            />
            <FormSubmit label="Install license" error={install.error} isDisabled={install.isPending} />
          </Form>
          {installed ? (
            <p role="status" className="once">
              License installed.
            </p>
          ) : null}
        </Card>
      ) : null}
    </div>
  );
}
