import { useEffect, useRef, useState } from 'react';
import { PLANNER_DEMO_BLE_TOOL, PLANNER_DEMO_MODEL, PLANNER_DEMO_QUESTION, plannerDemoScript } from '../../../core/index.ts';
import { useManifests } from '../../lib/runtime/queries.ts';
import { restorePlannerRuns, usePlannerRuns } from '../../lib/planner/run-store.ts';
import { startPlannerRun, type PlannerRunHandle } from '../../lib/planner/runner.ts';
import { useWorkspacePlannerSettings } from '../../lib/planner/settings.ts';
import { RunCompare } from './RunCompare.tsx';
import { RunHistory } from './RunHistory.tsx';
import { RunView } from './RunView.tsx';
import { createLiveOutput, type LiveOutput } from './live-output.ts';
import { SettingsLayers, type SettingValues } from './SettingsLayers.tsx';
import { TargetsEditor } from './TargetsEditor.tsx';
import { UnofferedTools } from './UnofferedTools.tsx';
import { takeJourney } from '../../lib/stores/journey.ts';
import { ExportReportButton } from '../report/ExportReportButton.tsx';
import { plannerReportSource } from '../report/planner-report.ts';
import { PLANNER_SETTING_FIELDS } from './setting-fields.ts';
import { plannerDefaults } from './planner-defaults.ts';
import { layerSettings } from './settings-layers.ts';
import { newTargetDraft, targetFromDraft, type TargetDraft } from './target-drafts.ts';

