import { useMemo, useState } from 'react';
import { captureEdgeNotes, type CaptureInfo } from '../../../core/index.ts';
import { formatCount } from '../../components/format.ts';
import { Metric } from '../../components/Metric.tsx';
import { Deferred, useMountStateAttribute } from '../../components/ProgressiveMount.tsx';
import type { AddressType, BleAnalyzerOutput } from './ble-output.ts';
import { Caveats } from './Caveats.tsx';
import { ClassificationTable } from './ClassificationTable.tsx';
import { ClusterList } from './ClusterList.tsx';
import { availableCaptures, type PacketAccess } from './packet-access.ts';
import type { PacketsControl } from './PacketsButton.tsx';
import { ProbabilityHeatmap } from './ProbabilityHeatmap.tsx';
import { RssiTraces } from './RssiTraces.tsx';
import { clusterPacketFilter, type AnalysisSelection } from './rssi-traces.ts';
import { SegmentTimeline } from './SegmentTimeline.tsx';
import { TravelledTogether } from './TravelledTogether.tsx';
import { activityByAddress, clusterIndexByAddress, handOffs, swimlanes } from './view-model.ts';

interface Props {
  output: BleAnalyzerOutput;
  /** What the invocation selected, or null when the invocation is not known here. */
  selection: AnalysisSelection | null;
  access: PacketAccess;
}

const TYPE_LABELS: Array<[AddressType, string]> = [
  ['public', 'Public'],
  ['random_static', 'Random static'],
  ['rpa', 'RPA'],
  ['nrpa', 'NRPA'],
  ['unknown', 'Unknown'],
];

/**
 * A bluetooth_address_analyzer result: classification, clusters, matrix, timeline and RSSI, with
 * the caveats beside them. Under a `ProgressiveMount` the caveats and counts come first and each
 * section follows on a frame of its own (its long lists in steps), so a result of hundreds of
 * linked addresses never holds the main thread for long; `data-mount` says when all is in.
 */
export function BleAnalysisView({ output, selection, access }: Props) {
  const [selectedCluster, setSelectedCluster] = useState<number | null>(null);
  const links = output.probabilistic_links;
  const clusterOf = useMemo(() => clusterIndexByAddress(links), [links]);
  const mountState = useMountStateAttribute();
  const typeCounts = useMemo(() => {
    const counts = new Map<AddressType, number>();
    for (const row of output.address_classification) counts.set(row.type, (counts.get(row.type) ?? 0) + 1);
    return counts;
  }, [output]);
  const packets = usePacketsControl(selection, access);
  const edgeNotes = useMemo(() => {
    const byCluster = new Map<number, string[]>();
    for (const note of captureEdgeNotes(output)) byCluster.set(note.clusterIndex, [...(byCluster.get(note.clusterIndex) ?? []), note.text]);
    return byCluster;
  }, [output]);

  return (
    <div className="ble-view" data-testid="ble.view" ref={mountState}>
      <Caveats />
      <div className="ble-view__main">
        <SectionLinks />
        <dl className="metrics">
          <Metric label="Addresses" value={formatCount(output.address_classification.length)} />
          {TYPE_LABELS.filter(([type]) => typeCounts.has(type)).map(([type, label]) => (
            <Metric key={type} label={label} value={formatCount(typeCounts.get(type) ?? 0)} />
          ))}
          <Metric label="Clusters" value={formatCount(links.length)} />
          <Metric label="Segments" value={formatCount(output.timeline_segments.length)} />
        </dl>
        {packets.unavailable && selection === null && (
          <p className="muted small" role="status">
            {packets.unavailable}.
          </p>
        )}
        <Deferred fallback={<Pending what="address classification" />}>
          <ClassificationTable rows={output.address_classification} links={links} clusterOf={clusterOf} selectedCluster={selectedCluster} onSelectCluster={setSelectedCluster} packets={packets} />
        </Deferred>
        <Deferred fallback={<Pending what="clusters" />}>
          <ClusterList links={links} selectedCluster={selectedCluster} onSelectCluster={setSelectedCluster} packets={packets} edgeNotes={edgeNotes} />
        </Deferred>
        <Deferred fallback={<Pending what="link probabilities" />}>
          <ProbabilityHeatmap links={links} selectedCluster={selectedCluster} onSelectCluster={setSelectedCluster} edgeNotes={edgeNotes} />
        </Deferred>
        <Deferred>
          <TravelledTogether rows={output.travelled_together ?? []} />
        </Deferred>
        <Deferred fallback={<Pending what="timeline" />}>
          <TimelineAndTraces output={output} selection={selection} access={access} selectedCluster={selectedCluster} onSelectCluster={setSelectedCluster} packets={packets} />
        </Deferred>
      </div>
    </div>
  );
}

