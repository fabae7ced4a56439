import { loadCatalog } from '../capture-files.ts';
import { EXIT } from '../exit-codes.ts';
import type { Io } from '../io.ts';
import { expectNoMore, parseFlags } from '../parse-flags.ts';

export const CAPTURES_USAGE = `Usage:
  sextant captures [--capture ID=PATH]... [--time-column NAME]

Lists the available captures (the built-in ones and each --capture file) as JSON: id, source,
rows, columns, bounds, time and channel columns, channels, time origin.

Exit codes: 0 listed; 4 bad arguments or an unreadable file.`;

/** `sextant captures`: returns the exit code. */
export async function runCaptures(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    { capture: { type: 'string', multiple: true }, 'time-column': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    CAPTURES_USAGE,
  );
  if (values.help) {
    io.stdout(`${CAPTURES_USAGE}\n`);
    return EXIT.ok;
  }
  expectNoMore(positionals, CAPTURES_USAGE);
  const catalog = await loadCatalog(values.capture ?? [], values['time-column']);
  const list = catalog.list().map((info) => ({
    id: info.id,
    source: info.source,
    rows: info.rowCount,
    columns: info.columns.map((column) => ({ name: column.name, type: column.kind })),
    bounds: info.bounds,
    bounds_source: info.boundsSource,
    time_column: info.timeColumn,
    channel_column: info.channelColumn,
    channels: info.channels,
    time_origin: info.timeOrigin,
  }));
  io.stdout(`${JSON.stringify(list, null, 2)}\n`);
  return EXIT.ok;
}
