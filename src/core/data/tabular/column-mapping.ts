import { DataType, Field, Float64, Schema, Table, Utf8, type Data, type RecordBatch } from 'apache-arrow';
import { columnKindOf, numericColumn, type ColumnSchema } from '../columns.ts';
import { CAPTURE_METADATA } from '../capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import { float64Data, recordBatchOf, utf8Data } from './arrow-columns.ts';
import type { TabularImportProblem } from './tabular-report.ts';

/** Units a source time column can be in. */
export type TimeUnitName = 'ms' | 's' | 'us' | 'ns';

/** The normalized BLE address columns a mapping can fill. */
export const BLE_ADDRESS_COLUMNS = ['advertiser_addr', 'initiator_addr', 'scanner_addr'] as const;
export type BleAddressColumn = (typeof BLE_ADDRESS_COLUMNS)[number];

/**
 * Which source columns hold the normalized ones: each value is a column name of the source table.
 * Columns not named here pass through unchanged.
 */
export interface ColumnMapping {
  /** Becomes `ts_ms`: float64 milliseconds, epoch or relative, as the source is. */
  time?: string;
  /**
   * Unit of a numeric `time` column; default `ms`. Ignored for Arrow timestamp and date columns,
   * which carry their unit, and for date-time text (ISO 8601), which is read as epoch ms.
   */
  timeUnit?: TimeUnitName;
  /** Becomes `channel`, values unchanged. */
  channel?: string;
  /** Becomes `advertiser_addr` (AdvA): upper-case colon-separated, e.g. `C0:FF:EE:12:34:56`. */
  advertiser_addr?: string;
  /** Becomes `initiator_addr` (InitA or TargetA), normalized like `advertiser_addr`. */
  initiator_addr?: string;
  /** Becomes `scanner_addr` (ScanA), normalized like `advertiser_addr`. */
  scanner_addr?: string;
}

/** Schema metadata key holding the applied mapping as JSON ({@link AppliedColumnMapping}). */
export const COLUMN_MAPPING_METADATA = 'sextant.column_mapping';

/** What {@link applyColumnMapping} records under {@link COLUMN_MAPPING_METADATA}. */
export interface AppliedColumnMapping {
  /** Normalized column → source column it came from. */
  columns: Partial<Record<'ts_ms' | 'channel' | BleAddressColumn, string>>;
  /** Unit the time values were converted from: a {@link TimeUnitName}, `arrow` (typed column) or `text` (date-time strings). */
  timeUnit: TimeUnitName | 'arrow' | 'text' | null;
  /** Per normalized column, source values that could not be converted and became null. */
  invalidValues: Record<string, number>;
}

const TIME_FACTORS: Record<TimeUnitName, number> = { ms: 1, s: 1_000, us: 1e-3, ns: 1e-6 };
const ADDRESS_CACHE_SIZE = 65_536;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const ADDRESS = /^[0-9a-f]{2}(?:([:-]?)[0-9a-f]{2}(?:\1[0-9a-f]{2}){4})$/i;

/**
 * A BLE device address as the capture schema writes it, upper-case colon-separated
 * (`C0:FF:EE:12:34:56`), from colon-, dash- or un-separated hex in any case, or from a 48-bit
 * integer; null when the value is not an address.
 */
export function normalizeBleAddress(value: unknown): string | null {
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!ADDRESS.test(trimmed)) return null;
    const digits = trimmed.replace(/[:-]/g, '').toUpperCase();
    return digits.match(/../g)!.join(':');
  }
  if (typeof value === 'bigint') return value >= 0n && value < 1n << 48n ? normalizeBleAddress(value.toString(16).padStart(12, '0')) : null;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value < 2 ** 48 ? normalizeBleAddress(value.toString(16).padStart(12, '0')) : null;
  return null;
}

/**
 * True when the columns already carry the capture schema's names, so the file imports as a BLE
 * capture with no mapping step: a numeric `ts_ms` and a text `advertiser_addr`. (Values may still
 * need normalizing: pass {@link suggestColumnMapping}'s identity mapping to {@link applyColumnMapping}.)
 */
