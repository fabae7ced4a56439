/**
 * The streaming BLE capture importer: feed it a pcap, pcapng or btsnoop file in chunks of any
 * size, then `finish()` for the normalized record table and the import report. It never
 * throws: whole-file failures come back as a coded problem, per-packet ones are counted in
 * the report. Memory is the table being built plus at most one frame of buffered input.
 */
import type { Table } from 'apache-arrow';
import { CAPTURE_METADATA } from '../capture.ts';
import { err, ok, type Result } from '../../util/result.ts';
import { BtsnoopReader, isBtsnoopMagic } from './btsnoop-reader.ts';
import { u16be, type ContainerReader, type FrameSink } from './container-reader.ts';
import { Tally, type DecodeContext } from './decode-context.ts';
import { decodeBtsnoopH1, decodeH4, decodeMonitor } from './hci.ts';
import { DIRECTION, IdentityKeyCollector } from './identity-keys.ts';
import type { BleContainer, CaptureImportProblem, ImportReport } from './import-report.ts';
import { importIntegrity } from './import-integrity.ts';
import { decodeLinkLayer, decodeLinkLayerWithPhdr, decodeNordicBle, decodePpi, unknownLinkMeta, type LinkMeta } from './link-layer.ts';
import { DECODER, LINKTYPE, type Decoder } from './link-types.ts';
import { isPcapMagic, PcapReader } from './pcap-reader.ts';
import { isPcapngMagic, PcapngReader } from './pcapng-reader.ts';
import { RecordWriter } from './record-writer.ts';

/** Schema metadata keys the importer adds besides CAPTURE_METADATA's. */
export const BLE_METADATA = {
  /** `ble-records/1`: the table follows docs/capture-schema.md. */
  format: 'sextant.format',
  container: 'sextant.container',
  /** JSON array of pcap LINKTYPE numbers. */
  linkTypes: 'sextant.link_types',
  /** Frames in the file. */
  packetCount: 'sextant.packet_count',
  advertisingPacketCount: 'sextant.advertising_packet_count',
  btsnoopDatalink: 'sextant.btsnoop_datalink',
  /** The whole ImportReport as JSON. */
  importReport: 'sextant.import_report',
} as const;

/** Value of `sextant.format` for tables this importer writes. */
export const BLE_RECORDS_FORMAT = 'ble-records/1';

/** What an import needs to know besides the bytes. */
export interface BleImportOptions {
  /** Id of the capture; becomes every row's `capture_id`. */
  captureId: string;
  /** File name, for messages and the `sextant.source` metadata. */
  fileName: string;
  /**
   * Receiver (sensor) name for every row. Default: the pcapng interface name (`if<N>` when
   * unnamed), `if0` for pcap, `hci<N>` for HCI logs.
   */
  receiver?: string;
  /** Called after each chunk with the total bytes consumed so far. */
  onProgress?: (bytesConsumed: number) => void;
  /**
   * Distinct values (addresses, payloads, names) the value dictionaries may hold before a
   * `drain` forgets them (default {@link DICTIONARY_ENTRY_LIMIT}): a streaming import's memory
   * then stays bounded however varied the traffic. A whole-file import never drains.
   */
  dictionaryEntryLimit?: number;
}

/** A finished import. */
export interface BleImport {
  table: Table;
  report: ImportReport;
}

/** The streaming importer: `push` chunks in file order, then `finish` once. */
export interface BleImporter {
  /** Feeds the next bytes of the file. Never throws; chunks after a fatal problem are ignored. */
  push(chunk: Uint8Array): void;
  /** Ends the file: the table and report, or the whole-file problem. */
  finish(): Result<BleImport, CaptureImportProblem>;
  /** Records decoded and not yet drained: a streaming caller drains when this is large enough. */
  readonly pendingRows: number;
  /**
   * The records decoded since the last drain, as a table, then forgotten, so that a file of any
   * size streams through bounded memory; null when none is pending or the import has failed.
   * Its schema metadata names the capture, source and columns (the report comes with `finish`,
   * whose table then holds only the records after the last drain).
   */
  drain(): Table | null;
  /** How often a drain forgot the value dictionaries (`dictionaryEntryLimit`). */
  readonly dictionaryResets: number;
}

