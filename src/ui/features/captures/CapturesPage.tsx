import { formatCount } from '../../components/format.ts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { importCaptureFile, useImportJobs } from '../../lib/runtime/capture-import.ts';
import { useCaptures } from '../../lib/runtime/queries.ts';
import { getRuntime } from '../../lib/runtime/sextant-runtime.ts';
import { CaptureDetail } from './CaptureDetail.tsx';
import { clearCaptureJump, peekCaptureJump } from './capture-jump.ts';
import { DatasetWindowPanel } from './DatasetWindowPanel.tsx';
import { ImportPanel } from './ImportPanel.tsx';

const BUILT_IN = 'built-in demo';

/** The captures tools can select from: import new ones, explore any of them. */
export function CapturesPage() {
  const captures = useCaptures();
  const queryClient = useQueryClient();
  // A jump from another page (an address's packets) opens its capture with its filter.
  const [jump] = useState(peekCaptureJump);
  useEffect(clearCaptureJump, []);
  const [selectedId, setSelectedId] = useState<string | null>(jump?.captureId ?? null);
  const list = captures.data ?? [];
  const selected = list.find((info) => info.id === selectedId) ?? list[0];

  const jobs = useImportJobs();
  const finished = jobs.filter((job) => job.state === 'done').map((job) => job.captureId).join(' ');
  // Each import that finishes (directly or after its column mapping) refreshes the list and is shown.
  useEffect(() => {
    if (finished === '') return;
    void queryClient.invalidateQueries({ queryKey: ['captures'] });
    setSelectedId(finished.split(' ')[0]);
  }, [finished, queryClient]);

  const importFiles = (files: File[]) => {
    for (const file of files) void importCaptureFile(file);
  };

  const remove = async (id: string) => {
    await getRuntime().removeCapture(id);
    await queryClient.invalidateQueries({ queryKey: ['captures'] });
    setSelectedId(null);
  };

  return (
    <div className="captures-page">
      <div className="captures-page__side">
        <ImportPanel onFiles={importFiles} />
        <DatasetWindowPanel />
        <section className="panel" aria-label="Captures">
          <h2>Captures</h2>
          {captures.isPending && <p className="muted">Loading captures…</p>}
          {captures.isError && <p className="field__error">Could not load captures: {String(captures.error)}</p>}
          <ul className="capture-list">
            {list.map((info) => (
              <li key={info.id}>
                <button
                  type="button"
                  className={`capture-list__item${info.id === selected?.id ? ' is-selected' : ''}`}
                  onClick={() => setSelectedId(info.id)}
                  data-testid="captures.card"
                >
                  <code>{info.id}</code>
                  <span className="muted small">
                    {formatCount(info.rowCount)} rows · {info.source}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {selected && <CaptureDetail key={selected.id} info={selected} initialFilter={selected.id === jump?.captureId ? jump.filter : ''} onDelete={selected.source === BUILT_IN ? undefined : () => void remove(selected.id)} />}
    </div>
  );
}
