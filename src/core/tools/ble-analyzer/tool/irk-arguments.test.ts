/**
 * Malformed identity keys in `arguments.irks` (issue 11): every bad key is an INVALID_VALUE at
 * exactly `arguments.irks[i].irk`, whichever layer (schema or the tool's own check) finds it,
 * and nothing runs.
 */
import { describe, expect, it } from 'vitest';
import { bleExampleInvocation } from '../../../examples/spec-examples.ts';
import { testExecutor } from '../../../executor/test-support.ts';

const GOOD = '267483cba09b720412251bd6638d40b7';

function invocation(irks: unknown) {
  const value = structuredClone(bleExampleInvocation) as Record<string, unknown> & { arguments: Record<string, unknown> };
  value.arguments.irks = irks;
  return value;
}

describe('arguments.irks: malformed keys', () => {
  const malformed: Array<[string, string]> = [
    ['31 digits', GOOD.slice(1)],
    ['33 digits', `${GOOD}0`],
    ['not hex', `${GOOD.slice(0, 31)}g`],
    ["Wireshark's colon form", (GOOD.match(/../g) ?? []).join(':')],
    ['spaces', ` ${GOOD} `],
    ['empty', ''],
  ];
  for (const [what, irk] of malformed) {
    it(`${what}: INVALID_VALUE at arguments.irks[1].irk`, async () => {
      const { executor } = testExecutor();
      const record = await executor.execute(invocation([{ label: 'phone', irk: GOOD }, { label: 'bad', irk }]));
      expect(record.phase).toBe('validation');
      expect(record.result.status).toBe('error');
      expect(record.result.errors.map((error) => [error.code, error.field])).toEqual([['INVALID_VALUE', 'arguments.irks[1].irk']]);
    });
  }

  it('a good key in either case is accepted', async () => {
    const { executor } = testExecutor();
    const record = await executor.execute(invocation([{ label: 'phone', irk: GOOD.toUpperCase() }]));
    expect(['ok', 'partial']).toContain(record.result.status);
  });
});
