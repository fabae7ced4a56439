// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readCaptureFile } from '../../../core/index.ts';
import { ImportReportView } from './ImportReportView.tsx';

afterEach(cleanup);

const importReport = async (text: string) => {
  const read = await readCaptureFile(new TextEncoder().encode(text), { id: 'c', fileName: 'c.csv' });
  if (!read.ok) throw new Error(read.error.message);
  return read.value.report;
};

describe('ImportReportView', () => {
  it('a CSV whose quote never closes reads as degraded with the warning and its record, never "Skipped: nothing"', async () => {
    render(<ImportReportView report={await importReport('ts_ms,name\n1,"abc\n2,def\n3,ghi\n')} />);
    expect(screen.getByTestId('capture.import-status').textContent).toBe('degraded');
    expect(screen.getByTestId('capture.import-verdict').textContent).toContain('import warning');
    expect(screen.getByTestId('capture.import-warnings').textContent).toContain('UNTERMINATED_QUOTE');
    expect(screen.getByTestId('capture.import-warnings').textContent).toContain('record 2');
    expect(screen.getByTestId('capture.import-report').textContent).not.toContain('Skippednothing');
  });

  it('a clean import says so and shows the file hash', async () => {
    const report = await importReport('ts_ms,name\n1,a\n');
    render(<ImportReportView report={report} />);
    expect(screen.getByTestId('capture.import-status').textContent).toBe('clean');
    expect(screen.getByTestId('capture.import-verdict').textContent).toBe('Clean: 1 row; nothing skipped, no warnings');
    expect(screen.getByTestId('capture.source-sha256').textContent).toBe(report.source_sha256);
    expect(screen.getByTestId('capture.import-report').textContent).toContain('Skippednothing');
  });

  it('a report from before the verdict existed is judged as it is shown: CRC failures are never clean', () => {
    render(<ImportReportView report={{ advertising_packets: 6702, advertising_packets_crc_ok: 0, advertisers: 40, advertisers_crc_ok: 0, skipped: {}, warnings: [], partial: false }} />);
    expect(screen.getByTestId('capture.import-status').textContent).toBe('unusable');
    expect(screen.getByTestId('capture.import-verdict').textContent).toBe('0 % usable: 6,702 of 6,702 advertising packets failed CRC');
    expect(screen.getByTestId('capture.import-report').textContent).not.toMatch(/clean/i);
  });

  it('renders warning text as text', () => {
    render(<ImportReportView report={{ warnings: [{ code: 'INVALID_UTF8', message: '<img src=x onerror=alert(1)>' }] }} />);
    expect(screen.getByTestId('capture.import-warnings').textContent).toContain('<img src=x onerror=alert(1)>');
    expect(document.querySelector('img')).toBeNull();
  });
});
