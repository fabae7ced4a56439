import { useState } from 'react';
import { MANIFEST_FILE, parseManifest, partOverlapsWindow, type DatasetSource } from '../../../core/index.ts';
import { formatCount } from '../../components/format.ts';
import { openDatasetWindow } from '../../lib/runtime/capture-import.ts';
import { setPickedDataset, usePickedDataset } from '../../lib/runtime/picked-dataset.ts';
import { filesUnderRoot } from '../../lib/runtime/picked-directory.ts';

/** The most packets a window opened in the tab may hold (the tab holds captures of a few million packets well). */
export const TAB_MAX_PACKETS = 5_000_000;
const HOUR_MS = 3_600_000;

/** UTC to the second, as the form shows and reads times: `2026-11-20T13:00:00Z`. */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A time the analyst typed: ISO 8601 with its zone (Z or ±hh:mm), so it never depends on the browser's. */
function readTime(text: string): { ms: number } | { problem: string } {
  const trimmed = text.trim();
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed)) return { problem: 'add the zone: Z for UTC, or an offset such as +01:00' };
  const ms = Date.parse(trimmed);
  return Number.isFinite(ms) ? { ms } : { problem: 'not a time: write it as 2026-11-20T13:00:00Z' };
}

/** A window of the source's first hour (or all of it, when it is shorter). */
function defaultWindow(source: DatasetSource | undefined): { from: string; to: string } {
  if (!source?.bounds) return { from: '', to: '' };
  const { start_ms: start, end_ms: end } = source.bounds;
  return { from: isoSeconds(start), to: isoSeconds(Math.min(end + 1000, start + HOUR_MS)) };
}

/**
 * Opens a time window of a dataset (`sextant import FILE... --dataset DIR`) as captures: pick the
 * dataset's directory, one or more of its captures (a scene's receivers) and a window; only the
 * Parquet parts that hold the window are read, in a worker per capture, and each window joins the
 * captures like an imported file. A week does not fit in a tab; an hour of it does. The 5 M-packet
 * limit is for all the chosen captures together.
 */
