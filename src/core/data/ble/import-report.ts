/** What an import returns besides the table: the report, and the whole-file problems. */
import type { IdentityKey } from './identity-keys.ts';
import type { ImportIntegrity } from './import-integrity.ts';

/** A whole-file failure: nothing was imported. */
export type CaptureImportProblem =
  | {
      /** The file has no bytes. */
      code: 'EMPTY_FILE';
      message: string;
    }
  | {
      /** The first bytes are not a pcap, pcapng or btsnoop magic number. */
      code: 'UNRECOGNIZED_FORMAT';
      message: string;
    }
  | {
      /** The file ends inside its file or section header. */
      code: 'TRUNCATED_HEADER';
      message: string;
    }
  | {
      /** A header the importer cannot trust (bad byte-order magic, impossible block length). */
      code: 'CORRUPT_HEADER';
      message: string;
    }
  | {
      /** A container version the importer does not read (pcapng major ≠ 1, btsnoop ≠ 1). */
      code: 'UNSUPPORTED_VERSION';
      message: string;
    }
  | {
      /** No interface of the file has a link type the importer decodes. */
      code: 'UNSUPPORTED_LINK_TYPE';
      message: string;
      /** The file's link types: pcap LINKTYPE numbers, or btsnoop datalink numbers. */
      link_types: number[];
    }
  | {
      /** An unexpected failure inside the importer (a bug); reported instead of thrown. */
      code: 'IMPORT_FAILED';
      message: string;
    };

/** The closed set of whole-file problem codes. */
export type CaptureImportProblemCode = CaptureImportProblem['code'];

/** Container formats the importer reads. */
export type BleContainer = 'pcap' | 'pcapng' | 'btsnoop';

/**
 * The import report (`sextant import` prints it). Counts are of frames in the file unless
 * they say records; a record is one advertising PDU or one HCI advertising report.
 */
export interface ImportReport {
  capture_id: string;
  /** The file name the import was given. */
  source: string;
  container: BleContainer;
  /** Records in the table. */
  rows: number;
  /** Smallest and largest `ts_ms` of the records (epoch ms, exact); null without timed records. */
  bounds: { start_ms: number; end_ms: number } | null;
  /**
   * pcap LINKTYPE numbers of the file's interfaces, sorted. btsnoop files list the LINKTYPE
   * Wireshark maps their datalink to: 201 for H1/H4 (1001/1002), 254 for Linux monitor (2001).
   */
  link_types: number[];
  /** btsnoop datalink number, or null for pcap/pcapng. */
  btsnoop_datalink: number | null;
  /** Every frame in the file, whatever it holds. */
  packets: number;
  /** Advertising-channel PDUs (LL) or advertising reports (HCI) — equal to `rows`. */
  advertising_packets: number;
  /** Of those, the ones whose CRC is good or unknown (HCI controllers deliver only good ones). */
  advertising_packets_crc_ok: number;
  /**
   * Distinct AdvA values of advertiser-sent PDUs (ADV_*, SCAN_RSP, AUX_*; not the AdvA that
   * SCAN_REQ and CONNECT_IND address), or of HCI advertising reports.
   */
  advertisers: number;
  /** The same, counting only records whose CRC is not known to be bad. */
  advertisers_crc_ok: number;
  /** Records per `adv_type`. */
  adv_type_counts: Record<string, number>;
  /** Frames that hold no advertising record, by kind (`data_channel`, `hci_acl_data`, …). */
  non_advertising: Record<string, number>;
  /** Frames or parts of frames that could not be decoded, by reason. */
  skipped: Record<string, number>;
  /** True when anything was skipped: the table may be missing records. */
  partial: boolean;
  /** Bytes after an unrecoverable corruption that were not read (0 normally). */
  unparsed_bytes: number;
  /** Receiver names that occur in the table. */
  receivers: string[];
  /** Channel indices that occur in the table. */
  channels: number[];
  /**
   * Identity resolving keys the capture carries (HCI logs: SMP Identity Information, LE Add
   * Device To Resolving List), in frame order; all-zero keys are left out. Sensitive: the copy
   * of the report in the table's metadata omits `irk`.
   */
  identity_keys: IdentityKey[];
  /** The verdict: CRC failure share, reserved PDU types, what was skipped, in numbers and words. */
  integrity: ImportIntegrity;
}
