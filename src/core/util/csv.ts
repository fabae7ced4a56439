/**
 * The one CSV cell writer for every CSV Sextant writes (tool artifacts today). Two kinds of cell:
 *
 * - **Numbers the tool computed** (`number`) are written as numbers: `-2.5` stays `-2.5`, so a
 *   spreadsheet reads it as a value. A number cannot be a formula. Non-finite numbers are empty.
 * - **Text** (`string`) — anything derived from the data or the caller: column names, group
 *   values, terms — is neutralised when it starts with `=`, `+`, `-`, `@`, a tab or a carriage
 *   return, by prefixing an apostrophe, as OWASP's "CSV Injection" page recommends; otherwise a
 *   group value `=HYPERLINK(...)` or a column named `@SUM(A1)` reaches a spreadsheet as a formula
 *   (issue 14, item 3). This applies to numeric-looking text too: a group value `-2` from the
 *   data is written `'-2` (the spreadsheet shows it as text, which it was).
 *
 * Then RFC 4180 quoting: a cell holding `"`, `,`, CR or LF is quoted, with `"` doubled.
 * Written by hand: the CSV libraries in the tree (papaparse) parse; their unparse does not apply
 * this number/text distinction.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const neutral = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(neutral) ? `"${neutral.replace(/"/g, '""')}"` : neutral;
}

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV Injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV line (no line terminator) from cells written by `csvCell`. */
export function csvRow(cells: ReadonlyArray<string | number | null | undefined>): string {
  return cells.map(csvCell).join(',');
}

/** A whole CSV document: header and rows, LF line endings, a final newline. */
export function csvDocument(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return `${[csvRow(header), ...rows.map(csvRow)].join('\n')}\n`;
}