/** Question, targets and settings; Run and Stop; the run's timeline; saved runs, replay and comparison. */
export function PlannerPage() {
  const manifests = useManifests();
  const runs = usePlannerRuns();
  const [question, setQuestion] = useState('');
  const [targets, setTargets] = useState<TargetDraft[]>(() => [newTargetDraft('scripted')]);
  const [runSettings, setRunSettings] = useState<Partial<SettingValues>>({});
  const [workspaceSettings, saveWorkspaceSettings, workspaceProblems] = useWorkspacePlannerSettings();
  const [openId, setOpenId] = useState<string | null>(null);
  const [compare, setCompare] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  // The run started from this page, and what its requests stream (never saved).
  const [active, setActive] = useState<{ handle: PlannerRunHandle; live: LiveOutput } | null>(null);
  const [offlineRepairer, setOfflineRepairer] = useState(false);

  useEffect(() => void restorePlannerRuns(), []);

  const bleAnalyzer = (manifests.data ?? []).some((manifest) => manifest.name === PLANNER_DEMO_BLE_TOOL);
  const demoScript = plannerDemoScript({ bleAnalyzer });
  const defaults = plannerDefaults();
  const running = runs.find((run) => run.id === active?.handle.id)?.state === 'running';
  const open = runs.find((run) => run.id === openId) ?? null;

  const launch = (kind: 'live' | 'demo', text: string, drafts: TargetDraft[], overrides: Partial<SettingValues>, repairer: boolean) => {
    if (running) return;
    if (text.trim() === '') return setProblem('Type a question first.');
    const built = drafts.map((draft) => targetFromDraft(draft, demoScript));
    const broken = built.find((entry) => !entry.ok);
    if (broken && !broken.ok) return setProblem(broken.message);
    if (built.length === 0) return setProblem('Add at least one provider target.');
    setProblem(null);
    const layered = layerSettings(defaults, workspaceSettings, overrides);
    const settings = {
      values: Object.fromEntries(Object.entries(layered).map(([key, entry]) => [key, entry.value])),
      layers: Object.fromEntries(Object.entries(layered).map(([key, entry]) => [key, entry.layer])),
    };
    const live = createLiveOutput();
    const started = startPlannerRun({ question: text.trim(), kind, targets: built.flatMap((entry) => (entry.ok ? [entry.target] : [])), settings, offlineRepairer: repairer, stream: live });
    setActive({ handle: started, live });
    setOpenId(started.id);
  };

  const run = () => launch('live', question, targets, runSettings, offlineRepairer);
  const runDemo = () => {
    const demoTarget: TargetDraft = { ...newTargetDraft('scripted'), model: PLANNER_DEMO_MODEL, scriptSource: 'demo' };
    setQuestion(PLANNER_DEMO_QUESTION);
    // The demo's repair is the offline repairer's by design: no model is involved.
    launch('demo', PLANNER_DEMO_QUESTION, [demoTarget], runSettings, true);
  };

  // The start page's "Run the offline demo" starts it on arrival, once the tools are known.
  const [demoRequested, setDemoRequested] = useState(() => takeJourney('planner-demo'));
  const runDemoOnArrival = useRef(runDemo);
  runDemoOnArrival.current = runDemo;
  useEffect(() => {
    if (!demoRequested || !manifests.isSuccess) return;
    setDemoRequested(false);
    runDemoOnArrival.current();
  }, [demoRequested, manifests.isSuccess]);

  const left = runs.find((entry) => entry.id === compare[0]);
  const right = runs.find((entry) => entry.id === compare[1]);

  return (
    <div className="planner-page">
      <section className="panel planner-compose" aria-label="Ask the planner">
        <h2>Planner</h2>
        <p className="muted small">
          The planner offers the installed tools to a model, validates every call it plans, repairs only the ones that fail, runs the rest in workers and writes a
          final report. Every step shows below.
        </p>
        <label className="field">
          <span className="field__label">Question</span>
          <textarea
            className="planner-question"
            value={question}
            onChange={(event) => setQuestion(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                event.preventDefault();
                run();
              }
            }}
            placeholder="Which of these addresses are the same phone, and does jitter explain latency on ch1?"
            data-testid="planner.question"
          />
          <span className="field__hint">Ctrl+Enter (⌘+Enter on a Mac) runs.</span>
        </label>
        <div className="inline-inputs planner-actions">
          <button type="button" className="primary" onClick={run} disabled={running} data-testid="planner.run-button">
            Run
          </button>
          <button type="button" onClick={() => active?.handle.stop()} disabled={!running} data-testid="planner.stop">
            Stop
          </button>
          <span className="spacer" />
          <button type="button" onClick={runDemo} disabled={running} data-testid="planner.demo" title="A scripted provider and the offline repairer: no network, no key">
            Run the offline demo
          </button>
        </div>
        {!bleAnalyzer && manifests.isSuccess && (
          <p className="muted small" data-testid="planner.demo.ble-off">
            The demo's BLE step is off: {PLANNER_DEMO_BLE_TOOL} is not installed in this build.
          </p>
        )}
        {problem && (
          <p className="field__error" role="alert" data-testid="planner.problem">
            {problem}
          </p>
        )}
        <label className="checkbox small">
          <input type="checkbox" checked={offlineRepairer} onChange={(event) => setOfflineRepairer(event.target.checked)} data-testid="planner.offline-repairer" />
          Let the offline repairer fix failed invocations before the model sees them (labelled wherever it acts)
        </label>
        <TargetsEditor targets={targets} onChange={setTargets} />
        <UnofferedTools />
        <details className="planner-settings-panel">
          <summary>Settings (defaults &lt; workspace &lt; this run)</summary>
          {workspaceProblems.map((item) => (
            <p key={item.field} className="notice notice--blocked small" data-testid="planner.settings.workspace-problem">
              Not applied: {item.message} [{item.code}]
            </p>
          ))}
          <SettingsLayers
            fields={PLANNER_SETTING_FIELDS}
            defaults={defaults}
            workspace={workspaceSettings}
            run={runSettings}
            onRunChange={setRunSettings}
            onWorkspaceChange={(next) => void saveWorkspaceSettings(next)}
          />
        </details>
      </section>

      <div className="planner-main">
        {open && open.state !== 'running' && (
          <div className="planner-export">
            <ExportReportButton source={() => plannerReportSource(open)} withRunFile />
          </div>
        )}
        {open ? <RunView key={open.id} run={open} live={open.id === active?.handle.id ? active.live : undefined} /> : <section className="panel muted">Ask a question, or run the offline demo.</section>}
        <section className="panel" aria-label="Planner runs">
          <h2>Planner runs</h2>
          <RunHistory runs={runs} openId={openId} onOpen={setOpenId} compare={compare} onCompareChange={setCompare} />
          {compare.length === 1 && <p className="muted small">Tick one more run to compare.</p>}
        </section>
        {left && right && <RunCompare left={left} right={right} />}
      </div>
    </div>
  );
}
