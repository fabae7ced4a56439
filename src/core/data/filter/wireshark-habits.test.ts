import { Dictionary, Int32, Int8, Table, Uint16, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { columnSchemaOf } from '../columns.ts';
import { compileFilter } from './compile.ts';
import { likeMatches } from './like.ts';
import { parseFilter } from './parser.ts';
import { evaluateFilterReference } from './reference.ts';
import { renderFilter } from './render.ts';

const ROWS = [
  { advertiser_addr: '1E:BF:2D:60:14:65', adv_type: 'ADV_IND', company_id: 0x004c, rssi: -60, local_name: 'Pixel 8' },
  { advertiser_addr: '1E:BF:2D:00:00:01', adv_type: 'ADV_NONCONN_IND', company_id: 0x0006, rssi: -80, local_name: null },
  { advertiser_addr: 'C0:FF:EE:00:00:02', adv_type: 'SCAN_REQ', company_id: null, rssi: -90, local_name: 'pixel buds' },
  { advertiser_addr: '1E:BF:2D:60:14:65', adv_type: 'SCAN_RSP', company_id: 0x004c, rssi: -72, local_name: 'Pixel 8' },
  { advertiser_addr: null, adv_type: 'RESERVED_9', company_id: null, rssi: -99, local_name: null },
];

const TABLE = new Table({
  advertiser_addr: vectorFromArray(ROWS.map((row) => row.advertiser_addr), new Dictionary(new Utf8(), new Int32())),
  adv_type: vectorFromArray(ROWS.map((row) => row.adv_type), new Dictionary(new Utf8(), new Int32())),
  company_id: vectorFromArray(ROWS.map((row) => row.company_id), new Uint16()),
  rssi: vectorFromArray(ROWS.map((row) => row.rssi), new Int8()),
  local_name: vectorFromArray(ROWS.map((row) => row.local_name), new Utf8()),
});
const SCHEMA = columnSchemaOf(TABLE.schema.fields);

/** Row numbers (0-based) the filter keeps. */
function kept(expression: string): number[] {
  const compiled = compileFilter(expression, SCHEMA);
  if (!compiled.ok) throw new Error(`${expression}: ${compiled.error.message}`);
  const mask = compiled.value.evaluate(TABLE.batches[0]);
  return [...mask].flatMap((value, row) => (value ? [row] : []));
}

function problem(expression: string): string {
  const compiled = compileFilter(expression, SCHEMA);
  if (compiled.ok) throw new Error(`expected ${expression} to be rejected`);
  return compiled.error.message;
}

describe('filters with Wireshark habits', () => {
  it.each([
    ["advertiser_addr = '1e:bf:2d:60:14:65'", [0, 3]],
    ["advertiser_addr = '1E:BF:2D:60:14:65'", [0, 3]],
    ["advertiser_addr != '1e:bf:2d:60:14:65'", [1, 2]],
    ["advertiser_addr IN ('c0:ff:ee:00:00:02', '1e:bf:2d:00:00:01')", [1, 2]],
    ["advertiser_addr LIKE '1e:bf:2d%'", [0, 1, 3]],
    ["advertiser_addr NOT LIKE '1E:BF:2D:__:__:__'", [2]],
    ["advertiser_addr CONTAINS ':ee:'", [2]],
    ["local_name LIKE 'Pixel%'", [0, 3]],
    ["local_name CONTAINS 'pixel'", [2]],
    ['local_name contains "Pixel"', [0, 3]],
    ['btle.advertising_address == 1e:bf:2d:60:14:65', [0, 3]],
    ['btle.advertising_address contains 1e:bf:2d', [0, 1, 3]],
    ['btle.advertising_address == 1e:bf:2d:60:14:65 && nordic_ble.rssi > -70', [0]],
    ['btle.advertising_header.pdu_type == 0x00 || btle.advertising_header.pdu_type == 4', [0, 3]],
    ['btle.advertising_header.pdu_type in (2, 3)', [1, 2]],
    ['btcommon.eir_ad.entry.company_id == 0x004c', [0, 3]],
    ['!(btcommon.eir_ad.entry.company_id == 0x004C) and rssi >= -90', [1]],
    // Row 4's address is null: its LIKE is UNKNOWN, so only its rssi keeps it.
    ['not advertiser_addr like \'1E%\' or rssi < -95', [2, 4]],
  ])('%s', (expression, rows) => {
    expect(kept(expression)).toEqual(rows);
    // The reference evaluator (the oracle) agrees wherever no Wireshark name needs mapping.
    if (!/[.!&|]|0x|==/.test(expression)) {
      const parsed = parseFilter(expression);
      if (!parsed.ok) throw new Error(parsed.error.message);
      expect(ROWS.flatMap((row, index) => (evaluateFilterReference(parsed.value, row) ? [index] : []))).toEqual(rows);
      const again = parseFilter(renderFilter(parsed.value));
      expect(again.ok && renderFilter(again.value)).toBe(renderFilter(parsed.value));
    }
  });

  it('a Wireshark field Sextant does not know names the nearest columns', () => {
    expect(problem('btle.advertising_addres == 1e:bf:2d:60:14:65')).toMatch(/^Unknown column 'btle\.advertising_addres' \(a Wireshark field Sextant does not map\) at position 0; nearest: advertiser_addr, /);
    expect(problem('btcommon.eir_ad.entry.device_name_x contains "a"')).toMatch(/nearest: local_name/);
  });

  it('a field that means something else is answered with the Sextant way to say it', () => {
    expect(problem('btle_rf.channel == 0')).toBe(
      "Wireshark field 'btle_rf.channel' at position 0: btle_rf.channel counts RF channels (advertising: 0, 12, 39); Sextant's channel column holds the channel index: write channel IN (37, 38, 39)",
    );
    expect(problem('btle.advertising_header.pdu_type == 17')).toBe('PDU type 17 at position 36 is not a link-layer PDU type code (0–15)');
  });

  it('LIKE and CONTAINS match text only', () => {
    expect(problem("rssi LIKE '-6%'")).toBe("column rssi is number but LIKE matches text at position 0; compare numbers with =, <, BETWEEN or IN");
  });

  it('renders LIKE and CONTAINS back to text that parses to the same tree', () => {
    const parsed = parseFilter("a NOT LIKE 'x%' AND b CONTAINS 'it''s'");
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(renderFilter(parsed.value)).toBe("a NOT LIKE 'x%' AND b CONTAINS 'it''s'");
  });
});

describe('likeMatches', () => {
  it.each([
    ['abc', 'abc', true],
    ['abc', 'a%', true],
    ['abc', '%c', true],
    ['abc', '%b%', true],
    ['abc', 'a_c', true],
    ['abc', 'a_', false],
    ['', '%', true],
    ['', '_', false],
    ['aaab', '%a%b', true],
    ['ab', '%a%a%', false],
    ['a%c', 'a%c', true],
  ])('%s LIKE %s is %s', (value, pattern, expected) => {
    expect(likeMatches(value, pattern)).toBe(expected);
  });
});
