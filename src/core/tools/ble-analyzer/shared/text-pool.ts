/**
 * Equal texts shared as one string within an analysis. The output repeats a few hundred evidence
 * lines thousands of times ("Random address: TxAdd = 1 in 6 of 6 packets"); every copy that
 * stays in the result is copied by the scavenges on its way to old space and marked by every
 * full collection after that, while a pooled copy is one string however often it is listed.
 * Made per analysis: nothing is kept between analyses.
 */
export class BleTextPool {
  private readonly texts = new Map<string, string>();

  /** The pooled text equal to `text` (the first one seen). */
  share(text: string): string {
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    this.texts.set(text, text);
    return text;
  }

  /** The texts pooled, in an array of exactly their number (a list grown by push keeps spare room). */
  shareAll(texts: ReadonlyArray<string>): string[] {
    const shared = new Array<string>(texts.length);
    for (let index = 0; index < texts.length; index++) shared[index] = this.share(texts[index]);
    return shared;
  }
}
