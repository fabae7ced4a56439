/** Counts at or above this are not keyed (the key packs two of them into one safe integer). */
const COUNT_LIMIT = 2 ** 21;
/** Kinds of text per store: at most this many. */
const KIND_LIMIT = 2 ** 10;

/**
 * Texts of one analysis keyed by a kind and two counts: a line such as "Random address: TxAdd =
 * 1 in 6 of 6 packets" recurs for hundreds of addresses with the same counts, and is then built
 * once rather than per address (and handed out as the same string, so the result keeps one copy).
 * Made per analysis: nothing is kept between analyses. Counts of 2^21 and more are not keyed:
 * `get` misses and `set` ignores them, so the caller builds the text each time.
 */
export class BleKeyedTexts {
  private readonly texts = new Map<number, string>();
  private readonly byOwner = new Map<object, Map<string, string>>();

  /**
   * Texts keyed by a short text (a formatted duration, say), one table per `owner`: an object
   * whose content the texts also depend on (the rotation model a line names), or a constant
   * that stands for a kind of line. A short key is hashed where the line built from it would be.
   */
  keyedByText(owner: object): Map<string, string> {
    let table = this.byOwner.get(owner);
    if (!table) this.byOwner.set(owner, (table = new Map()));
    return table;
  }

  get(kind: number, a: number, b: number): string | undefined {
    const key = keyOf(kind, a, b);
    return key < 0 ? undefined : this.texts.get(key);
  }

  set(kind: number, a: number, b: number, text: string): void {
    const key = keyOf(kind, a, b);
    if (key >= 0) this.texts.set(key, text);
  }
}

/** kind, a and b packed into one safe integer, or -1 when one of them is out of range. */
function keyOf(kind: number, a: number, b: number): number {
  if (!(kind >= 0 && kind < KIND_LIMIT && a >= 0 && a < COUNT_LIMIT && b >= 0 && b < COUNT_LIMIT)) return -1;
  if (!Number.isInteger(kind) || !Number.isInteger(a) || !Number.isInteger(b)) return -1;
  return (kind * COUNT_LIMIT + a) * COUNT_LIMIT + b;
}
