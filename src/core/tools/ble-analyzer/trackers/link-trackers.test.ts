import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { JsonObject } from '../../../util/json.ts';
import { ADV_TYPE } from '../../../data/ble/adv-types.ts';
import { RecordWriter } from '../../../data/ble/record-writer.ts';
import { analyzeBle } from '../analyze.ts';
import type { BleAnalysis, TravelledTogether } from '../shared/analysis-types.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import { markTrackerRelations } from './tracker-findings.ts';
import { bleAnalysisOptions, selectAllRows } from '../shared/test-support.ts';
import { runBleAnalyzer } from '../tool/ble-tool.ts';
import { readTrackerPayload, type BleTrackerReading } from './tracker-payloads.ts';
import { findMyPayload, fmdnPayload, smartTagPayload, tagPairScore, trackerFixture, type TrackerFixture } from './tracker-fixtures.ts';

/** The addresses of one hand-off chain, by address. */
function chainOf(analysis: BleAnalysis): Map<string, string[]> {
  const chains = new Map<string, string[]>();
  for (const cluster of analysis.clusters) for (const chain of cluster.chains ?? [cluster.addresses]) for (const address of chain) chains.set(address, chain);
  return chains;
}

function analyze(fixture: TrackerFixture, overrides: Parameters<typeof bleAnalysisOptions>[0] = {}): BleAnalysis {
  return analyzeBle(selectAllRows('trackers', fixture.table), bleAnalysisOptions(overrides));
}

describe('tracker linkage', () => {
  // Seeds 1–3 are the reporting seeds (the model was tuned on 101–106).
  const dense = trackerFixture({ seed: 1 });
  const denseAnalysis = analyze(dense, { includeCandidates: true });

  it('links every Find My daily swap, with the status byte and the swap gap in its rationale', () => {
    const chains = chainOf(denseAnalysis);
    expect(dense.findMySwaps).toHaveLength(12);
    for (const [before, after] of dense.findMySwaps) {
      expect(chains.get(before)).toContain(after);
      const candidate = denseAnalysis.candidates.find((pair) => pair.earlier === before && pair.later === after);
      expect(candidate?.probability).toBeGreaterThan(0.9);
      expect(candidate?.factors.join(' ')).toMatch(/tracker_rotation: Find My-style tag on both: separated mode \(one address a day\), status byte 0x[0-9a-f]{2} carried over/);
    }
    const tagCluster = denseAnalysis.clusters.find((cluster) => cluster.addresses.includes(dense.findMySwaps[0][0]));
    expect(tagCluster?.rationale.some((line) => /^tracker_rotation: Find My-style tag linked across 1 daily rotation: /.test(line))).toBe(true);
  });

  it('follows every tag through its rotations in hand-off chains that hold no other device (F1 on tag pairs, chain level)', () => {
    const score = tagPairScore(denseAnalysis, dense, 'chain');
    expect(score.truePairs).toBeGreaterThan(300);
    expect(score.precision).toBe(1);
    expect(score.f1).toBeGreaterThanOrEqual(0.95);
    // No hand-off chain mixes a tag with a phone or with another tag.
    for (const chain of chainOf(denseAnalysis).values()) {
      const devices = new Set(chain.map((address) => dense.deviceOf.get(address)));
      if ([...devices].some((device) => device !== undefined && dense.tags.has(device))) expect(devices.size).toBe(1);
    }
  });

  it('marks the tags on their classification rows, and only them', () => {
    for (const row of denseAnalysis.classification) {
      const device = dense.deviceOf.get(row.address) ?? '';
      const expected = device.startsWith('findmy') ? 'find_my' : device.startsWith('fmdn') ? 'fmdn' : device.startsWith('smarttag') ? 'smarttag' : undefined;
      expect(row.trackerKind).toBe(expected);
      if (expected) expect(row.evidence.at(-1)).toMatch(/tracker payload/);
    }
    expect(denseAnalysis.warnings.map((warning) => warning.code)).not.toContain('TRACKER_PAYLOAD_MALFORMED');
  });

  it('links SmartTag-style tags across quarter-hour scan gaps by their aging counter', () => {
    const sparse = trackerFixture({ seed: 2, durationS: 4 * 3600, findMy: 0, fmdn: 0, smarttag: 8, phones: 6, scan: { onS: 30, everyS: 900 }, loss: 0.1 });
    const analysis = analyze(sparse, { minObservationCount: 10 });
    const score = tagPairScore(analysis, sparse, 'chain');
    expect(score.precision).toBe(1);
    expect(score.f1).toBeGreaterThanOrEqual(0.95);
    const line = analysis.clusters.flatMap((cluster) => cluster.rationale).find((text) => text.startsWith('tracker_rotation: SmartTag-style tag'));
    expect(line).toMatch(/aging counter \d+ → \d+: 1 step/);
  });

  it('puts tracker_kind on the tool output rows and on the clusters of one tag', () => {
    const fixture = trackerFixture({ seed: 3, durationS: 1800, findMy: 2, fmdn: 1, smarttag: 1, phones: 0 });
    const args: JsonObject = {
      capture_selection: { capture_ids: ['trackers'], time_window: { start_ms: 0, end_ms: 1_800_000 } },
      address_columns: { advertiser_addr: 'advertiser_addr', initiator_addr: 'initiator_addr' },
      analysis_mode: 'both',
      linkage_window_s: 180,
      min_observation_count: 25,
      rpa_rotation_model: 'spec_default',
    };
    const outcome = runBleAnalyzer(args, { selection: selectAllRows('trackers', fixture.table), reportProgress: () => undefined });
    if (outcome.status === 'error') throw new Error(JSON.stringify(outcome.errors));
    const output = outcome.structured_output as unknown as { address_classification: Array<{ address: string; tracker_kind?: string }>; probabilistic_links: Array<{ addresses: string[]; tracker_kind?: string; rationale: string[] }> };
    const kinds = new Set(output.address_classification.map((row) => row.tracker_kind));
    expect(kinds).toEqual(new Set(['find_my', 'fmdn', 'smarttag']));
    for (const cluster of output.probabilistic_links) {
      expect(cluster.tracker_kind).toBeDefined();
      expect(cluster.rationale[0]).toMatch(/^tracker_rotation: /);
    }
    expect(output.probabilistic_links.some((cluster) => cluster.tracker_kind === 'fmdn' && /1024 s rotation/.test(cluster.rationale[0]))).toBe(true);
  });

  it('gives the same result for the same capture', () => {
    const again = analyze(dense, { includeCandidates: true });
    expect(again.clusters).toEqual(denseAnalysis.clusters);
    expect(again.candidates).toEqual(denseAnalysis.candidates);
  });
});

