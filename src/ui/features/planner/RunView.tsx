import { accountingRows, timelineFromEvents, failedInvocations, summarizeRun } from '../../../core/index.ts';
import { useEffect, useState } from 'react';
import { ResultView } from '../../components/ResultView.tsx';
import { plannerRunJson, type PlannerRunRecord } from '../../lib/planner/run-store.ts';
import { rerunInvocations } from '../../lib/planner/runner.ts';
import { AccountingTable } from './AccountingTable.tsx';
import { Timeline } from './Timeline.tsx';
import type { LiveOutput } from './live-output.ts';

const REPLAY_STEP_MS = 700;
/** One formatter for every render: `toLocaleString()` builds a new one each call, and the view re-renders on every event of a run. */
const START_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

function formatStart(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : START_FORMAT.format(date);
}

function download(run: PlannerRunRecord): string | null {
  let text: string;
  try {
    text = plannerRunJson(run);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `sextant-planner-${run.id}.json`;
  link.click();
  URL.revokeObjectURL(url);
  return null;
}

/**
 * One run: its timeline (live, or replayed from the recording), accounting, and what can be done
 * with it. `live`: what the run's request in flight streams, when this page started the run.
 */
export function RunView({ run, live }: { run: PlannerRunRecord; live?: LiveOutput }) {
  const [replay, setReplay] = useState<{ cursor: number; playing: boolean } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [rerunning, setRerunning] = useState(false);
  const total = run.events.length;

  useEffect(() => {
    if (!replay?.playing) return;
    if (replay.cursor >= total) {
      setReplay({ cursor: total, playing: false });
      return;
    }
    const timer = setTimeout(() => setReplay({ cursor: replay.cursor + 1, playing: true }), REPLAY_STEP_MS);
    return () => clearTimeout(timer);
  }, [replay, total]);

  const allSteps = timelineFromEvents(run.events);
  const steps = replay ? timelineFromEvents(run.events, replay.cursor) : allSteps;
  const summary = summarizeRun(run, allSteps);
  const failed = failedInvocations(allSteps);
  const running = run.state === 'running';

  const rerun = async () => {
    setRerunning(true);
    try {
      await rerunInvocations(run, failed);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setRerunning(false);
    }
  };

  return (
    <section className="panel planner-run" aria-label="Planner run" data-testid="planner.run" data-state={run.state} data-status={summary.status}>
      <header className="planner-run__header">
        <h2>
          {run.kind === 'demo' ? 'Offline demo' : 'Run'}{' '}
          <span className={`badge badge--${summary.status === 'success' ? 'ok' : summary.status === 'running' ? 'running' : 'error'}`} data-testid="planner.run.status">
            {summary.status}
          </span>
        </h2>
        <p className="planner-run__question">{run.question}</p>
        <p className="muted small">
          {formatStart(run.startedAt)} · {run.targets.map((target) => target.label ?? `${target.provider}:${target.model}`).join(' → ')}
          {run.saveProblem && <span className="field__error"> · not saved: {run.saveProblem}</span>}
        </p>
        {(run.readProblems ?? []).length > 0 && (
          <p className="notice notice--blocked small" data-testid="planner.run.read-problems">
            {run.readProblems!.length} recorded event(s) did not match the event schema and are not shown: {run.readProblems!.slice(0, 3).join('; ')}
          </p>
        )}
        <div className="inline-inputs">
          <button type="button" onClick={() => setProblem(download(run))} disabled={running} data-testid="planner.run.export">
            Export JSON
          </button>
          <button type="button" onClick={() => setReplay({ cursor: 0, playing: true })} disabled={running || total === 0} data-testid="planner.run.replay">
            Replay
          </button>
          <button type="button" onClick={() => void rerun()} disabled={running || rerunning || failed.length === 0} data-testid="planner.run.rerun-failed" title="Validate and execute again only the invocations that failed, with fresh request ids; no model is called">
            Re-run failed steps ({failed.length})
          </button>
        </div>
        {replay && (
          <div className="inline-inputs planner-replay" data-testid="planner.replay">
            <span className="tag">replay · no provider is called</span>
            <button type="button" onClick={() => setReplay({ cursor: 0, playing: false })} aria-label="First step">
              ⏮
            </button>
            <button type="button" onClick={() => setReplay({ cursor: Math.max(0, replay.cursor - 1), playing: false })} aria-label="Previous step" data-testid="planner.replay.back">
              ◀
            </button>
            <button type="button" onClick={() => setReplay({ ...replay, playing: !replay.playing })} data-testid="planner.replay.play">
              {replay.playing ? 'Pause' : 'Play'}
            </button>
            <button type="button" onClick={() => setReplay({ cursor: Math.min(total, replay.cursor + 1), playing: false })} aria-label="Next step" data-testid="planner.replay.next">
              ▶
            </button>
            <button type="button" onClick={() => setReplay({ cursor: total, playing: false })} aria-label="Last step">
              ⏭
            </button>
            <span className="small" data-testid="planner.replay.position">
              event {replay.cursor} of {total}
            </span>
            <button type="button" onClick={() => setReplay(null)} data-testid="planner.replay.close">
              Close replay
            </button>
          </div>
        )}
        {problem && <p className="field__error">{problem}</p>}
      </header>
      <Timeline steps={steps} running={running && !replay} live={replay ? undefined : live} />
      {!replay && run.result?.error && (
        <p className="notice notice--blocked" data-testid="planner.run.error">
          {run.result.error}
        </p>
      )}
      {!replay && <AccountingTable rows={accountingRows(run.result?.accounting ?? [])} />}
      {!replay &&
        run.reruns.map((rerun, index) => (
          <section key={rerun.at + index} className="planner-rerun" data-testid="planner.rerun" aria-label={`Re-run ${index + 1}`}>
            <h3>
              Re-run of the failed steps · {new Date(rerun.at).toLocaleTimeString()} <span className="muted small">(fresh request ids, no model)</span>
            </h3>
            {rerun.steps.map((step, at) => (
              <ResultView key={at} record={step.record} title={`${step.originalRequestId ?? 'invocation'} → ${step.record.requestId ?? ''}`} />
            ))}
          </section>
        ))}
    </section>
  );
}
