import { useState } from 'react';
import type { DatasetAnalysisOverview, StitchedCluster } from '../../../core/index.ts';
import { formatCount } from '../../components/format.ts';
import { openDatasetWindow } from '../../lib/runtime/capture-import.ts';
import { usePickedDataset } from '../../lib/runtime/picked-dataset.ts';
import { offerCaptureJump } from '../captures/capture-jump.ts';
import { TAB_MAX_PACKETS } from '../captures/DatasetWindowPanel.tsx';
import { addressFilter } from '../ble-analysis/rssi-traces.ts';
import { datasetOfAnalysis, devicePacketsPlan } from './device-packets.ts';
import { utcSeconds } from './utc.ts';

interface Props {
  device: StitchedCluster;
  analysed: DatasetAnalysisOverview['captures'];
}

/**
 * A stitched device's packets in the app: the device's span of every analysed capture opened as
 * dataset windows (from the dataset picked on the Captures page), then the first shown filtered
 * to the device's addresses.
 */
export function DevicePacketsButton({ device, analysed }: Props) {
  const dataset = datasetOfAnalysis(usePickedDataset(), analysed);
  const [state, setState] = useState<{ opening: boolean; problem: string | null }>({ opening: false, problem: null });
  if (!dataset) {
    return (
      <p className="muted small" data-testid="analysis.device-packets-hint">
        To open its packets here, pick the dataset on Captures → Open a dataset window.
      </p>
    );
  }
  const plan = devicePacketsPlan(
    dataset.manifest,
    analysed.map((capture) => capture.capture_id),
    device.first_seen,
    device.last_seen,
  );
  if (!plan || plan.captures.length === 0) return null;
  const tooLarge = plan.partRows > TAB_MAX_PACKETS;
  const open = async () => {
    setState({ opening: true, problem: null });
    const label = `${device.id} ${utcSeconds(plan.window.fromMs)} – ${utcSeconds(plan.window.toMs)}`;
    const jobs = await Promise.all(plan.captures.map((entry) => openDatasetWindow(dataset.files, { captureId: entry.captureId, window: plan.window, maxRows: TAB_MAX_PACKETS }, `${entry.captureId}: ${label}`)));
    const opened = jobs.find((job) => job.state === 'done');
    if (!opened) {
      setState({ opening: false, problem: jobs.map((job) => `${job.error?.code ?? job.state}: ${job.error?.message ?? ''}`).join('; ') });
      return;
    }
    offerCaptureJump({ captureId: opened.captureId, filter: addressFilter(device.addresses) });
    window.location.hash = '#/captures';
  };
  return (
    <div className="stitched-device__packets">
      <button type="button" disabled={state.opening || tooLarge} onClick={() => void open()} data-testid="analysis.device-packets">
        {state.opening ? 'Opening…' : `Open its packets (${plan.captures.length === 1 ? 'one capture' : `${plan.captures.length} captures`}, ${utcSeconds(plan.window.fromMs)} – ${utcSeconds(plan.window.toMs)})`}
      </button>
      {tooLarge && (
        <p className="field__error small">
          Its span&apos;s parts hold {formatCount(plan.partRows)} packets, more than the {formatCount(TAB_MAX_PACKETS)} a tab holds: use the command above.
        </p>
      )}
      {state.problem && (
        <p className="field__error small" role="alert">
          {state.problem}
        </p>
      )}
    </div>
  );
}
