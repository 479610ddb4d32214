import { useQuery } from '@tanstack/react-query';
import { Suspense, useState, type ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { api, unwrap } from './api/client';
import { setSession } from './session-store';
import { screen } from './components/screen';
import { navigate, usePathname, withinScreen } from './navigation';
import { ItemSelect } from './components/ItemSelect';
import { useCurrentProject } from './project-context';

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
const Streams = screen(() => import('./features/ingestion/Streams'), 'Streams');
const AlertRules = screen(() => import('./features/alerting/AlertRules'), 'AlertRules');
const Channels = screen(() => import('./features/alerting/Channels'), 'Channels');
const NotificationSettings = screen(() => import('./features/alerting/NotificationSettings'), 'NotificationSettings');
const AuditForwarders = screen(() => import('./features/audit/AuditForwarders'), 'AuditForwarders');
const FileIngestions = screen(() => import('./features/ingestion/FileIngestions'), 'FileIngestions');
const Inboxes = screen(() => import('./features/ingestion/Inboxes'), 'Inboxes');
const EmailFeeds = screen(() => import('./features/ingestion/EmailFeeds'), 'EmailFeeds');
const Exports = screen(() => import('./features/delivery/Exports'), 'Exports');
const Retention = screen(() => import('./features/governance/Retention'), 'Retention');
const Masking = screen(() => import('./features/governance/Masking'), 'Masking');
const Lineage = screen(() => import('./features/governance/Lineage'), 'Lineage');
const Models = screen(() => import('./features/modelling/Models'), 'Models');
const AiProviders = screen(() => import('./features/modelling/AiProviders'), 'AiProviders');

/** The groups of the navigation, in the order of the interface's areas. */
const GROUPS = [
  '',
  'Connections',
  'Ingestion',
  'ETL',
  'Modelling',
  'Delivery',
  'Governance',
  'Operations',
  'Alerting',
  'Admin',
] as const;
type Group = (typeof GROUPS)[number];

interface Page {
  path: string;
  title: string;
  group: Group;
  /** Shown to administrators only (the API refuses the others anyway). */
  admin?: boolean;
  render: () => ReactNode;
}

const PAGES: Page[] = [
  { path: '/', title: 'Overview', group: '', render: () => <Overview /> },
  { path: '/connectors', title: 'Connectors', group: 'Connections', render: () => <Connectors /> },
  { path: '/cdc-tables', title: 'CDC tables', group: 'Ingestion', render: () => <CdcTables /> },
  { path: '/streams', title: 'Streams', group: 'Ingestion', render: () => <Streams /> },
  { path: '/file-ingestions', title: 'File ingestions', group: 'Ingestion', render: () => <FileIngestions /> },
  { path: '/inboxes', title: 'Inboxes', group: 'Ingestion', render: () => <Inboxes /> },
  { path: '/email-feeds', title: 'Email feeds', group: 'Ingestion', render: () => <EmailFeeds /> },
  { path: '/pipelines', title: 'Pipelines', group: 'ETL', render: () => <Pipelines /> },
  { path: '/schedules', title: 'Schedules', group: 'ETL', render: () => <Schedules /> },
  { path: '/models', title: 'Models', group: 'Modelling', render: () => <Models /> },
  { path: '/ai-providers', title: 'AI providers', group: 'Modelling', render: () => <AiProviders /> },
  { path: '/exports', title: 'Exports', group: 'Delivery', render: () => <Exports /> },
  { path: '/catalog', title: 'Catalog', group: 'Governance', render: () => <Catalog /> },
  { path: '/lineage', title: 'Lineage', group: 'Governance', render: () => <Lineage /> },
  { path: '/masking', title: 'Masking', group: 'Governance', render: () => <Masking /> },
  { path: '/retention', title: 'Retention', group: 'Governance', render: () => <Retention /> },
  { path: '/executions', title: 'Executions', group: 'Operations', render: () => <Executions /> },
  { path: '/alerts', title: 'Alerts', group: 'Alerting', render: () => <AlertRules /> },
  { path: '/channels', title: 'Channels', group: 'Alerting', render: () => <Channels /> },
  { path: '/notifications', title: 'My notifications', group: 'Alerting', render: () => <NotificationSettings /> },
  { path: '/projects', title: 'Projects', group: 'Admin', render: () => <Projects /> },
  { path: '/roles', title: 'Roles', group: 'Admin', render: () => <Roles /> },
  { path: '/api-tokens', title: 'API tokens', group: 'Admin', render: () => <ApiTokens /> },
  { path: '/users', title: 'Users', group: 'Admin', admin: true, render: () => <Users /> },
  {
    path: '/sign-in-providers',
    title: 'Sign-in providers',
    group: 'Admin',
    admin: true,
    render: () => <SignInProviders />,
  },
  { path: '/audit-log', title: 'Audit log', group: 'Admin', admin: true, render: () => <AuditLog /> },
  {
    path: '/audit-forwarding',
    title: 'Audit forwarding',
    group: 'Admin',
    admin: true,
    render: () => <AuditForwarders />,
  },
  { path: '/license', title: 'License', group: 'Admin', render: () => <License /> },
];

/** The project every screen works in, switched once here (project-context.ts). */
function ProjectSwitcher() {
  const { projectId, projects, setProjectId } = useCurrentProject();
  return (
    <div className="project-switcher">
      <ItemSelect
        label="Current project"
        items={projects}
        value={projectId}
        onChange={setProjectId}
        isRequired={false}
        empty="No project you may see"
      />
    </div>
  );
}

/** Groups of the sidebar folded away, kept across reloads. */
const FOLDED_KEY = 'svc.nav.folded';
function readFolded(): string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(FOLDED_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function Shell({ username, admin }: { username: string; admin: boolean }) {
  const path = usePathname();
  // Narrow screens: the navigation is behind the Menu button.
  const [menuOpen, setMenuOpen] = useState(false);
  const [folded, setFolded] = useState<string[]>(readFolded);
  const toggleGroup = (group: string) =>
    setFolded((now) => {
      const next = now.includes(group) ? now.filter((g) => g !== group) : [...now, group];
      try {
        window.localStorage.setItem(FOLDED_KEY, JSON.stringify(next));
      } catch {
        // storage refused: folded until the page is left
      }
      return next;
    });
  const pages = PAGES.filter((p) => admin || !p.admin);
  // Polled, so the read-only banner appears when a license expires while the app is open.
  const license = useQuery({
    queryKey: ['license'],
    queryFn: () => unwrap(api.GET('/api/v1/license')),
    refetchInterval: 60_000,
  });
  // Polled: the navigation shows a badge while an alert fires.
  const alerts = useQuery({
    queryKey: ['alert-summary'],
    queryFn: () => unwrap(api.GET('/api/v1/alert-rules/summary')),
    refetchInterval: 15_000,
  });
  const firing = alerts.data?.firing ?? 0;
  const page = pages.find((p) => p.path !== '/' && withinScreen(path, p.path)) ?? pages[0]!;
  const signOut = async () => {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    setSession(null);
  };
  const choose = (next: string) => {
    setMenuOpen(false);
    navigate(next);
  };
  return (
    <div className="shell">
      <header>
        <Button
          className="secondary menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-navigation"
          onPress={() => setMenuOpen((open) => !open)}
        >
          Menu
        </Button>
        <span className="brand">svc</span>
        <ProjectSwitcher />
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
      <div className="shell-body">
        <nav id="main-navigation" aria-label="Main" className={menuOpen ? 'open' : undefined}>
          {GROUPS.map((group) => {
            const inGroup = pages.filter((p) => p.group === group);
            if (inGroup.length === 0) return null;
            const id = `nav-${group || 'home'}`;
            // The group of the open screen stays unfolded.
            const isFolded = !!group && folded.includes(group) && !inGroup.some((p) => p.path === page.path);
            return (
              <div key={group || 'home'} className="nav-group">
                {group ? (
                  <Button
                    id={id}
                    className="nav-group-title"
                    aria-expanded={!isFolded}
                    aria-controls={`${id}-items`}
                    onPress={() => toggleGroup(group)}
                  >
                    <span aria-hidden="true">{isFolded ? '▸' : '▾'}</span> {group}
                  </Button>
                ) : null}
                <ul id={`${id}-items`} aria-labelledby={group ? id : undefined} hidden={isFolded}>
                  {inGroup.map((p) => (
                    <li key={p.path}>
                      <a
                        href={p.path}
                        aria-current={p.path === page.path ? 'page' : undefined}
                        onClick={(event) => {
                          event.preventDefault();
                          choose(p.path);
                        }}
                      >
                        {p.title}
                      </a>
                      {p.path === '/alerts' && firing > 0 ? (
                        <span className="badge firing" role="status">
                          {firing} firing
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
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
    </div>
  );
}
