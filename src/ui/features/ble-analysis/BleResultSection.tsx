import { useMemo } from 'react';
import type { CaptureViewAnswer } from '../../lib/runtime/capture-queries.ts';
import { useCaptures } from '../../lib/runtime/queries.ts';
import { useRuns } from '../../lib/stores/run-store.ts';
import { getRuntime } from '../../lib/runtime/sextant-runtime.ts';
import { offerCaptureJump } from '../captures/capture-jump.ts';
import { BleAnalysisView } from './BleAnalysisView.tsx';
import type { BleAnalyzerOutput } from './ble-output.ts';
import type { PacketAccess } from './packet-access.ts';
import { findInvocation, selectionOf } from './rssi-traces.ts';

interface Props {
  output: BleAnalyzerOutput;
  /** The result's `request_id`: finds the invocation among this session's runs. */
  requestId: string | null;
  /** The invocation itself, when the caller has it. */
  invocation?: unknown;
}

/** The analyzer's view wired to the app: the run that produced it, and packets through the tools workers. */
export function BleResultSection({ output, requestId, invocation }: Props) {
  const runs = useRuns();
  const found = useMemo(() => {
    if (invocation !== undefined) return invocation;
    if (requestId === null) return undefined;
    for (const run of runs) {
      const step = findInvocation(run.input, requestId);
      if (step !== undefined) return step;
    }
    return undefined;
  }, [invocation, requestId, runs]);
  const selection = useMemo(() => selectionOf(found), [found]);
  const captures = useCaptures();
  const access = useMemo<PacketAccess>(
    () => ({
      captures: captures.data ?? null,
      readRows: (captureId, filter, limit) => getRuntime().pool.query((api) => api.readRows(captureId, filter, 0, limit)),
      countRows: async (captureId, filter) => {
        // comlink's Remote<> distributes the union into a union of promises; it is one promise.
        const view = await getRuntime().pool.query((api) => api.selectRows(captureId, filter) as Promise<CaptureViewAnswer>);
        return 'error' in view ? 0 : view.rowCount;
      },
      openCapture(captureId, filter) {
        offerCaptureJump({ captureId, filter });
        window.location.hash = '#/captures';
      },
    }),
    [captures.data],
  );
  return <BleAnalysisView output={output} selection={selection} access={access} />;
}
