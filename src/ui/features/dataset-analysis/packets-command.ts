/** A BLE address as the analyzer writes it: six upper- or lower-case hex octets with colons. */
const ADDRESS = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;

/** A POSIX shell word for any text: single-quoted, each `'` closed, escaped and reopened. */
function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `sextant query` command that lists a device's packets from the dataset, for the analyst to
 * copy. The files it is built from are input: only well-formed addresses enter the SQL, and the
 * dataset's path is one quoted shell word, so a crafted file cannot make the command do more.
 */
export function devicePacketsCommand(dataset: string, addresses: readonly string[]): string | null {
  const wellFormed = addresses.filter((address) => ADDRESS.test(address));
  if (wellFormed.length === 0) return null;
  const list = wellFormed.map((address) => `'${address.toUpperCase()}'`).join(', ');
  // As CSV, and up to a busy week of one device (the command's default stops at 10,000 rows).
  return `sextant query ${shellWord(dataset)} "SELECT * FROM packets WHERE advertiser_addr IN (${list}) ORDER BY ts_ms" --format csv --max-rows 5000000`;
}
