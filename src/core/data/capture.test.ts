import { Schema, Table, tableFromArrays } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { CAPTURE_METADATA, describeCapture } from './capture.ts';

function withMetadata(entries: Array<[string, string]>): Table {
  const table = tableFromArrays({ ts_ms: Float64Array.from([0, 10]) });
  return new Table(new Schema(table.schema.fields, new Map([[CAPTURE_METADATA.captureId, 'c1'], ...entries])), table.batches);
}

describe('describeCapture: the source file fingerprint', () => {
  it('reads the SHA-256 and size recorded at import', () => {
    const described = describeCapture(withMetadata([[CAPTURE_METADATA.sourceSha256, 'ab'.repeat(32)], [CAPTURE_METADATA.sourceBytes, '4096']]));
    expect(described.ok && described.value).toMatchObject({ sourceSha256: 'ab'.repeat(32), sourceBytes: 4096 });
  });

  it('leaves them out when not recorded or malformed', () => {
    const none = describeCapture(withMetadata([]));
    expect(none.ok && 'sourceSha256' in none.value).toBe(false);
    const bad = describeCapture(withMetadata([[CAPTURE_METADATA.sourceSha256, 'XYZ'], [CAPTURE_METADATA.sourceBytes, '-1']]));
    expect(bad.ok && [bad.value.sourceSha256, bad.value.sourceBytes]).toEqual([undefined, undefined]);
  });
});
