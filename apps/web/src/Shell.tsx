import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from './api/client';
import { setSession } from './session-store';
import { screen } from './components/screen';

// Each screen is its own chunk, loaded when first shown (docs/web-ui.md: bundle sizes).
const ApiTokens = screen(() => import('./features/identity/ApiTokens'), 'ApiTokens');
const AuditLog = screen(() => import('./features/audit/AuditLog'), 'AuditLog');
const Catalog = screen(() => import('./features/governance/Catalog'), 'Catalog');
const CdcTables = screen(() => import('./features/ingestion/CdcTables'), 'CdcTables');
const Connectors = screen(() => import('./features/connectivity/Connectors'), 'Connectors');
const Executions = screen(() => import('./features/operations/Executions'), 'Executions');
const License = screen(() => import('./features/platform/License'), 'License');
const Overview = screen(() => import('./features/operations/Overview'), 'Overview');
const Pipelines = screen(() => import('./features/etl/Pipelines'), 'Pipelines');
const Projects = screen(() => import('./features/platform/Projects'), 'Projects');
const Roles = screen(() => import('./features/platform/Roles'), 'Roles');
const Schedules = screen(() => import('./features/etl/Schedules'), 'Schedules');
const SignInProviders = screen(() => import('./features/platform/SignInProviders'), 'SignInProviders');
const Users = screen(() => import('./features/identity/Users'), 'Users');

/** The screens; `admin` ones are shown to administrators only (the API refuses the others anyway). */
const PAGES = [
  { path: '/', title: 'Overview', render: () => <Overview /> },
  { path: '/connectors', title: 'Connectors', render: () => <Connectors /> },
  { path: '/catalog', title: 'Catalog', render: () => <Catalog /> },
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
        {/* The title comes with its screen: a heading on screen means the screen is ready. */}
        <Suspense
          fallback={
            <p className="center" aria-busy="true">
              Loading…
            </p>
          }
        >
          <h1>{page.title}</h1>
          {page.render()}
        </Suspense>
      </main>
    </div>
  );
}
