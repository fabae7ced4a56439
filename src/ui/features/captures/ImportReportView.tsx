import { formatShare, importIntegrity, type ImportIntegrity } from '../../../core/index.ts';
import { formatCount } from '../../components/format.ts';
import { Metric } from '../../components/Metric.tsx';
import { identityKeysOfReport, sourceName } from '../../lib/keyring/keyring-model.ts';

/** The parts of an import report people look at; any report is JSON, so every field is optional. */
interface ReportFields {
  format?: string;
  link_types?: number[];
  packets?: number;
  advertising_packets?: number;
  advertising_packets_crc_ok?: number;
  advertisers?: number;
  advertisers_crc_ok?: number;
  adv_type_counts?: Record<string, number>;
  skipped?: Record<string, number>;
  rows?: number;
  partial?: boolean;
  source_bytes?: number;
  source_sha256?: string;
  warnings?: unknown[];
  unparsed_bytes?: number;
}

/** A warning as the import report stores it (ImportWarning in core); only code and message are needed here. */
interface WarningFields {
  code: string;
  message: string;
  count?: number;
}

const isWarning = (value: unknown): value is WarningFields =>
  isRecord(value) && typeof value.code === 'string' && typeof value.message === 'string';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The window a capture opened from a dataset holds (the report's `dataset_window`), when the report carries a well-formed one. */
interface DatasetWindowFields {
  capture_id: string;
  from_ms: number | null;
  to_ms: number | null;
  parts: unknown[];
  part_rows: number;
  rows: number;
}

function datasetWindowOf(value: unknown): DatasetWindowFields | null {
  if (!isRecord(value) || typeof value.capture_id !== 'string' || !Array.isArray(value.parts) || typeof value.rows !== 'number' || typeof value.part_rows !== 'number') return null;
  const bound = (ms: unknown) => (typeof ms === 'number' ? ms : null);
  return { capture_id: value.capture_id, from_ms: bound(value.from_ms), to_ms: bound(value.to_ms), parts: value.parts, part_rows: value.part_rows, rows: value.rows };
}

function windowBound(ms: number | null, open: string): string {
  return ms === null ? open : new Date(ms).toISOString().replace('.000Z', 'Z');
}

const STATUS_BADGE: Record<ImportIntegrity['status'], string> = { clean: 'badge--ok', degraded: 'badge--partial', unusable: 'badge--error' };

/** The report's own verdict when it carries one (imports since the verdict exists), else judged now. */
function integrityOf(report: Record<string, unknown>, fields: ReportFields): ImportIntegrity {
  const stored = report.integrity;
  if (isRecord(stored) && typeof stored.verdict === 'string' && typeof stored.status === 'string' && stored.status in STATUS_BADGE) return stored as unknown as ImportIntegrity;
  return importIntegrity({ ...fields, warnings: (fields.warnings ?? []).filter(isWarning) });
}

/**
 * What the import found: its integrity verdict in words, the file's size and SHA-256, link types,
 * packet counts, PDU types, what it skipped and why, and every warning with where it happened.
 */
export function ImportReportView({ report }: { report: unknown }) {
  if (!isRecord(report)) return null;
  const fields = report as ReportFields;
  const skipped = Object.entries(fields.skipped ?? {}).filter(([, count]) => count > 0);
  const pduTypes = Object.entries(fields.adv_type_counts ?? {}).sort((a, b) => b[1] - a[1]);
  const identityKeys = identityKeysOfReport(report);
  const warnings = (fields.warnings ?? []).filter(isWarning);
  const integrity = integrityOf(report, fields);
  const datasetWindow = datasetWindowOf(report.dataset_window);
  // "Skipped: nothing" would read as a clean import when the warnings say rows may be lost.
  const skippedText =
    skipped.length > 0
      ? skipped.map(([reason, count]) => `${reason.replace(/_/g, ' ')}: ${formatCount(count)}`).join(' · ')
      : warnings.length > 0
        ? 'no records counted as skipped — see the warnings'
        : 'nothing';
  return (
    <details className="import-report" data-testid="capture.import-report" open>
      <summary>
        Import report{' '}
        <span className={`badge ${STATUS_BADGE[integrity.status]}`} data-testid="capture.import-status">
          {integrity.status}
        </span>
      </summary>
      <p className={`import-report__verdict import-report__verdict--${integrity.status}`} data-testid="capture.import-verdict">
        {integrity.verdict}
      </p>
      <dl className="metrics">
        {fields.link_types && <Metric label="Link types (DLT)" value={fields.link_types.join(', ') || '—'} />}
        {fields.format && <Metric label="Format" value={fields.format} />}
        {fields.packets !== undefined && <Metric label="Packets in file" value={formatCount(fields.packets)} />}
        {fields.advertising_packets !== undefined && (
          <Metric
            label="Advertising packets"
            value={`${formatCount(fields.advertising_packets)}; CRC failed: ${formatCount(integrity.crc_failed)} (${formatShare(integrity.crc_failed_share)})`}
          />
        )}
        {fields.advertisers !== undefined && (
          <Metric
            label="Devices that advertised"
            value={`${formatCount(fields.advertisers)} addresses; ${formatCount(fields.advertisers_crc_ok ?? 0)} in a CRC-good packet`}
          />
        )}
        {Object.keys(integrity.reserved_pdu_types).length > 0 && (
          <Metric
            label="Reserved or unknown PDU types"
            value={Object.entries(integrity.reserved_pdu_types)
              .map(([name, count]) => `${name} ${formatCount(count)}`)
              .join(' · ')}
          />
        )}
        {Array.isArray(report.identity_keys) && <Metric label="Identity keys" value={formatCount(report.identity_keys.length)} />}
        <Metric label="Skipped" value={skippedText} />
        {fields.source_bytes !== undefined && <Metric label="File size" value={`${formatCount(fields.source_bytes)} bytes`} />}
      </dl>
      {fields.source_sha256 && (
        <p className="import-report__hash">
          SHA-256 of the file: <code data-testid="capture.source-sha256">{fields.source_sha256}</code>
        </p>
      )}
      {datasetWindow && (
        <p className="import-report__hash" data-testid="capture.dataset-window">
          A window of <code>{datasetWindow.capture_id}</code> in a dataset: {windowBound(datasetWindow.from_ms, 'its start')} – {windowBound(datasetWindow.to_ms, 'its end')},{' '}
          {formatCount(datasetWindow.rows)} of the {formatCount(datasetWindow.part_rows)} packets in {datasetWindow.parts.length} part{datasetWindow.parts.length === 1 ? '' : 's'} read
        </p>
      )}
      {warnings.length > 0 && (
        <ul className="import-report__warnings" aria-label="Import warnings" data-testid="capture.import-warnings">
          {warnings.map((warning, index) => (
            <li key={`${warning.code}-${index}`}>
              <span className="badge badge--partial">{warning.code}</span> {warning.message}
            </li>
          ))}
        </ul>
      )}
      {pduTypes.length > 0 && (
        <p className="tags" aria-label="PDU types">
          {pduTypes.map(([name, count]) => (
            <span className="tag" key={name}>
              {name} {formatCount(count)}
            </span>
          ))}
        </p>
      )}
      {identityKeys.length > 0 && (
        <table className="identity-keys" data-testid="capture.identity-keys">
          <caption>Identity keys found (on the workspace keyring)</caption>
          <thead>
            <tr>
              <th>Frame</th>
              <th>Source</th>
              <th>Identity address</th>
              <th>IRK (MSB first)</th>
            </tr>
          </thead>
          <tbody>
            {identityKeys.map((key) => (
              <tr key={`${key.frame_number}:${key.source}`}>
                <td>{key.frame_number}</td>
                <td>{sourceName(key.source)}</td>
                <td>{key.identity_address ?? '—'}</td>
                <td>
                  <code>{key.irk}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}

