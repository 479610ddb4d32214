import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from './api/client';
import { setSession } from './session-store';
import { ApiTokens } from './features/identity/ApiTokens';
import { AuditLog } from './features/audit/AuditLog';
import { Catalog } from './features/governance/Catalog';
import { Retention } from './features/governance/Retention';
import { CdcTables } from './features/ingestion/CdcTables';
import { Connectors } from './features/connectivity/Connectors';
import { Executions } from './features/operations/Executions';
import { License } from './features/platform/License';
import { Overview } from './features/operations/Overview';
import { Pipelines } from './features/etl/Pipelines';
import { Projects } from './features/platform/Projects';
import { Roles } from './features/platform/Roles';
import { Schedules } from './features/etl/Schedules';
import { SignInProviders } from './features/platform/SignInProviders';
import { Users } from './features/identity/Users';

/** The screens; `admin` ones are shown to administrators only (the API refuses the others anyway). */
const PAGES = [
  { path: '/', title: 'Overview', render: () => <Overview /> },
  { path: '/connectors', title: 'Connectors', render: () => <Connectors /> },
  { path: '/catalog', title: 'Catalog', render: () => <Catalog /> },
  { path: '/retention', title: 'Retention', render: () => <Retention /> },
  { path: '/pipelines', title: 'Pipelines', render: () => <Pipelines /> },
  { path: '/schedules', title: 'Schedules', render: () => <Schedules /> },
  { path: '/executions', title: 'Executions', render: () => <Executions /> },
  { path: '/cdc-tables', title: 'CDC tables', render: () => <CdcTables /> },
  { path: '/api-tokens', title: 'API tokens', render: () => <ApiTokens /> },
  { path: '/projects', title: 'Projects', render: () => <Projects /> },
  { path: '/roles', title: 'Roles', render: () => <Roles /> },
  { path: '/users', title: 'Users', admin: true, render: () => <Users /> },
  { path: '/sign-in-providers', title: 'Sign-in providers', admin: true, render: () => <SignInProviders /> },
  { path: '/audit-log', title: 'Audit log', admin: true, render: () => <AuditLog /> },
  { path: '/license', title: 'License', render: () => <License /> },
];

/** Navigation in the address bar (the server answers every such path with the app). */
function usePath(): [string, (path: string) => void] {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return [
    path,
    (next) => {
      window.history.pushState(null, '', next);
      setPath(next);
    },
  ];
}

export function Shell({ username, admin }: { username: string; admin: boolean }) {
  const [path, go] = usePath();
  const pages = PAGES.filter((p) => admin || !p.admin);
  // Polled, so the read-only banner appears when a license expires while the app is open.
  const license = useQuery({
    queryKey: ['license'],
    queryFn: () => unwrap(api.GET('/api/v1/license')),
    refetchInterval: 60_000,
  });
  const page = pages.find((p) => p.path === path) ?? pages[0]!;
  const signOut = async () => {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    setSession(null);
  };
  return (
    <div className="shell">
      <header>
        <span className="brand">svc</span>
        <nav aria-label="Main">
          {pages.map((p) => (
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
          The license has expired: the instance is read-only. Reads work; changes are refused until the license is
          renewed.
        </div>
      ) : null}
      <main>
        <h1>{page.title}</h1>
        {page.render()}
      </main>
    </div>
  );
}
