// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressiveMount } from '../../components/ProgressiveMount.tsx';
import { bleExampleInvocation, type CaptureInfo, type CellValue } from '../../../core/index.ts';
import fixture from './__fixtures__/lab-floor-output.json' with { type: 'json' };
import { largeBleOutput } from './__fixtures__/large-output.ts';
import { BleAnalysisView } from './BleAnalysisView.tsx';
import type { BleAnalyzerOutput } from './ble-output.ts';
import type { PacketAccess } from './packet-access.ts';
import { selectionOf } from './rssi-traces.ts';

afterEach(cleanup);

const output = fixture as BleAnalyzerOutput;
const selection = selectionOf(bleExampleInvocation);

function captureInfo(id: string): CaptureInfo {
  return {
    id,
    description: '',
    source: 'built-in demo',
    rowCount: 10,
    columns: ['ts_ms', 'receiver', 'rssi', 'advertiser_addr'].map((name) => ({ name, kind: name === 'ts_ms' || name === 'rssi' ? 'number' : 'string' }) as CaptureInfo['columns'][number]),
    timeColumn: 'ts_ms',
    channelColumn: null,
    channels: [],
    bounds: { start_ms: 1712131200000, end_ms: 1712133000000 },
    boundsSource: 'declared',
    timeOrigin: null,
  };
}

/** Packets of the 3-address cluster at two receivers, one per capture. */
const ROWS: Record<string, CellValue[][]> = {
  lab_floor_2026_04_03_a: [
    [1712131300000, 'rx-north-2', -61, '7A:4C:21:9D:10:EF'],
    [1712131900000, 'rx-north-2', -63, '61:D2:88:3C:A4:19'],
  ],
  lab_floor_2026_04_03_b: [
    [1712131300000, 'rx-south-1', -80, '7A:4C:21:9D:10:EF'],
    [1712132500000, 'rx-south-1', -78, '5F:09:2A:7E:CD:44'],
    [1712132600000, 'rx-south-1', -77, '5F:09:2A:7E:CD:44'],
  ],
};

function fakeAccess(captureIds = ['lab_floor_2026_04_03_a', 'lab_floor_2026_04_03_b']): PacketAccess & { opened: Array<[string, string]>; filters: string[] } {
  const opened: Array<[string, string]> = [];
  const filters: string[] = [];
  return {
    captures: captureIds.map(captureInfo),
    opened,
    filters,
    readRows: async (captureId, filter) => {
      filters.push(filter);
      return ROWS[captureId] ?? [];
    },
    // The b capture holds more of every address, so a jump should land there.
    countRows: async (captureId) => (captureId === 'lab_floor_2026_04_03_b' ? 9 : 2),
    openCapture: (captureId, filter) => opened.push([captureId, filter]),
  };
}

function renderView(props: Partial<Parameters<typeof BleAnalysisView>[0]> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const access = fakeAccess();
  render(
    <QueryClientProvider client={client}>
      <BleAnalysisView output={output} selection={selection} access={access} {...props} />
    </QueryClientProvider>,
  );
  return access;
}

const table = () => screen.getByRole('table', { name: 'Address classification' });
const bodyRows = () => within(table()).getAllByRole('row').slice(1);

