import { useMemo } from 'react';
import { ProgressiveMount } from '../../components/ProgressiveMount.tsx';
import { useCaptureRows } from '../../lib/runtime/capture-queries.ts';
import { useRuns } from '../../lib/stores/run-store.ts';
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
  const rows = useCaptureRows();
  const access = useMemo<PacketAccess>(
    () => ({
      ...rows,
      openCapture(captureId, filter) {
        offerCaptureJump({ captureId, filter });
        window.location.hash = '#/captures';
      },
    }),
    [rows],
  );
  return (
    <ProgressiveMount>
      <BleAnalysisView output={output} selection={selection} access={access} />
    </ProgressiveMount>
  );
}