export function hasNormalizedBleColumns(columns: ReadonlyArray<ColumnSchema>): boolean {
  const kindOf = new Map(columns.map((column) => [column.name, column.kind]));
  return kindOf.get('ts_ms') === 'number' && kindOf.get('advertiser_addr') === 'string';
}

interface Candidate {
  /** Names compared lower-case with everything but letters and digits removed. */
  names: string[];
  kinds: ReadonlyArray<ColumnSchema['kind']>;
}

// Ordered by preference. tshark field names are there for `tshark -T fields` exports; the
// LINKTYPE 256 pseudo-header's `btle_rf.channel` is an RF channel, not a channel index, so it is
// deliberately not suggested.
const CANDIDATES: Record<'time' | 'channel' | BleAddressColumn, Candidate> = {
  time: {
    names: ['ts_ms', 'timestamp_ms', 'time_ms', 'ts', 'timestamp', 'time', 'ts_us', 'timestamp_us', 'time_us', 'ts_ns', 'timestamp_ns', 'time_ns', 'ts_s', 'time_s', 'epoch', 'frame.time_epoch', 'frame.time_relative', 'datetime', 'date_time'],
    kinds: ['number', 'string'],
  },
  channel: { names: ['channel', 'chan', 'ch', 'channel_index', 'adv_channel', 'nordic_ble.channel'], kinds: ['number', 'string'] },
  advertiser_addr: {
    names: ['advertiser_addr', 'adv_addr', 'adva', 'advertiser', 'advertiser_address', 'advertising_address', 'adv_address', 'btle.advertising_address', 'address', 'addr', 'mac', 'mac_address', 'bd_addr', 'bdaddr'],
    kinds: ['string', 'number'],
  },
  initiator_addr: {
    names: ['initiator_addr', 'init_addr', 'inita', 'initiator', 'initiator_address', 'targeta', 'target_addr', 'target_address', 'btle.initiator_address', 'btle.target_address'],
    kinds: ['string', 'number'],
  },
  scanner_addr: { names: ['scanner_addr', 'scan_addr', 'scana', 'scanner', 'scanner_address', 'scanning_address', 'btle.scanning_address'], kinds: ['string', 'number'] },
};

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Unit a time column's name suggests; `ms` when it says nothing. */
function unitFromName(name: string): TimeUnitName {
  const lower = name.toLowerCase();
  if (/(^|[^a-z])(us|usec|micros?|microseconds?)$/.test(lower)) return 'us';
  if (/(^|[^a-z])(ns|nsec|nanos?|nanoseconds?)$/.test(lower)) return 'ns';
  if (/(^|[^a-z])(s|sec|secs|seconds?)$/.test(lower) || lower === 'epoch' || lower.startsWith('frame.time_')) return 's';
  return 'ms';
}

/**
 * A first guess at the mapping from the column names, for the mapping step to show: exact
 * normalized names first, then common sniffer, tshark and spreadsheet spellings (`timestamp`,
 * `chan`, `adv_addr`, `btle.advertising_address`…), ignoring case and punctuation. Columns already
 * called `ts_ms`, `channel`… map to themselves. The time unit is guessed from the name (`_us`,
 * `_ns`, `_s`, `frame.time_epoch`), else `ms`.
 */
export function suggestColumnMapping(columns: ReadonlyArray<ColumnSchema>): ColumnMapping {
  const taken = new Set<string>();
  const pick = (target: keyof typeof CANDIDATES): string | undefined => {
    const { names, kinds } = CANDIDATES[target];
    for (const candidate of names) {
      const wanted = squash(candidate);
      const match = columns.find((column) => !taken.has(column.name) && kinds.includes(column.kind) && squash(column.name) === wanted);
      if (match) {
        taken.add(match.name);
        return match.name;
      }
    }
    return undefined;
  };
  const mapping: ColumnMapping = {};
  // Exact normalized names are claimed first, so `address` cannot steal a column that is already named.
  for (const target of ['time', 'channel', ...BLE_ADDRESS_COLUMNS] as const) {
    const exact = target === 'time' ? 'ts_ms' : target;
    const column = columns.find((candidate) => candidate.name === exact && CANDIDATES[target].kinds.includes(candidate.kind));
    if (column) {
      taken.add(column.name);
      mapping[target] = column.name;
    }
  }
  for (const target of ['time', 'channel', ...BLE_ADDRESS_COLUMNS] as const) {
    if (mapping[target] !== undefined) continue;
    const column = pick(target);
    if (column !== undefined) mapping[target] = column;
  }
  if (mapping.time !== undefined) {
    const kind = columns.find((column) => column.name === mapping.time)?.kind;
    mapping.timeUnit = kind === 'number' ? unitFromName(mapping.time) : 'ms';
  }
  return mapping;
}

