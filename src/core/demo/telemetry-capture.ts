import { Dictionary, Field, Float64, Int32, RecordBatch, Schema, Struct, Table, Utf8, makeData, vectorFromArray } from 'apache-arrow';
import { CAPTURE_METADATA } from '../data/capture.ts';
import { seededRandom } from './seeded-random.ts';

/** Id of the built-in telemetry capture the specification's examples select from. */
export const TELEMETRY_CAPTURE_ID = 'cap_2026_03_14_a';

/**
 * The known linear model behind `latency_ms` (tool-contract.md §4's example coefficients).
 * Noise is chosen so that R² on the example's selection is about 0.78, as in the example output.
 */
export const TELEMETRY_MODEL = {
  intercept: 2.17,
  snr: -0.09,
  jitter: 0.61,
  packet_loss: 1.44,
  noiseSd: 1.02,
} as const;

export const TELEMETRY_SEED = 20260314;
const SPAN_MS = 120_000;
const ROW_COUNT = SPAN_MS + 1; // one reading per millisecond, 0..120000 inclusive
const BATCH_ROWS = 16_384;
const CHANNELS = ['ch1', 'ch2', 'ch3', 'ch4'] as const;

/**
 * Generates the demo telemetry capture deterministically (docs/demo-data.md describes it):
 * - `ts_ms` 0..120000, one row per millisecond; `channel` uniform over ch1..ch4;
 * - `snr` ~ N(20, 4²) dB, `jitter` ~ |N(5, 2²)| ms, `packet_loss` ~ Exp(mean 1) %;
 * - `signal_quality` = 1 − U/6 with U uniform, so 30% of rows have quality ≥ 0.95 and the
 *   example's selection (ch1, ch2, quality ≥ 0.95) keeps about 120001 · ½ · 0.3 ≈ 18,000 rows;
 * - `latency_ms` = 2.17 − 0.09·snr + 0.61·jitter + 1.44·packet_loss + N(0, 1.02²).
 */
export function generateTelemetryCapture(seed = TELEMETRY_SEED): Table {
  const random = seededRandom(seed);
  const ts = new Float64Array(ROW_COUNT);
  const channel = new Int32Array(ROW_COUNT);
  const latency = new Float64Array(ROW_COUNT);
  const snr = new Float64Array(ROW_COUNT);
  const jitter = new Float64Array(ROW_COUNT);
  const packetLoss = new Float64Array(ROW_COUNT);
  const quality = new Float64Array(ROW_COUNT);
  for (let row = 0; row < ROW_COUNT; row++) {
    ts[row] = row;
    channel[row] = Math.min(CHANNELS.length - 1, Math.floor(random.uniform() * CHANNELS.length));
    snr[row] = 20 + 4 * random.normal();
    jitter[row] = Math.abs(5 + 2 * random.normal());
    packetLoss[row] = -Math.log(1 - random.uniform());
    quality[row] = 1 - random.uniform() / 6;
    latency[row] =
      TELEMETRY_MODEL.intercept +
      TELEMETRY_MODEL.snr * snr[row] +
      TELEMETRY_MODEL.jitter * jitter[row] +
      TELEMETRY_MODEL.packet_loss * packetLoss[row] +
      TELEMETRY_MODEL.noiseSd * random.normal();
  }

  const channelType = new Dictionary(new Utf8(), new Int32());
  const dictionary = vectorFromArray([...CHANNELS], new Utf8());
  const columns: Array<[string, Float64Array | Int32Array]> = [
    ['ts_ms', ts],
    ['channel', channel],
    ['latency_ms', latency],
    ['snr', snr],
    ['jitter', jitter],
    ['packet_loss', packetLoss],
    ['signal_quality', quality],
  ];
  const fields = columns.map(([name]) => (name === 'channel' ? new Field(name, channelType, false) : new Field(name, new Float64(), false)));
  const metadata = new Map<string, string>([
    [CAPTURE_METADATA.captureId, TELEMETRY_CAPTURE_ID],
    [CAPTURE_METADATA.description, 'Synthetic link telemetry from a known linear latency model (built-in demo)'],
    [CAPTURE_METADATA.source, 'built-in demo'],
    [CAPTURE_METADATA.timeColumn, 'ts_ms'],
    [CAPTURE_METADATA.channelColumn, 'channel'],
    [CAPTURE_METADATA.declaredStartMs, '0'],
    [CAPTURE_METADATA.declaredEndMs, String(SPAN_MS)],
    [CAPTURE_METADATA.timeOrigin, '2026-03-14T09:00:00Z'],
  ]);
  const schema = new Schema(fields, metadata);

  const batches: RecordBatch[] = [];
  for (let offset = 0; offset < ROW_COUNT; offset += BATCH_ROWS) {
    const end = Math.min(ROW_COUNT, offset + BATCH_ROWS);
    const length = end - offset;
    const children = columns.map(([name, values]) =>
      name === 'channel'
        ? makeData({ type: channelType, length, data: (values as Int32Array).subarray(offset, end), dictionary })
        : makeData({ type: new Float64(), length, data: (values as Float64Array).subarray(offset, end) }),
    );
    const data = makeData({ type: new Struct(fields), length, nullCount: 0, children });
    batches.push(new RecordBatch(schema, data));
  }
  return new Table(schema, batches);
}