export function DatasetWindowPanel() {
  // The picked dataset outlives the page (a dataset analysis opens devices' packets from it); the form starts again from its first capture.
  const picked = usePickedDataset();
  const first = picked?.manifest.sources[0];
  const [problem, setProblem] = useState<{ code: string; message: string } | null>(null);
  const [captureIds, setCaptureIds] = useState<string[]>(first ? [first.capture_id] : []);
  const [from, setFrom] = useState(() => defaultWindow(first).from);
  const [to, setTo] = useState(() => defaultWindow(first).to);

  const pick = async (list: FileList | null) => {
    setPickedDataset(null);
    setProblem(null);
    const { name, files } = filesUnderRoot([...(list ?? [])], MANIFEST_FILE);
    const manifestFile = files.get(MANIFEST_FILE);
    if (!manifestFile) {
      setProblem({ code: 'DATASET_NOT_FOUND', message: `${name || 'The directory'} has no ${MANIFEST_FILE} at its top: it is not a Sextant dataset (sextant import FILE --dataset DIR makes one)` });
      return;
    }
    const manifest = parseManifest(await manifestFile.text());
    if (!manifest.ok) {
      setProblem({ code: manifest.error.code, message: manifest.error.message });
      return;
    }
    const proposed = manifest.value.sources[0];
    setPickedDataset({ name, files, manifest: manifest.value });
    setCaptureIds(proposed ? [proposed.capture_id] : []);
    const window = defaultWindow(proposed);
    setFrom(window.from);
    setTo(window.to);
  };

  const sources = picked?.manifest.sources.filter((entry) => captureIds.includes(entry.capture_id)) ?? [];
  const fromTime = readTime(from);
  const toTime = readTime(to);
  const window = 'ms' in fromTime && 'ms' in toTime ? { fromMs: fromTime.ms, toMs: toTime.ms } : null;
  const order = window && window.toMs <= window.fromMs ? 'the end must come after the start' : null;
  // Known before any part is read: the rows of the parts whose time bounds meet the window.
  const partRows = sources.length > 0 && window && !order ? sources.reduce((sum, entry) => sum + entry.parts.filter((part) => partOverlapsWindow(part, window)).reduce((rows, part) => rows + part.rows, 0), 0) : null;
  const tooLarge = partRows !== null && partRows > TAB_MAX_PACKETS;
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...captureIds, id] : captureIds.filter((known) => known !== id);
    setCaptureIds(next);
    // The first capture picked proposes the window.
    if (on && captureIds.length === 0) {
      const proposed = defaultWindow(picked?.manifest.sources.find((entry) => entry.capture_id === id));
      setFrom(proposed.from);
      setTo(proposed.to);
    }
  };

  return (
    <section className="panel dataset-window" aria-label="Open a dataset window">
      <h2>Open a dataset window</h2>
      <label className="field">
        <span className="field__label">Dataset directory (holds manifest.json)</span>
        <input
          type="file"
          data-testid="captures.dataset-input"
          ref={(input) => input?.setAttribute('webkitdirectory', '')}
          onChange={(event) => {
            void pick(event.target.files);
            event.target.value = '';
          }}
        />
      </label>
      {problem && (
        <p className="field__error" role="alert" data-testid="captures.dataset-problem">
          <span className="badge badge--error">{problem.code}</span> {problem.message}
        </p>
      )}
      {picked && (
        <form
          aria-label="Dataset window"
          onSubmit={(event) => {
            event.preventDefault();
            if (!window || sources.length === 0 || order || tooLarge) return;
            // One capture per dataset capture, all of the same window (e.g. a scene's receivers, for one analysis across them).
            for (const entry of sources) void openDatasetWindow(picked.files, { captureId: entry.capture_id, window, maxRows: TAB_MAX_PACKETS }, `${entry.capture_id} ${isoSeconds(window.fromMs)} – ${isoSeconds(window.toMs)}`);
          }}
        >
          <p className="muted small" data-testid="captures.dataset-summary">
            <code>{picked.name}</code>: {picked.manifest.sources.length} capture{picked.manifest.sources.length === 1 ? '' : 's'},{' '}
            {formatCount(picked.manifest.sources.reduce((sum, entry) => sum + entry.rows, 0))} packets
          </p>
          <fieldset className="field dataset-window__captures" data-testid="captures.dataset-captures">
            <legend className="field__label">Captures (the same window of each)</legend>
            {picked.manifest.sources.map((entry) => (
              <label key={entry.capture_id} className="checkbox">
                <input type="checkbox" checked={captureIds.includes(entry.capture_id)} onChange={(event) => toggle(entry.capture_id, event.target.checked)} />
                <code>{entry.capture_id}</code>
                <span className="muted small">
                  {' '}
                  {entry.file}, {formatCount(entry.rows)} packets{entry.bounds ? `, ${isoSeconds(entry.bounds.start_ms)} – ${isoSeconds(entry.bounds.end_ms)}` : ''}
                </span>
              </label>
            ))}
          </fieldset>
          <label className="field">
            <span className="field__label">From (UTC, inclusive)</span>
            <input value={from} onChange={(event) => setFrom(event.target.value)} data-testid="captures.dataset-from" aria-invalid={'problem' in fromTime} />
            {'problem' in fromTime && <span className="field__error">{fromTime.problem}</span>}
          </label>
          <label className="field">
            <span className="field__label">To (UTC, exclusive)</span>
            <input value={to} onChange={(event) => setTo(event.target.value)} data-testid="captures.dataset-to" aria-invalid={'problem' in toTime || order !== null} />
            {'problem' in toTime && <span className="field__error">{toTime.problem}</span>}
            {order && <span className="field__error">{order}</span>}
          </label>
          {partRows !== null && (
            <p className={tooLarge ? 'field__error' : 'muted small'} data-testid="captures.dataset-estimate" role={tooLarge ? 'alert' : undefined}>
              {tooLarge
                ? `The parts that hold this window hold ${formatCount(partRows)} packets, more than the ${formatCount(TAB_MAX_PACKETS)} a tab holds: choose a shorter window, or analyse the whole dataset with sextant analyze-dataset.`
                : partRows === 0
                  ? 'No part of these captures holds packets in this window.'
                  : `Reads the parts that hold this window: ${formatCount(partRows)} packets at most.`}
            </p>
          )}
          <button type="submit" className="primary" disabled={!window || sources.length === 0 || order !== null || tooLarge || partRows === 0} data-testid="captures.dataset-open">
            Open window{sources.length > 1 ? ` of ${sources.length} captures` : ''}
          </button>
        </form>
      )}
    </section>
  );
}
