import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useRef, useSyncExternalStore } from 'react';
import { StartPage } from '../features/start/StartPage.tsx';
import './app.css';

// Every page but the start page is its own chunk, so the first screen loads only what it shows:
// Monaco (Manifests), Arrow and the tools (through the runtime), recharts (results) load when used.
const ToolsPage = lazy(() => import('../features/tools/ToolsPage.tsx').then((module) => ({ default: module.ToolsPage })));
const CapturesPage = lazy(() => import('../features/captures/CapturesPage.tsx').then((module) => ({ default: module.CapturesPage })));
const ManifestsPage = lazy(() => import('../features/manifests/ManifestsPage.tsx'));
const McpPage = lazy(() => import('../features/mcp/McpPage.tsx'));
const RunsPage = lazy(() => import('../features/runs/RunsPage.tsx').then((module) => ({ default: module.RunsPage })));
const PlannerPage = lazy(() => import('../features/planner/PlannerPage.tsx').then((module) => ({ default: module.PlannerPage })));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage.tsx').then((module) => ({ default: module.SettingsPage })));

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

const PAGES = {
  start: { title: 'Start', render: () => <StartPage /> },
  tools: { title: 'Tools', render: () => <ToolsPage /> },
  captures: { title: 'Captures', render: () => <CapturesPage /> },
  manifests: { title: 'Manifests', render: () => <ManifestsPage /> },
  runs: { title: 'Runs', render: () => <RunsPage /> },
  planner: { title: 'Planner', render: () => <PlannerPage /> },
  mcp: { title: 'MCP', render: () => <McpPage /> },
  settings: { title: 'Settings', render: () => <SettingsPage /> },
} as const;
type PageId = keyof typeof PAGES;

function currentPage(): PageId {
  const id = window.location.hash.replace(/^#\/?/, '').replace(/[?/].*$/, '');
  return id in PAGES ? (id as PageId) : 'start';
}

function useHashPage(): PageId {
  return useSyncExternalStore(
    (listener) => {
      window.addEventListener('hashchange', listener);
      return () => window.removeEventListener('hashchange', listener);
    },
    currentPage,
  );
}

/** Composition root: navigation and the page it points at. */
export function App() {
  const page = useHashPage();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = page === 'start' ? 'Sextant' : `${PAGES[page].title} · Sextant`;
    // After navigating, keyboard and screen-reader focus moves to the new page (not on first load).
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [page]);
  return (
    <QueryClientProvider client={queryClient}>
      <a className="skip-link" href="#main-content" onClick={(event) => (event.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header className="app-header">
        <a className="brand" href="#/start" data-testid="nav.start">
          Sextant
        </a>
        <nav aria-label="Main">
          {(Object.keys(PAGES) as PageId[])
            .filter((id) => id !== 'start')
            .map((id) => (
              <a key={id} href={`#/${id}`} aria-current={id === page ? 'page' : undefined} data-testid={`nav.${id}`}>
                {PAGES[id].title}
              </a>
            ))}
        </nav>
      </header>
      <main className="app-main" id="main-content" ref={main} tabIndex={-1}>
        {/* One level-one heading per page: the start page writes its own. */}
        {page !== 'start' && <h1 className="visually-hidden">Sextant · {PAGES[page].title}</h1>}
        <Suspense fallback={<p className="muted">Loading {PAGES[page].title}…</p>}>{PAGES[page].render()}</Suspense>
      </main>
    </QueryClientProvider>
  );
}
