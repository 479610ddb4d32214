/**
 * The gate: restore the session through the refresh cookie, else the login page; a seeded account
 * that must change its password sees only the password change until it is done.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { api, unwrap } from './api/client';
import { ChangePassword } from './features/identity/ChangePassword';
import { Login } from './features/identity/Login';
import { screen } from './components/screen';
import { refreshSession, subscribe } from './session-store';

// The signed-in app is a chunk of its own: the sign-in page does not wait for it.
const Shell = screen(() => import('./Shell'), 'Shell');

const loading = (
  <p className="center" aria-busy="true">
    Loading…
  </p>
);

export function App() {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const queries = useQueryClient();
  useEffect(() => {
    const unsubscribe = subscribe((next) => setToken(next));
    void refreshSession().then((restored) => setToken(restored));
    return () => void unsubscribe();
  }, []);
  const me = useQuery({ queryKey: ['me'], enabled: !!token, queryFn: () => unwrap(api.GET('/api/v1/me')) });
  if (token === undefined || (token && me.isPending)) return loading;
  if (!token) return <Login />;
  if (me.data?.password_change_required)
    return <ChangePassword onDone={() => void queries.invalidateQueries({ queryKey: ['me'] })} />;
  return (
    <Suspense fallback={loading}>
      <Shell username={me.data?.username ?? ''} admin={me.data?.is_admin === true} />
    </Suspense>
  );
}