/** The container format of a file from its first bytes (8 suffice), or null. */
export function detectBleContainer(firstBytes: Uint8Array): BleContainer | null {
  if (isPcapMagic(firstBytes)) return 'pcap';
  if (isPcapngMagic(firstBytes)) return 'pcapng';
  if (isBtsnoopMagic(firstBytes)) return 'btsnoop';
  return null;
}

const DETECT_BYTES = 8;
const BTSNOOP_MAGIC = 'btsnoop\0';

/** Starts an import. */
export function createBleImporter(options: BleImportOptions): BleImporter {
  return new Importer(options);
}

/** Imports a whole file held in memory (`createBleImporter` with one chunk). */
export function importBleCapture(bytes: Uint8Array, options: BleImportOptions): Result<BleImport, CaptureImportProblem> {
  const importer = createBleImporter(options);
  importer.push(bytes);
  return importer.finish();
}

class Importer implements BleImporter, FrameSink {
  private head = new Uint8Array(0);
  private reader: ContainerReader | null = null;
  private container: BleContainer | null = null;
  private problem: CaptureImportProblem | null = null;
  private finished = false;
  private bytesConsumed = 0;
  private frames = 0;
  private readonly linkTypes = new Set<number>();
  private readonly writer: RecordWriter;
  private readonly meta: LinkMeta = { channel: -1, rssi: Number.NaN, crcStatus: -1, coded: false };
  private readonly context: DecodeContext;
  private readonly monitorReceivers = new Map<number, number>();

  constructor(private readonly options: BleImportOptions) {
    this.writer = new RecordWriter(options.dictionaryEntryLimit);
    const skipped = new Tally();
    this.context = {
      writer: this.writer,
      nonAdvertising: new Tally(),
      skipped,
      identityKeys: new IdentityKeyCollector(skipped),
      tsMs: Number.NaN,
      receiver: 0,
      frame: 0,
    };
  }

  push(chunk: Uint8Array): void {
    if (this.finished || this.problem) return;
    try {
      this.bytesConsumed += chunk.length;
      if (this.reader) this.reader.push(chunk);
      else this.detect(chunk);
      this.options.onProgress?.(this.bytesConsumed);
    } catch (error) {
      this.problem = internalProblem(error);
    }
  }

  private detect(chunk: Uint8Array): void {
    const head = new Uint8Array(this.head.length + chunk.length);
    head.set(this.head);
    head.set(chunk, this.head.length);
    if (head.length < DETECT_BYTES) {
      this.head = head;
      return;
    }
    this.head = new Uint8Array(0);
    this.start(head);
  }

  /** Picks the reader for `head` (at least the detection bytes, or the whole short file). */
  private start(head: Uint8Array): void {
    this.container = detectBleContainer(head);
    const receiver = this.options.receiver;
    switch (this.container) {
      case 'pcap':
        this.reader = new PcapReader(this, receiver);
        break;
      case 'pcapng':
        this.reader = new PcapngReader(this, receiver);
        break;
      case 'btsnoop':
        this.reader = new BtsnoopReader(this, receiver);
        break;
      default:
        this.problem = {
          code: 'UNRECOGNIZED_FORMAT',
          message: `${this.options.fileName} is not a pcap, pcapng or btsnoop file (first bytes ${hexPrefix(head)})`,
        };
        return;
    }
    this.reader.push(head);
  }

  get pendingRows(): number {
    return this.writer.pendingRows;
  }

  get dictionaryResets(): number {
    return this.writer.dictionaryResetCount;
  }

  drain(): Table | null {
    if (this.problem || this.finished) return null;
    try {
      return this.writer.drain(this.options.captureId, this.baseMetadata());
    } catch (error) {
      this.problem = internalProblem(error);
      return null;
    }
  }

