import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, lazy, useSyncExternalStore } from 'react';
import { CapturesPage } from '../features/captures/CapturesPage.tsx';
import { PlannerPage } from '../features/planner/PlannerPage.tsx';
import { RunsPage } from '../features/runs/RunsPage.tsx';
import { SettingsPage } from '../features/settings/SettingsPage.tsx';
import { ToolsPage } from '../features/tools/ToolsPage.tsx';
import './app.css';

// Monaco is large: the Manifests page loads it only when opened.
const ManifestsPage = lazy(() => import('../features/manifests/ManifestsPage.tsx'));
const McpPage = lazy(() => import('../features/mcp/McpPage.tsx'));

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

const PAGES = {
  tools: { title: 'Tools', render: () => <ToolsPage /> },
  captures: { title: 'Captures', render: () => <CapturesPage /> },
  manifests: {
    title: 'Manifests',
    render: () => (
      <Suspense fallback={<p className="muted">Loading the editor…</p>}>
        <ManifestsPage />
      </Suspense>
    ),
  },
  runs: { title: 'Runs', render: () => <RunsPage /> },
  planner: { title: 'Planner', render: () => <PlannerPage /> },
  mcp: { title: 'MCP', render: () => <Suspense fallback={<p className="muted">Loading…</p>}><McpPage /></Suspense> },
  settings: { title: 'Settings', render: () => <SettingsPage /> },
} as const;
type PageId = keyof typeof PAGES;

function currentPage(): PageId {
  const id = window.location.hash.replace(/^#\/?/, '');
  return id in PAGES ? (id as PageId) : 'tools';
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
  return (
    <QueryClientProvider client={queryClient}>
      <header className="app-header">
        <span className="brand">Sextant</span>
        <nav aria-label="Main">
          {(Object.keys(PAGES) as PageId[]).map((id) => (
            <a key={id} href={`#/${id}`} aria-current={id === page ? 'page' : undefined} data-testid={`nav.${id}`}>
              {PAGES[id].title}
            </a>
          ))}
        </nav>
      </header>
      <main className="app-main">{PAGES[page].render()}</main>
    </QueryClientProvider>
  );
}
