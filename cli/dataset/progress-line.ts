/**
 * A one-line progress display for long work on stderr: share done, rows, rows/s and the time
 * left, redrawn in place at most twice a second. Only for a terminal; pipes get nothing.
 */
export class ProgressLine {
  private readonly startedAt: number;
  private lastDrawnAt = 0;
  private drawn = false;

  constructor(
    private readonly label: string,
    private readonly write: (text: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  /** `note` (e.g. windows done) is shown after the share. */
  update(done: number, total: number, rows: number, note?: string): void {
    const at = this.now();
    if (at - this.lastDrawnAt < 500) return;
    this.lastDrawnAt = at;
    const seconds = (at - this.startedAt) / 1000;
    const share = total > 0 ? Math.min(1, done / total) : 0;
    const rate = seconds > 0 ? rows / seconds : 0;
    const left = share > 0 ? (seconds * (1 - share)) / share : Number.NaN;
    this.write(`\r${this.label}: ${(share * 100).toFixed(1)} %${note === undefined ? '' : ` · ${note}`} · ${rows.toLocaleString('en-US')} rows · ${formatRate(rate)} rows/s · ETA ${formatDuration(left)}   `);
    this.drawn = true;
  }

  end(): void {
    if (this.drawn) this.write('\n');
  }
}

function formatRate(rate: number): string {
  return rate >= 1e6 ? `${(rate / 1e6).toFixed(2)} M` : rate >= 1e3 ? `${(rate / 1e3).toFixed(0)} k` : rate.toFixed(0);
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '…';
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return hours > 0 ? `${hours}h ${minutes}m` : minutes > 0 ? `${minutes}m ${rest}s` : `${rest}s`;
}
