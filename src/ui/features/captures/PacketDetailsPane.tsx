import { describeBleRecord, type CellValue } from '../../../core/index.ts';

interface Props {
  /** The record's 0-based position under the filter. */
  index: number;
  /** The record by column name; null while its page loads. */
  record: Record<string, CellValue> | null;
  time: string | null;
  onClose(): void;
}

/** The selected record decoded (the core decodes; this shows it as text). */
export function PacketDetailsPane({ index, record, time, onClose }: Props) {
  const details = record ? describeBleRecord(record) : null;
  return (
    <section className="packet-details" aria-label="Packet details" data-testid="capture.packet-details">
      <header className="packet-details__header">
        <h3>
          Packet details: record {index + 1}
          {details ? ` · ${details.summary}` : ''}
        </h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {!details && <p className="muted">Loading the record…</p>}
      {details && (
        <>
          {time && <p className="packet-details__time">Captured {time}</p>}
          {details.sections.map((section) => (
            <details key={section.title} open>
              <summary>{section.title}</summary>
              <dl className="packet-details__fields">
                {section.fields.map((field) => (
                  <div key={`${field.name}:${field.value}`}>
                    <dt>{field.name}</dt>
                    <dd>{field.value}</dd>
                  </div>
                ))}
              </dl>
            </details>
          ))}
          <details open>
            <summary>Bytes (hex)</summary>
            {details.bytes.map((entry) => (
              <div key={entry.name}>
                <p className="muted small">{entry.name}</p>
                <pre className="packet-details__hex" data-testid="capture.packet-hex">
                  {entry.hex}
                </pre>
              </div>
            ))}
            <p className="muted small">
              {details.bytes.length === 0 ? 'This record carries no manufacturer or service data. ' : ''}
              The import keeps decoded fields, not whole frames: to see every byte, open the file in Wireshark at
              {record?.frame_number !== null && record?.frame_number !== undefined ? ` frame.number == ${String(record.frame_number)}` : ' the same frame'}.
            </p>
          </details>
        </>
      )}
    </section>
  );
}
