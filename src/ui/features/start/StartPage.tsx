import { useQuery } from '@tanstack/react-query';
import { requestJourney } from '../../lib/stores/journey.ts';
import { getWorkspace } from '../../lib/stores/workspace-session.ts';

interface RecentCapture {
  id: string;
  source: string;
  rows: number;
  addedAt: string;
}

interface RecentRun {
  key: string;
  kind: 'tool run' | 'planner run';
  what: string;
  startedAt: string;
  href: string;
}

/** The workspace's newest captures and runs, read straight from IndexedDB (no worker needed). */
function useRecent() {
  return useQuery({
    queryKey: ['start', 'recent'],
    queryFn: async () => {
      const workspace = await getWorkspace();
      if (!workspace) return { captures: [] as RecentCapture[], runs: [] as RecentRun[], available: false };
      const [captures, runs, plannerRuns] = await Promise.all([workspace.listCaptures(), workspace.listRuns({ limit: 5 }), workspace.listPlannerRuns({ limit: 5 })]);
      const recentCaptures = (captures.ok ? captures.value : [])
        .slice()
        .sort((a, b) => b.addedAt.localeCompare(a.addedAt))
        .slice(0, 5)
        .map((capture) => ({ id: capture.id, source: capture.info.source, rows: capture.info.rowCount, addedAt: capture.addedAt }));
      const toolRuns: RecentRun[] = (runs.ok ? runs.value : []).map((run) => ({
        key: `run-${run.id}`,
        kind: 'tool run',
        what: run.records.map((record) => record.toolName ?? '?').join(', ') || 'invocation',
        startedAt: run.startedAt,
        href: '#/runs',
      }));
      const planner: RecentRun[] = (plannerRuns.ok ? plannerRuns.value : []).map((run) => {
        const record = typeof run.record === 'object' && run.record !== null && !Array.isArray(run.record) ? run.record : {};
        return { key: `planner-${run.id}`, kind: 'planner run', what: typeof record.question === 'string' ? record.question : 'planner run', startedAt: run.startedAt, href: '#/planner' };
      });
      const recentRuns = [...toolRuns, ...planner].sort((a, b) => b.startedAt.localeCompare(a.startedAt)).slice(0, 6);
      return { captures: recentCaptures, runs: recentRuns, available: true };
    },
    staleTime: 0,
  });
}

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** The landing page: the three things Sextant is for, one click each, and what the workspace holds. */
export function StartPage() {
  const recent = useRecent();
  return (
    <div className="start-page">
      <section className="start-intro">
        <h1>Sextant</h1>
        <p>
          A workbench for packet captures and the statistical tools an LLM planner drives. Everything runs in this browser, in Web Workers; nothing is uploaded. Pick a
          journey to start.
        </p>
      </section>
      <ul className="journeys" aria-label="Journeys">
        <li className="panel journey">
          <h2>Analyse a capture</h2>
          <p>
            Link rotating Bluetooth LE addresses: the built-in lab-floor captures (two receivers, 30 minutes, one wearable rotating its address twice) through the{' '}
            <code>bluetooth_address_analyzer</code>, with the heatmap, the timeline and the caveats.
          </p>
          <p className="journey__actions">
            <a
              className="button primary"
              href="#/tools"
              onClick={() => requestJourney('ble-analysis')}
              data-testid="start.ble-analysis"
            >
              Analyse the BLE demo captures
            </a>
            <a className="button" href="#/captures" data-testid="start.import">
              Import your own capture
            </a>
          </p>
        </li>
        <li className="panel journey">
          <h2>Author a manifest</h2>
          <p>Write a ToolManifest with schema checks as you type, or paste a tool definition from OpenAI, Anthropic, MCP or LangChain and get a draft manifest.</p>
          <p className="journey__actions">
            <a className="button primary" href="#/manifests" data-testid="start.manifest">
              Open an example manifest
            </a>
            <a className="button" href="#/manifests" onClick={() => requestJourney('import-definition')} data-testid="start.import-definition">
              Import a tool definition
            </a>
          </p>
        </li>
        <li className="panel journey">
          <h2>Watch the planner repair</h2>
          <p>
            The offline demo: a scripted model plans an invalid regression, validation rejects it, the offline repairer fixes it, the tools run and a final report is
            written — no network, no key.
          </p>
          <p className="journey__actions">
            <a className="button primary" href="#/planner" onClick={() => requestJourney('planner-demo')} data-testid="start.planner-demo">
              Run the offline demo
            </a>
          </p>
        </li>
      </ul>
      <div className="start-recent">
        <section className="panel" aria-labelledby="recent-captures">
          <h2 id="recent-captures">Recent captures</h2>
          {recent.isPending && <p className="muted">Loading…</p>}
          {recent.data && recent.data.captures.length === 0 && (
            <p className="muted">{recent.data.available ? 'No imported captures yet; the built-in demo captures are always there.' : 'This browser offers no storage here.'}</p>
          )}
          {recent.data && recent.data.captures.length > 0 && (
            <ul className="recent-list" data-testid="start.recent-captures">
              {recent.data.captures.map((capture) => (
                <li key={capture.id}>
                  <a href="#/captures">{capture.id}</a> <span className="muted small">{capture.source} · {capture.rows.toLocaleString()} rows · added {when(capture.addedAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="panel" aria-labelledby="recent-runs">
          <h2 id="recent-runs">Recent runs</h2>
          {recent.isPending && <p className="muted">Loading…</p>}
          {recent.data && recent.data.runs.length === 0 && <p className="muted">No runs yet.</p>}
          {recent.data && recent.data.runs.length > 0 && (
            <ul className="recent-list" data-testid="start.recent-runs">
              {recent.data.runs.map((run) => (
                <li key={run.key}>
                  <a href={run.href}>{run.what}</a> <span className="muted small">{run.kind} · {when(run.startedAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