describe('tracker payloads that do not hold their format', () => {
  /** A capture of a few advertisers, each with its own AD bytes, 60 packets each. */
  function capture(payloads: ReadonlyArray<Uint8Array>): ReturnType<typeof selectAllRows> {
    const writer = new RecordWriter();
    const receiver = writer.receiverIndex('rx-1');
    let frame = 0;
    for (let packet = 0; packet < 60; packet++) {
      payloads.forEach((ad, index) => {
        writer.begin(packet * 1000 + index, receiver, ++frame);
        writer.setRssi(-60);
        writer.setCrcOk(true);
        writer.setAdvType(ADV_TYPE.ADV_NONCONN_IND, true);
        writer.setTxAdd(1);
        writer.setAdvertiser(Uint8Array.from([index & 0xff, index >> 8, 0x10, 0x20, 0x30, 0x70]), 0, 1);
        writer.setAdData(ad, 0, ad.length);
        writer.end();
      });
    }
    return selectAllRows('malformed', writer.toTable('malformed', new Map()));
  }

  it('reads a truncated or malformed tracker payload as unknown, counts it, and never throws', () => {
    const valid = [findMyPayload(Array.from({ length: 28 }, (_, index) => index), 0x10), fmdnPayload(new Array(20).fill(7), 1), smartTagPayload(0x12, 500, new Array(8).fill(3))];
    // Well-formed AD structures whose tracker content is cut short anywhere, or its length byte changed.
    const damaged = fc.record({
      which: fc.integer({ min: 0, max: 2 }),
      keep: fc.integer({ min: 1, max: 29 }),
      lengthByte: fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }),
    });
    const hex = (bytes: ReadonlyArray<number>) => bytes.map((value) => value.toString(16).padStart(2, '0')).join('');
    fc.assert(
      fc.property(fc.array(damaged, { minLength: 1, maxLength: 5 }), (cases) => {
        const expected: BleTrackerReading[] = [];
        const payloads = cases.map(({ which, keep, lengthByte }) => {
          const bytes = Array.from(valid[which]);
          // The last AD structure holds the tracker fields: cut its value to `keep` bytes (after its type).
          const start = which === 0 ? 0 : 3;
          const value = bytes.slice(start + 2, start + 2 + Math.min(keep, bytes.length - start - 2));
          if (which === 0 && lengthByte !== undefined && value.length > 3) value[3] = lengthByte;
          // What the format reader makes of it: company id or UUID first, then the bytes after them.
          const fields =
            value.length < 2
              ? undefined
              : which === 0
                ? { companyId: 0x004c, manufacturerData: hex(value.slice(2)), serviceDataUuid: '' }
                : { companyId: Number.NaN, manufacturerData: '', serviceDataUuid: which === 1 ? 'FEAA' : 'FD5A', serviceData: hex(value.slice(2)) };
          expected.push(fields ? readTrackerPayload(fields) : { kind: 'none' });
          return Uint8Array.from([...bytes.slice(0, start), value.length + 1, bytes[start + 1], ...value]);
        });
        const analysis = analyzeBle(capture(payloads), bleAnalysisOptions());
        const malformed = new Set(payloads.filter((_, index) => expected[index].kind === 'malformed').map((ad) => Array.from(ad).join(','))).size;
        const warning = analysis.warnings.find((item) => item.code === 'TRACKER_PAYLOAD_MALFORMED');
        expect(warning ? Number(/^(\d+) distinct/.exec(warning.message)?.[1]) : 0).toBe(malformed);
        // One address per payload: recognized exactly when its payload still holds its format.
        const recognized = expected.filter((reading) => reading.kind !== 'none' && reading.kind !== 'malformed').length;
        expect(analysis.classification.filter((row) => row.trackerKind).length).toBe(recognized);
      }),
      { numRuns: 40, seed: 22 },
    );
  });

  it('counts each distinct malformed payload once, with the warning code and the count', () => {
    const truncatedFindMy = Uint8Array.from([0x0a, 0xff, 0x4c, 0x00, 0x12, 0x19, 0x10, 1, 2, 3, 4, 5]);
    const shortFmdn = Uint8Array.from([0x02, 0x01, 0x06, 0x13, 0x16, 0xaa, 0xfe, 0x41, ...new Array(16).fill(9)]);
    const shortSmartTag = Uint8Array.from([0x02, 0x01, 0x06, 0x08, 0x16, 0x5a, 0xfd, 0x12, 1, 2, 3, 4]);
    const analysis = analyzeBle(capture([truncatedFindMy, shortFmdn, shortSmartTag, shortFmdn]), bleAnalysisOptions());
    const warning = analysis.warnings.find((item) => item.code === 'TRACKER_PAYLOAD_MALFORMED');
    expect(warning?.message).toMatch(/^3 distinct payloads claim a tracker format \(Find My, FMDN or SmartTag\) but are truncated or malformed: read as unknown payloads$/);
    expect(analysis.classification.every((row) => row.trackerKind === undefined)).toBe(true);
  });
});

describe('markTrackerRelations', () => {
  it('names the tag side of a travelled-together relation, and nothing else', () => {
    const tag = (address: string, tracker?: 'find_my' | 'fmdn' | 'smarttag') => ({ address, tracker }) as unknown as BleLinkableAddress;
    const linkable = [tag('T1', 'find_my'), tag('T2', 'find_my'), tag('S1', 'smarttag'), tag('P1'), tag('P2')];
    const relation = (a: string[], b: string[]): TravelledTogether => ({ a, b, probability: 0.9, fromMs: 0, toMs: 1, rationale: [] }) as unknown as TravelledTogether;
    const relations = [relation(['P1', 'P2'], ['T1', 'T2']), relation(['S1'], ['P1']), relation(['P1'], ['P2']), relation(['T1', 'S1'], ['P2'])];
    markTrackerRelations(relations, linkable);
    expect(relations.map((item) => item.trackerKind)).toEqual(['find_my', 'smarttag', undefined, undefined]);
  });
});