/**
 * Renames and converts columns so the table carries the capture schema's names: `time` → `ts_ms`
 * (float64 ms; numbers scaled from `timeUnit`, Arrow timestamps and dates as they are, date-time
 * text parsed as epoch ms), `channel` → `channel` (values unchanged), and the address columns →
 * upper-case colon-separated text. A renamed column takes its source's place; one source can feed
 * several targets. Values that do not convert become null and are counted in the metadata. Records
 * the mapping under `sextant.column_mapping` and sets `sextant.time_column` (and
 * `sextant.channel_column` when mapped). Fails, without throwing, when a named column is missing,
 * when the time column holds no convertible value, or when a target name is already used by
 * another column.
 */
export function applyColumnMapping(table: Table, mapping: ColumnMapping): Result<Table, TabularImportProblem> {
  const targets: Array<['ts_ms' | 'channel' | BleAddressColumn, string]> = [];
  if (mapping.time !== undefined) targets.push(['ts_ms', mapping.time]);
  if (mapping.channel !== undefined) targets.push(['channel', mapping.channel]);
  for (const target of BLE_ADDRESS_COLUMNS) {
    const source = mapping[target];
    if (source !== undefined) targets.push([target, source]);
  }
  const fields = table.schema.fields;
  const fieldIndex = new Map(fields.map((field, index) => [field.name, index]));
  for (const [target, source] of targets) {
    if (!fieldIndex.has(source)) {
      return err({ code: 'UNKNOWN_COLUMN', column: source, message: `Column '${source}' (for ${target}) is not in the table; columns: ${fields.map((field) => field.name).join(', ')}` });
    }
  }
  const sources = new Set(targets.map(([, source]) => source));
  for (const [target, source] of targets) {
    if (fieldIndex.has(target) && target !== source && !sources.has(target)) {
      return err({ code: 'COLUMN_CONFLICT', column: target, message: `Column '${source}' cannot become '${target}': the table already has a column '${target}'` });
    }
  }

  const applied: AppliedColumnMapping = { columns: Object.fromEntries(targets), timeUnit: null, invalidValues: {} };
  const converters = new Map<string, (batch: RecordBatch) => Data<DataType>>();
  let timeFound = 0;
  for (const [target, source] of targets) {
    const type = fields[fieldIndex.get(source)!].type;
    if (target === 'channel') continue;
    if (target === 'ts_ms') {
      const time = timeConverter(type, mapping.timeUnit ?? 'ms');
      if (time === null) return err({ code: 'NON_NUMERIC_TIME_COLUMN', column: source, message: `Time column '${source}' is ${String(type)}, not numbers or date-time text` });
      applied.timeUnit = time.unit;
      converters.set(target, (batch) => {
        if (time.factor !== null) {
          // Numbers and Arrow times: one typed-array read (nulls as NaN), then scale.
          const numbers = numericColumn(batch, source);
          const factor = time.factor;
          timeFound += batch.numRows;
          return float64Data(batch.numRows, (row) => numbers[row] * factor);
        }
        const vector = batch.getChildAt(fieldIndex.get(source)!)!;
        return float64Data(batch.numRows, (row) => {
          const value: unknown = vector.get(row);
          if (value === null || value === undefined) return null;
          const converted = time.convertText(String(value));
          if (converted === null) applied.invalidValues.ts_ms = (applied.invalidValues.ts_ms ?? 0) + 1;
          else timeFound++;
          return converted;
        });
      });
      continue;
    }
    const kind = columnKindOf(type);
    if (kind === 'boolean') {
      return err({ code: 'UNSUPPORTED_ADDRESS_COLUMN', column: source, message: `Address column '${source}' is boolean; addresses are text like C0:FF:EE:12:34:56` });
    }
    // Captures repeat a few addresses many times: normalize each distinct value once.
    const cache = new Map<unknown, string | null>();
    converters.set(target, (batch) => {
      const vector = batch.getChildAt(fieldIndex.get(source)!)!;
      return utf8Data(batch.numRows, (row) => {
        const value: unknown = vector.get(row);
        if (value === null || value === undefined) return null;
        let address = cache.get(value);
        if (address === undefined) {
          if (cache.size >= ADDRESS_CACHE_SIZE) cache.clear();
          address = normalizeBleAddress(value);
          cache.set(value, address);
        }
        if (address === null) applied.invalidValues[target] = (applied.invalidValues[target] ?? 0) + 1;
        return address;
      });
    });
  }

  // Output columns: each source in place, replaced by its first target and followed by the others.
  type Slot = { field: Field; data: (batch: RecordBatch) => Data<DataType> };
  const slots: Slot[] = [];
  const targetsBySource = new Map<string, Array<'ts_ms' | 'channel' | BleAddressColumn>>();
  for (const [target, source] of targets) targetsBySource.set(source, [...(targetsBySource.get(source) ?? []), target]);
  fields.forEach((field, index) => {
    const mapped = targetsBySource.get(field.name);
    if (!mapped) {
      slots.push({ field, data: (batch) => batch.getChildAt(index)!.data[0] });
      return;
    }
    for (const target of mapped) {
      const convert = converters.get(target);
      if (convert) {
        slots.push({ field: new Field(target, target === 'ts_ms' ? new Float64() : new Utf8(), true), data: convert });
      } else {
        // channel: the source column, renamed.
        slots.push({ field: new Field(target, field.type, field.nullable, field.metadata), data: (batch) => batch.getChildAt(index)!.data[0] });
      }
    }
  });

  const metadata = new Map(table.schema.metadata);
  if (mapping.time !== undefined) metadata.set(CAPTURE_METADATA.timeColumn, 'ts_ms');
  if (mapping.channel !== undefined) metadata.set(CAPTURE_METADATA.channelColumn, 'channel');
  const schema = new Schema(slots.map((slot) => slot.field), metadata, table.schema.dictionaries);
  const batches = table.batches.map((batch) =>
    recordBatchOf(
      schema,
      batch.numRows,
      slots.map((slot) => slot.data(batch)),
    ),
  );
  if (mapping.time !== undefined && timeFound === 0 && (applied.invalidValues.ts_ms ?? 0) > 0) {
    return err({ code: 'NON_NUMERIC_TIME_COLUMN', column: mapping.time, message: `No value of time column '${mapping.time}' reads as a time` });
  }
  schema.metadata.set(COLUMN_MAPPING_METADATA, JSON.stringify(applied));
  return ok(new Table(schema, batches));
}

/**
 * How time values of a column of `type` become milliseconds: numeric columns by a factor, text by
 * {@link TimeConverter.convertText}; null when they cannot.
 */
interface TimeConverter {
  unit: AppliedColumnMapping['timeUnit'];
  /** Multiplier for numeric columns; null for text columns. */
  factor: number | null;
  convertText: (text: string) => number | null;
}

function timeConverter(type: DataType, unit: TimeUnitName): TimeConverter | null {
  const factor = TIME_FACTORS[unit];
  const convertText = (value: string): number | null => {
    const text = value.trim();
    if (NUMBER.test(text)) return Number(text) * factor;
    const parsed = Date.parse(text);
    return Number.isNaN(parsed) ? null : parsed;
  };
  // Arrow JS reads timestamps and dates as epoch milliseconds whatever their stored unit.
  if (DataType.isTimestamp(type) || DataType.isDate(type)) return { unit: 'arrow', factor: 1, convertText };
  const kind = columnKindOf(type);
  if (kind === 'number') return { unit, factor, convertText };
  if (kind === 'string') return { unit: 'text', factor: null, convertText };
  return null;
}