const SECTIONS: ReadonlyArray<[headingId: string, label: string]> = [
  ['ble-classification-heading', 'Classification'],
  ['ble-clusters-heading', 'Clusters'],
  ['ble-heatmap-heading', 'Link probabilities'],
  ['ble-timeline-heading', 'Timeline'],
  ['ble-rssi-heading', 'RSSI'],
];

/**
 * Skip links to the result's sections: without them the keyboard walks through every Packets
 * button (62 Tab presses from the result to the heatmap on a real capture). A link focuses the
 * section's heading, so the next Tab lands in that section. Handled here, not by the browser,
 * because the app routes on the URL's hash.
 */
function SectionLinks() {
  return (
    <nav className="ble-jump" aria-label="Result sections">
      <span className="muted">Jump to</span>
      <ul>
        {SECTIONS.map(([id, label]) => (
          <li key={id}>
            <a
              href={`#${id}`}
              onClick={(event) => {
                event.preventDefault();
                const heading = event.currentTarget.closest('.ble-view')?.querySelector<HTMLElement>(`#${id}`);
                if (!heading) return;
                heading.tabIndex = -1;
                heading.focus();
              }}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Where a section will appear once its turn has come. */
function Pending({ what }: { what: string }) {
  return <p className="muted small ble-pending">Preparing the {what}…</p>;
}

/** The swimlanes and the selected cluster's RSSI traces, with the view data they share (derived when this section mounts). */
function TimelineAndTraces({
  output,
  selection,
  access,
  selectedCluster,
  onSelectCluster,
  packets,
}: {
  output: BleAnalyzerOutput;
  selection: AnalysisSelection | null;
  access: PacketAccess;
  selectedCluster: number | null;
  onSelectCluster(clusterIndex: number | null): void;
  packets: PacketsControl;
}) {
  const links = output.probabilistic_links;
  const timeline = useMemo(() => activityByAddress(output), [output]);
  const lanes = useMemo(() => swimlanes(links, timeline.activity), [links, timeline]);
  const transitions = useMemo(() => handOffs(links, timeline.activity), [links, timeline]);
  return (
    <>
      {timeline.extent ? (
        // The view data above is derived on this section's turn; the swimlanes mount on the next.
        <Deferred fallback={<Pending what="swimlanes" />}>
          <SegmentTimeline
          lanes={lanes}
          activity={timeline.activity}
          handOffs={transitions}
          links={links}
          extent={timeline.extent}
          offsetMinutes={timeline.offsetMinutes}
          selectedCluster={selectedCluster}
          onSelectCluster={onSelectCluster}
          packets={packets}
          />
        </Deferred>
      ) : (
        <p className="muted">No timeline segments{timeline.unparsed > 0 ? ` (${timeline.unparsed} with unreadable timestamps)` : ''}.</p>
      )}
      {timeline.extent && timeline.unparsed > 0 && <p className="muted small">{formatCount(timeline.unparsed)} segments have unreadable timestamps and are not drawn.</p>}
      <RssiTraces link={selectedCluster === null ? null : links[selectedCluster]} selection={selection} access={access} offsetMinutes={timeline.offsetMinutes} />
    </>
  );
}

/**
 * The "packets" action: the Captures page with the address's packets that the analysis read
 * (its selection's time window, channels and filters kept). With several captures it opens the
 * one holding most of them.
 */
function usePacketsControl(selection: AnalysisSelection | null, access: PacketAccess): PacketsControl {
  const [pending, setPending] = useState<string | null>(null);
  const captures = selection && access.captures ? availableCaptures(selection.captureIds, access.captures) : null;
  const unavailable =
    selection === null
      ? 'The invocation behind this result is not available here, so its captures are unknown'
      : captures === null
        ? 'Loading captures'
        : captures.available.length === 0
          ? `${selection.captureIds.join(', ')} ${selection.captureIds.length === 1 ? 'is' : 'are'} no longer available`
          : null;
  return {
    unavailable,
    pending,
    open(address) {
      if (!selection || !captures || captures.available.length === 0) return;
      // The packets the analysis read: the address within the invocation's time window, channels and filters.
      const filterOf = (info: CaptureInfo) => clusterPacketFilter([address], selection, info);
      const [first] = captures.available;
      if (captures.available.length === 1) {
        access.openCapture(first.id, filterOf(first));
        return;
      }
      setPending(address);
      void Promise.all(captures.available.map((info) => access.countRows(info.id, filterOf(info)).catch(() => -1))).then((counts) => {
        setPending(null);
        const best = Math.max(0, counts.indexOf(Math.max(...counts)));
        access.openCapture(captures.available[best].id, filterOf(captures.available[best]));
      });
    },
  };
}