  /** The metadata every table of this import carries, before the report is known. */
  private baseMetadata(): Map<string, string> {
    return new Map<string, string>([
      [CAPTURE_METADATA.captureId, this.options.captureId],
      [CAPTURE_METADATA.source, this.options.fileName],
      [CAPTURE_METADATA.timeColumn, 'ts_ms'],
      [CAPTURE_METADATA.channelColumn, 'channel'],
      [BLE_METADATA.format, BLE_RECORDS_FORMAT],
    ]);
  }

  finish(): Result<BleImport, CaptureImportProblem> {
    if (this.finished) {
      return err({ code: 'IMPORT_FAILED', message: 'finish() was already called for this import' });
    }
    this.finished = true;
    try {
      return this.complete();
    } catch (error) {
      return err(internalProblem(error));
    }
  }

  private complete(): Result<BleImport, CaptureImportProblem> {
    const name = this.options.fileName;
    if (this.problem) return err(this.problem);
    if (!this.reader) {
      const head = this.head;
      if (head.length === 0) return err({ code: 'EMPTY_FILE', message: `${name} is empty` });
      if (head.length >= 4 && detectBleContainer(head) !== null) this.start(head);
      else if (BTSNOOP_MAGIC.startsWith(String.fromCharCode(...head))) {
        return err({ code: 'TRUNCATED_HEADER', message: `${name}: the file ends inside the btsnoop header` });
      } else {
        return err({ code: 'UNRECOGNIZED_FORMAT', message: `${name} is not a pcap, pcapng or btsnoop file (first bytes ${hexPrefix(head)})` });
      }
      if (this.problem) return err(this.problem);
    }
    const reader = this.reader;
    if (!reader || !this.container) return err({ code: 'IMPORT_FAILED', message: `${name}: no reader was started` });
    reader.finish();
    if (reader.fatal) return err({ ...reader.fatal, message: `${name}: ${reader.fatal.message}` });

    const stats = this.writer.stats();
    // Before `skipped` is read: key PDUs left unfinished at the end of the file count there.
    const identityKeys = this.context.identityKeys.keys();
    const skipped = this.context.skipped;
    const linkTypes = [...this.linkTypes].sort((a, b) => a - b);
    const bounds = stats.bounds ? { start_ms: Math.floor(stats.bounds.min), end_ms: Math.ceil(stats.bounds.max) } : null;
    const counts = {
      capture_id: this.options.captureId,
      source: name,
      container: this.container,
      rows: stats.records,
      bounds,
      link_types: linkTypes,
      btsnoop_datalink: reader instanceof BtsnoopReader ? reader.datalink : null,
      packets: this.frames,
      advertising_packets: stats.records,
      advertising_packets_crc_ok: stats.recordsCrcOk,
      advertisers: stats.advertisers,
      advertisers_crc_ok: stats.advertisersCrcOk,
      adv_type_counts: Object.fromEntries(stats.advTypeCounts),
      non_advertising: this.context.nonAdvertising.toObject(),
      skipped: skipped.toObject(),
      partial: skipped.total > 0 || reader.unparsedBytes > 0,
      unparsed_bytes: reader.unparsedBytes,
      receivers: stats.receivers,
      channels: stats.channels,
      identity_keys: identityKeys,
    };
    const report: ImportReport = { ...counts, integrity: importIntegrity({ ...counts, warnings: [] }) };
    const metadata = new Map<string, string>([
      [CAPTURE_METADATA.captureId, this.options.captureId],
      [CAPTURE_METADATA.source, name],
      [CAPTURE_METADATA.description, `${this.container} capture: ${report.packets} packets, ${report.rows} advertising records`],
      [CAPTURE_METADATA.timeColumn, 'ts_ms'],
      [CAPTURE_METADATA.channelColumn, 'channel'],
      [BLE_METADATA.format, BLE_RECORDS_FORMAT],
      [BLE_METADATA.container, this.container],
      [BLE_METADATA.linkTypes, JSON.stringify(linkTypes)],
      [BLE_METADATA.packetCount, String(report.packets)],
      [BLE_METADATA.advertisingPacketCount, String(report.advertising_packets)],
      // The table travels (Arrow files, workspace exports) where keys must not go unasked, so its
      // copy of the report says where keys were found but not what they are.
      [BLE_METADATA.importReport, JSON.stringify({ ...report, identity_keys: identityKeys.map(({ irk: _irk, ...rest }) => rest) })],
    ]);
    if (bounds) {
      metadata.set(CAPTURE_METADATA.declaredStartMs, String(bounds.start_ms));
      metadata.set(CAPTURE_METADATA.declaredEndMs, String(bounds.end_ms));
    }
    if (report.btsnoop_datalink !== null) metadata.set(BLE_METADATA.btsnoopDatalink, String(report.btsnoop_datalink));
    const table = this.writer.toTable(this.options.captureId, metadata);
    return ok({ table, report });
  }

