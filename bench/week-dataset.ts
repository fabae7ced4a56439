/**
 * A generated week of three sniffers as a dataset, for the analysis rows of `npm run bench --
 * scale`: what issue 25 asks the analysis to be measured on (a realistic mix, not one capture's
 * 300 fixed addresses replayed). The scenario generator renders consecutive 10-minute stretches
 * of the `companions` family with a wider population — iOS-like phones, multi-set Android-like
 * phones on their stacks' timers, laptops, tracker tags, wearables and earbuds carried along,
 * public and random-static beacons, NRPA broadcasters: 234 devices a stretch, ~980 packets a
 * second per sniffer (the issue's ~1,000; measured on 3 M rows). Each receiver is
 * one source of the dataset, a week-long file as a sniffer would write it: its stretches are
 * appended in time order with frame numbers running on. Devices are drawn afresh every stretch
 * (a new seed), so no device outlives ten minutes: rotation, hand-offs, multi-set phones and
 * carried companions happen within stretches, and the stitching joins nothing across them.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { makeVector, type Table } from 'apache-arrow';
import { commitSource, STAGING_DIR } from '../cli/dataset/dataset-store.ts';
import { StagedParts } from '../cli/dataset/stream-import.ts';
import { conformToDatasetSchema, generateBleScenario, type DatasetSource } from '../src/core/index.ts';

/** 2026-11-16T00:00:00Z, a Monday. */
const WEEK_START_MS = Date.UTC(2026, 10, 16);
const STRETCH_S = 600;
const POPULATION = { ios: 60, android: 60, windows: 12, tracker: 30, wearable: 24, public_beacon: 18, static_beacon: 18, nrpa_broadcaster: 12 };
const OBSERVATIONS_PER_S = 15;

export interface WeekDataset {
  rows: number;
  sources: number;
  stretches: number;
  span_s: number;
  description: string;
}

export async function writeWeekDataset(root: string, packets: number, seed = 20261128): Promise<WeekDataset> {
  const staged = new Map<string, { parts: StagedParts; frames: number }>();
  let rows = 0;
  let stretch = 0;
  for (; rows < packets; stretch++) {
    const generated = generateBleScenario({
      seed: seed + stretch,
      scenario: 'companions',
      layout: 'per_receiver',
      startMs: WEEK_START_MS + stretch * STRETCH_S * 1000,
      captureIdPrefix: 'week',
      overrides: { durationS: STRETCH_S, observationRatePerS: OBSERVATIONS_PER_S, population: POPULATION },
    });
    if (!generated.ok) throw new Error(generated.error.message);
    for (const capture of generated.value.captures) {
      const id = capture.info.id;
      let receiver = staged.get(id);
      if (!receiver) {
        receiver = { parts: new StagedParts(join(root, STAGING_DIR, `${process.pid}-${id}`), id, hashOf(`${seed}:${id}`).slice(0, 16)), frames: 0 };
        staged.set(id, receiver);
      }
      const kept = capture.table.slice(0, Math.min(capture.table.numRows, packets - rows));
      if (kept.numRows === 0) continue;
      const conformed = conformToDatasetSchema(withFramesFrom(kept, receiver.frames), id);
      if (!conformed.ok) throw new Error(`${conformed.error.code}: ${conformed.error.message}`);
      await receiver.parts.add(conformed.value.table);
      receiver.frames += kept.numRows;
      rows += kept.numRows;
    }
  }
  const description =
    `generated week: ${stretch} consecutive ${STRETCH_S / 60}-minute stretches of the companions family (seed ${seed}+n) with ` +
    `${Object.values(POPULATION).reduce((sum, count) => sum + count, 0)}+ devices each (phones, multi-set phones, laptops, trackers, wearables, carried companions, beacons), ` +
    `${OBSERVATIONS_PER_S} obs/s per device and receiver, 3 receivers as 3 week-long sources`;
  for (const [id, receiver] of staged) {
    const committed = await commitSource(root, {
      stagingDir: receiver.parts.stagingDir,
      source: {
        capture_id: id,
        file: `${id}.generated`,
        sha256: hashOf(`${seed}:${id}:${packets}`),
        bytes: 0,
        rows: receiver.parts.rows,
        bounds: boundsOf(receiver.parts.list),
        report: { generated: true, description },
        parts: receiver.parts.list,
      },
    });
    if (!committed.ok) throw new Error(`${committed.error.code}: ${committed.error.message}`);
  }
  return { rows, sources: staged.size, stretches: stretch, span_s: stretch * STRETCH_S, description };
}

/** The table with frame numbers counting on from `before` (each stretch's own start at 1). */
function withFramesFrom(table: Table, before: number): Table {
  const frames = Uint32Array.from({ length: table.numRows }, (_, row) => before + row + 1);
  return table.setChild('frame_number', makeVector(frames));
}

function boundsOf(parts: DatasetSource['parts']): DatasetSource['bounds'] {
  const starts = parts.flatMap((part) => (part.min_ts_ms === null ? [] : [part.min_ts_ms]));
  const ends = parts.flatMap((part) => (part.max_ts_ms === null ? [] : [part.max_ts_ms]));
  return starts.length === 0 ? null : { start_ms: Math.floor(Math.min(...starts)), end_ms: Math.ceil(Math.max(...ends)) };
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
