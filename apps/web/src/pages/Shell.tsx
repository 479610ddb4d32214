import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from '../api/client';
import { setSession } from '../session-store';
import { ApiTokens } from './ApiTokens';
import { AuditLog } from './AuditLog';
import { CdcTables } from './CdcTables';
import { Connectors } from './Connectors';
import { Executions } from './Executions';
import { Overview } from './Overview';
import { Pipelines } from './Pipelines';
import { Schedules } from './Schedules';

const PAGES = [
  { path: '/', title: 'Overview', render: () => <Overview /> },
  { path: '/connectors', title: 'Connectors', render: () => <Connectors /> },
  { path: '/pipelines', title: 'Pipelines', render: () => <Pipelines /> },
  { path: '/schedules', title: 'Schedules', render: () => <Schedules /> },
  { path: '/executions', title: 'Executions', render: () => <Executions /> },
  { path: '/cdc-tables', title: 'CDC tables', render: () => <CdcTables /> },
  { path: '/api-tokens', title: 'API tokens', render: () => <ApiTokens /> },
  { path: '/audit-log', title: 'Audit log', render: () => <AuditLog /> },
] as const;

/** Navigation in the address bar (the server answers every such path with the app). */
function usePath(): [string, (path: string) => void] {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return [path, (next) => {
    window.history.pushState(null, '', next);
    setPath(next);
  }];
}

export function Shell({ username }: { username: string }) {
  const [path, go] = usePath();
  const license = useQuery({ queryKey: ['license'], queryFn: () => unwrap(api.GET('/api/v1/license')) });
  const page = PAGES.find((p) => p.path === path) ?? PAGES[0];
  const signOut = async () => {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    setSession(null);
  };
  return (
    <div className="shell">
      <header>
        <span className="brand">svc</span>
        <nav aria-label="Main">
          {PAGES.map((p) => (
            <a
              key={p.path}
              href={p.path}
              aria-current={p.path === page.path ? 'page' : undefined}
              onClick={(event) => {
                event.preventDefault();
                go(p.path);
              }}
            >
              {p.title}
            </a>
          ))}
        </nav>
        <span className="user">{username}</span>
        <Button className="secondary" onPress={() => void signOut()}>
          Sign out
        </Button>
      </header>
      {license.data?.state === 'expired' ? (
        <div role="status" className="banner">
          The license has expired: the instance is read-only. Reads work; changes are refused until the license is renewed.
        </div>
      ) : null}
      <main>
        <h1>{page.title}</h1>
        {page.render()}
      </main>
    </div>
  );
}