  // FrameSink

  frame(decoder: Decoder | null, linkType: number, receiver: number, tsMs: number, bytes: Uint8Array, start: number, end: number, flags: number): void {
    const context = this.context;
    context.frame = ++this.frames;
    context.tsMs = tsMs;
    context.receiver = receiver;
    switch (decoder) {
      case DECODER.LE_LL:
        decodeLinkLayer(context, bytes, start, end, unknownLinkMeta(this.meta));
        return;
      case DECODER.LE_LL_WITH_PHDR:
        decodeLinkLayerWithPhdr(context, bytes, start, end, this.meta);
        return;
      case DECODER.NORDIC_BLE:
        decodeNordicBle(context, bytes, start, end, this.meta);
        return;
      case DECODER.PPI:
        decodePpi(context, bytes, start, end, this.meta);
        return;
      case DECODER.HCI_H4:
        // btsnoop H4 records say the direction in flags bit 0; plain pcap H4 (187) does not.
        decodeH4(context, bytes, start, end, linkType === LINKTYPE.BLUETOOTH_HCI_H4 ? DIRECTION.UNKNOWN : flags & 0x01);
        return;
      case DECODER.HCI_H4_WITH_PHDR:
        // A 4-byte big-endian direction pseudo-header (0 sent, 1 received) before the H4 packet.
        if (end - start < 4) context.skipped.add('short_pseudo_header');
        else decodeH4(context, bytes, start + 4, end, bytes[start + 3] & 0x01);
        return;
      case DECODER.LINUX_MONITOR:
        // `[adapter index 2][opcode 2]`, big-endian, before the HCI packet.
        if (end - start < 4) context.skipped.add('short_pseudo_header');
        else {
          context.receiver = this.monitorReceiver(u16be(bytes, start), receiver);
          decodeMonitor(context, u16be(bytes, start + 2), bytes, start + 4, end);
        }
        return;
      case DECODER.BTSNOOP_H1:
        decodeBtsnoopH1(context, bytes, start, end, flags);
        return;
      case DECODER.BTSNOOP_LINUX_MONITOR:
        decodeMonitor(context, flags & 0xffff, bytes, start, end);
        return;
      case null:
        context.skipped.add(`unsupported_link_type_${linkType}`);
        return;
      default:
        context.skipped.add(`unsupported_link_type_${linkType}`);
    }
  }

  private monitorReceiver(adapter: number, fallback: number): number {
    if (this.options.receiver !== undefined) return fallback;
    let receiver = this.monitorReceivers.get(adapter);
    if (receiver === undefined) {
      receiver = this.writer.receiverIndex(`hci${adapter}`);
      this.monitorReceivers.set(adapter, receiver);
    }
    return receiver;
  }

  skip(reason: string, isFrame: boolean): void {
    if (isFrame) this.frames++;
    this.context.skipped.add(reason);
  }

  linkType(linkType: number): void {
    this.linkTypes.add(linkType);
  }

  receiverIndex(name: string): number {
    return this.writer.receiverIndex(name);
  }
}

function internalProblem(error: unknown): CaptureImportProblem {
  return { code: 'IMPORT_FAILED', message: `internal error while importing: ${error instanceof Error ? error.message : String(error)}` };
}

function hexPrefix(bytes: Uint8Array): string {
  return [...bytes.subarray(0, 8)].map((value) => value.toString(16).padStart(2, '0')).join(' ');
}
