/**
 * Finds where CSV records end in streamed text and bounds how long a record and a cell may grow,
 * before the text reaches papaparse.
 *
 * Written by hand because papaparse cannot do either: its streamer keeps the unfinished last
 * record of every chunk and parses it again, whole, with the next chunk (a 50 MB cell took 28 s
 * and 1 GB), and it has no size limit (a 1 GiB line never finished). Fed only whole records, it
 * never re-parses; refused at the caps, an import stops after reading at most a cap's worth of
 * one record. The quoting rules are papaparse's, so both agree on where a record ends: a quote
 * opens a quoted field only as the field's first character; inside one, `""` is a quote, and a
 * quote closes the field only when whitespace and then the delimiter or the newline follow it
 * (any other quote is papaparse's `InvalidQuotes`, and the field goes on).
 */

/** Which cap a record broke, with where it started. */
export interface CsvScanOverflow {
  kind: 'cell' | 'record';
  /** The cap, in characters. */
  limit: number;
  /** 1-based line on which the record (or the cell) began, counting the file's newlines. */
  line: number;
}

export interface CsvScanLimits {
  /** Most characters (UTF-16 code units) in one cell, quotes included. */
  maxCellChars: number;
  /** Most characters in one record, delimiters, quotes and line breaks inside quotes included. */
  maxRecordChars: number;
}

// Scanner modes (plain numbers: this loop runs once per character of the file).
/** At the first character of a field. */
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** Just after a quote inside a quoted field: an escaped quote, a closing quote or a stray one. */
const AFTER_QUOTE = 3;
/** After a closing-candidate quote and whitespace: the delimiter or the newline must follow. */
const CLOSING = 4;

const QUOTE = 0x22;

/** JavaScript's `String.prototype.trim` whitespace, which papaparse uses after a closing quote. */
function isWhitespace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export class CsvRecordScanner {
  private mode: number = FIELD_START;
  private recordChars = 0;
  private cellChars = 0;
  private line = 1;
  private recordLine = 1;
  private cellLine = 1;
  private readonly delimiter: number;
  private readonly newline: number;
  /** Set when a cap was exceeded; the scanner then reads nothing more. */
  overflow: CsvScanOverflow | null = null;

  /** `delimiter` and `newline` are single characters (`newline` is `\n` or `\r`). */
  constructor(
    delimiter: string,
    newline: '\n' | '\r',
    private readonly limits: CsvScanLimits,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
    this.newline = newline.charCodeAt(0);
  }

  /**
   * Reads the next piece of text. Returns the index just past the last record end in it (after
   * its newline), or -1 when no record ends in it. Stops at the first cap exceeded and sets
   * {@link overflow}.
   */
  scan(text: string): number {
    if (this.overflow !== null) return -1;
    const { delimiter, newline } = this;
    const { maxCellChars, maxRecordChars } = this.limits;
    const length = text.length;
    let lastEnd = -1;
    let mode = this.mode;
    let line = this.line;
    let cellLine = this.cellLine;
    let recordLine = this.recordLine;
    // Where the current record and cell began, relative to this text (negative: in earlier text).
    let recordStart = -this.recordChars;
    let cellStart = -this.cellChars;
    let overflow: CsvScanOverflow | null = null;
    for (let index = 0; index < length; index++) {
      const code = text.charCodeAt(index);
      if (mode === FIELD_START) {
        cellStart = index;
        cellLine = line;
        if (code === QUOTE) {
          mode = QUOTED;
          continue;
        }
        mode = UNQUOTED;
      }
      let ends = false;
      if (mode === QUOTED) {
        if (code === QUOTE) mode = AFTER_QUOTE;
        else if (code === newline) line++;
      } else if (mode === UNQUOTED) {
        ends = code === delimiter || code === newline;
      } else if (code === QUOTE && mode === AFTER_QUOTE) {
        mode = QUOTED;
      } else if (code === delimiter || code === newline) {
        ends = true;
      } else {
        // A closing-candidate quote: whitespace may follow it; anything else keeps the field open.
        mode = isWhitespace(code) ? CLOSING : code === QUOTE ? AFTER_QUOTE : QUOTED;
      }
      if (ends) {
        mode = FIELD_START;
        if (code === newline) {
          line++;
          lastEnd = index + 1;
          recordStart = index + 1;
          recordLine = line;
        }
        continue;
      }
      if (index - cellStart >= maxCellChars) {
        overflow = { kind: 'cell', limit: maxCellChars, line: cellLine };
        break;
      }
      if (index - recordStart >= maxRecordChars) {
        overflow = { kind: 'record', limit: maxRecordChars, line: recordLine };
        break;
      }
    }
    if (overflow === null && length - recordStart > maxRecordChars) {
      overflow = { kind: 'record', limit: maxRecordChars, line: recordLine };
    }
    this.overflow = overflow;
    this.mode = mode;
    this.line = line;
    this.cellLine = cellLine;
    this.recordLine = recordLine;
    this.recordChars = length - recordStart;
    this.cellChars = length - cellStart;
    return lastEnd;
  }
}