describe('BleAnalysisView', () => {
  it('shows every classified address, sortable and filterable, with the caveats beside them', () => {
    renderView();
    expect(screen.getByRole('complementary', { name: 'How to read these results' }).textContent).toMatch(/not proof/);
    expect(screen.getByTestId('ble.caveats').textContent).toMatch(/does not attribute/);
    expect(bodyRows()).toHaveLength(41);
    // Default order: most confident first.
    expect(bodyRows()[0].textContent).toContain('4E:91:B2:6A:77:03');

    fireEvent.click(within(table()).getByRole('button', { name: /Confidence/ }));
    expect(within(table()).getByRole('columnheader', { name: /Confidence/ }).getAttribute('aria-sort')).toBe('ascending');
    expect(bodyRows()[0].textContent).toContain('0.40');

    fireEvent.change(screen.getByTestId('ble.classification.filter'), { target: { value: '7a4c' } });
    expect(bodyRows()).toHaveLength(1);
    expect(bodyRows()[0].textContent).toContain('cluster_rpa_004');

    fireEvent.change(screen.getByTestId('ble.classification.filter'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('ble.classification.type'), { target: { value: 'nrpa' } });
    expect(bodyRows()).toHaveLength(8);
    expect(screen.getByTestId('ble.classification.count').textContent).toContain('8 of 41 addresses');
  });

  it('renders text from the result as text, never as markup', () => {
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <BleAnalysisView output={output} selection={selection} access={fakeAccess()} />
      </QueryClientProvider>,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText(/Seen <script>alert\(1\)<\/script> payload text/)).toBeTruthy();
    expect(screen.getByText('Weak RSSI continuity <b>not bold</b>')).toBeTruthy();
  });

  it('selecting a cluster highlights it in the table, the timeline and the matrix, and reads its RSSI per receiver', async () => {
    const access = renderView();
    const clusters = screen.getByRole('list', { name: 'Clusters' });
    fireEvent.click(within(clusters).getByRole('button', { name: /cluster_rpa_004/ }));
    const highlighted = bodyRows().filter((row) => row.className.includes('is-selected'));
    expect(highlighted.map((row) => row.getAttribute('data-address')).sort()).toEqual(['5F:09:2A:7E:CD:44', '61:D2:88:3C:A4:19', '7A:4C:21:9D:10:EF']);
    const lanes = screen.getAllByTestId('ble.timeline.lane');
    expect(lanes.filter((lane) => !lane.className.includes('is-dimmed'))).toHaveLength(3);
    expect(screen.getByRole('img', { name: /heatmap, cluster_rpa_004 \(3 addresses\)/ })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Pairwise probabilities of cluster_rpa_004' }).textContent).toContain('0.91');

    const receivers = await screen.findAllByTestId('ble.rssi.receiver');
    expect(receivers.map((figure) => figure.querySelector('figcaption')?.textContent)).toEqual(['Receiver rx-north-2: 2 packets', 'Receiver rx-south-1: 3 packets']);
    expect(access.filters[0]).toMatch(/^advertiser_addr IN \('7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19', '5F:09:2A:7E:CD:44'\) AND \("ts_ms" BETWEEN 1712131200000 AND 1712133000000\) AND \(channel IN/);
  });

  it('works the same with the generic selection the form and "Use in a tool" write: Packets enabled, RSSI read', async () => {
    const generic = selectionOf({
      capture_selection: { capture_id: 'lab_floor_2026_04_03_b', selectors: { time_range: { start_ms: 1712131200000, end_ms: 1712133000000 } } },
      arguments: { address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr' } },
    });
    const access = fakeAccess();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <BleAnalysisView output={output} selection={generic} access={access} />
      </QueryClientProvider>,
    );
    fireEvent.click(within(screen.getByRole('list', { name: 'Clusters' })).getByRole('button', { name: /cluster_rpa_004/ }));
    const receivers = await screen.findAllByTestId('ble.rssi.receiver');
    expect(receivers.map((figure) => figure.querySelector('figcaption')?.textContent)).toEqual(['Receiver rx-south-1: 3 packets']);
    expect(access.filters).toEqual([
      "advertiser_addr IN ('7A:4C:21:9D:10:EF', '61:D2:88:3C:A4:19', '5F:09:2A:7E:CD:44') AND (\"ts_ms\" BETWEEN 1712131200000 AND 1712133000000)",
    ]);
    const packets = screen.getAllByRole('button', { name: 'Packets of 61:D2:88:3C:A4:19' })[0] as HTMLButtonElement;
    expect(packets.disabled).toBe(false);
    fireEvent.click(packets);
    await waitFor(() => expect(access.opened).toEqual([['lab_floor_2026_04_03_b', "advertiser_addr = '61:D2:88:3C:A4:19' AND (\"ts_ms\" BETWEEN 1712131200000 AND 1712133000000)"]]));
  });

  it('hover and arrow keys read a cell: both addresses, the probability and the rationale', () => {
    renderView();
    fireEvent.click(within(screen.getByRole('list', { name: 'Clusters' })).getByRole('button', { name: /cluster_rpa_004/ }));
    const canvas = screen.getByTestId('ble.heatmap');
    expect(canvas.getAttribute('data-size')).toBe('3');
    const cell = Number(canvas.getAttribute('data-cell'));
    // happy-dom lays nothing out: the canvas sits at 0,0 with no CSS size, so pixels are client pixels.
    fireEvent.pointerMove(canvas, { clientX: cell * 2 + 1, clientY: 1 });
    let tooltip = screen.getByRole('tooltip');
    expect(tooltip.textContent).toContain('7A:4C:21:9D:10:EF × 5F:09:2A:7E:CD:44');
    expect(within(tooltip).getByTestId('ble.heatmap.probability').textContent).toContain('0.88');
    expect(tooltip.textContent).toContain('Matched GATT service UUID set across all three addresses');
    fireEvent.pointerLeave(canvas);
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.keyDown(canvas, { key: 'ArrowDown' });
    fireEvent.keyDown(canvas, { key: 'ArrowDown' });
    tooltip = screen.getByRole('tooltip');
    expect(tooltip.textContent).toContain('61:D2:88:3C:A4:19 × 61:D2:88:3C:A4:19');
    fireEvent.keyDown(canvas, { key: 'ArrowRight' });
    expect(within(screen.getByRole('tooltip')).getByTestId('ble.heatmap.probability').textContent).toContain('0.86');
  });

  it('the all-clusters matrix says when a pair is in different clusters', () => {
    renderView();
    const canvas = screen.getByTestId('ble.heatmap');
    expect(canvas.getAttribute('data-size')).toBe('9');
    const cell = Number(canvas.getAttribute('data-cell'));
    fireEvent.pointerMove(canvas, { clientX: cell * 8 + 1, clientY: 1 });
    expect(screen.getByRole('tooltip').textContent).toContain('Different clusters: no probability reported');
    // Clicking a cell inside a block selects that cluster.
    fireEvent.pointerMove(canvas, { clientX: cell * 4 + 1, clientY: cell * 3 + 1 });
    fireEvent.click(canvas);
    expect(within(screen.getByRole('list', { name: 'Clusters' })).getByRole('button', { name: /cluster_rpa_001/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('draws swimlanes coloured by cluster with hand-offs, and zooms and pans with buttons', () => {
    renderView();
    const timeline = screen.getByTestId('ble.timeline');
    expect(timeline.getAttribute('data-lane-count')).toBe('41');
    const handOffs = screen.getAllByTestId('ble.timeline.handoff');
    expect(handOffs).toHaveLength(5);
    expect(handOffs[0].getAttribute('aria-label')).toBe('Hand-off 7A:4C:21:9D:10:EF → 61:D2:88:3C:A4:19 (cluster_rpa_004), gap 3 s');
    expect(screen.getByTestId('ble.timeline.window').textContent).toContain('08:00:00 – 08:30:00 UTC');
    fireEvent.click(screen.getByTestId('ble.timeline.zoom-in'));
    expect(screen.getByTestId('ble.timeline.window').textContent).toContain('08:07:30 – 08:22:30 UTC');
    fireEvent.click(screen.getByRole('button', { name: 'Pan later' }));
    expect(screen.getByTestId('ble.timeline.window').textContent).toContain('08:11:15 – 08:26:15 UTC');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByTestId('ble.timeline.window').textContent).toContain('08:00:00 – 08:30:00 UTC');

    // The hand-off table is built when opened.
    expect(screen.queryByRole('table', { name: 'Hand-offs' })).toBeNull();
    const details = screen.getByText('Hand-offs (5)').closest('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    expect(within(screen.getByRole('table', { name: 'Hand-offs' })).getAllByRole('row')).toHaveLength(6);
  });

  it('keeps only the lanes in view (and a few either side) in the DOM, following the scroll', () => {
    renderView();
    const timeline = screen.getByTestId('ble.timeline');
    const positions = () => screen.getAllByTestId('ble.timeline.lane').map((lane) => Number(lane.getAttribute('aria-posinset')));
    // happy-dom lays nothing out: the box is taken to be its 440 px max-height, 18 lanes below the axis.
    expect(positions()[0]).toBe(1);
    expect(positions().length).toBeLessThan(41);
    expect(screen.getAllByTestId('ble.timeline.lane')[0].getAttribute('aria-setsize')).toBe('41');
    const labels = screen.getByRole('list', { name: 'Swimlanes' });
    expect(labels.style.paddingBottom).toBe(`${(41 - positions().length) * 24}px`);

    Object.defineProperty(timeline, 'scrollTop', { configurable: true, writable: true, value: 30 * 24 });
    fireEvent.scroll(timeline);
    expect(positions()[0]).toBe(31 - 8);
    expect(positions().at(-1)).toBe(41);
    expect(labels.style.paddingTop).toBe(`${22 * 24}px`);
    expect(labels.style.paddingBottom).toBe('0px');
    // Hand-offs join the first nine lanes (the clusters'), now out of the rendered range.
    expect(screen.queryAllByTestId('ble.timeline.handoff')).toHaveLength(0);

    // Selecting a cluster scrolls its lanes back into the box's view.
    fireEvent.click(within(screen.getByRole('list', { name: 'Clusters' })).getByRole('button', { name: /cluster_rpa_004/ }));
    expect(timeline.scrollTop).toBe(0);
  });

  it('"Packets" opens the capture holding most of the address’s packets, filtered on the address within what the analysis read', async () => {
    const access = renderView();
    const row = bodyRows().find((candidate) => candidate.getAttribute('data-address') === '61:D2:88:3C:A4:19')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Packets of 61:D2:88:3C:A4:19' }));
    await waitFor(() =>
      expect(access.opened).toEqual([['lab_floor_2026_04_03_b', "advertiser_addr = '61:D2:88:3C:A4:19' AND (\"ts_ms\" BETWEEN 1712131200000 AND 1712133000000) AND (channel IN (37,38,39) AND rssi > -92)"]]),
    );
  });

  it('says so when the captures are gone or the invocation is unknown, instead of failing', async () => {
    const access = fakeAccess(['lab_floor_2026_04_03_a']);
    const readRows = vi.spyOn(access, 'readRows');
    render(
      <QueryClientProvider client={new QueryClient()}>
        <BleAnalysisView output={output} selection={selection} access={access} />
      </QueryClientProvider>,
    );
    fireEvent.click(within(screen.getByRole('list', { name: 'Clusters' })).getByRole('button', { name: /cluster_rpa_004/ }));
    expect(screen.getByTestId('ble.rssi.missing').textContent).toContain('Capture lab_floor_2026_04_03_b is no longer available');
    await screen.findAllByTestId('ble.rssi.receiver');
    expect(readRows).toHaveBeenCalledTimes(1);
    cleanup();

    render(
      <QueryClientProvider client={new QueryClient()}>
        <BleAnalysisView output={output} selection={null} access={fakeAccess([])} />
      </QueryClientProvider>,
    );
    fireEvent.click(within(screen.getByRole('list', { name: 'Clusters' })).getByRole('button', { name: /cluster_rpa_004/ }));
    expect(screen.getByTestId('ble.rssi').textContent).toContain('its captures are unknown');
    expect((screen.getAllByRole('button', { name: /^Packets of / })[0] as HTMLButtonElement).disabled).toBe(true);
  });

  it('renders a 500-address analysis in one go', () => {
    const large = largeBleOutput({ linked: 500, standalone: 200 });
    const started = performance.now();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <BleAnalysisView output={large} selection={selection} access={fakeAccess()} />
      </QueryClientProvider>,
    );
    const elapsed = performance.now() - started;
    expect(screen.getByTestId('ble.heatmap').getAttribute('data-size')).toBe('500');
    expect(screen.getByTestId('ble.timeline').getAttribute('data-lane-count')).toBe('700');
    expect(screen.getAllByTestId('ble.timeline.lane').length).toBeLessThan(40);
    console.info(`500 linked + 200 standalone addresses rendered in ${elapsed.toFixed(0)} ms (happy-dom)`);
  });
});

describe('BleAnalysisView under a ProgressiveMount', () => {
  it('paints the counts first, then every section and every row in later turns (in StrictMode too)', async () => {
    const large = largeBleOutput({ linked: 120, standalone: 40 });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <StrictMode>
        <QueryClientProvider client={client}>
          <ProgressiveMount>
            <BleAnalysisView output={large} selection={selection} access={fakeAccess()} />
          </ProgressiveMount>
        </QueryClientProvider>
      </StrictMode>,
    );
    const view = screen.getByTestId('ble.view');
    expect(view.getAttribute('data-mount')).toBe('mounting');
    expect(within(view).getByText('Addresses')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Address classification' })).toBeNull();
    await waitFor(() => expect(view.getAttribute('data-mount')).toBe('complete'), { timeout: 120_000 });
    // The first page of rows (the footer's "show more" aside).
    expect(table().querySelectorAll('tbody tr')).toHaveLength(100);
    expect(screen.getAllByTestId('ble.cluster')).toHaveLength(large.probabilistic_links.length);
    expect(screen.getByTestId('ble.heatmap')).toBeTruthy();
    expect(screen.getAllByTestId('ble.timeline.lane').length).toBeGreaterThan(0);
  });
});
