/**
 * The AD templates of the payloads of one scan (see readPayloadFeatures), one string per
 * distinct set of parts: thousands of payloads share a few dozen templates, and the hand-off
 * rarity counts them in a Map by their text. Equal parts give the one string already made, so
 * no new string is concatenated and the Map hashes each distinct text once (a string keeps its
 * hash) instead of once per payload. Parts are compared exactly: parts that differ but print
 * alike get strings of equal text, which every reader compares by text.
 */
export class BlePayloadTemplates {
  /** Templates made so far, in buckets by a hash of their parts. */
  private readonly buckets = new Map<number, BleTemplateParts[]>();

  /** The template of a payload's AD features. */
  template(companyId: number, manufacturerData: string, serviceUuids: string, serviceDataUuid: string, txPower: number, appearance: number, localName: string): string {
    const head0 = manufacturerData.length > 0 ? manufacturerData.charCodeAt(0) : -1;
    const head1 = manufacturerData.length > 1 ? manufacturerData.charCodeAt(1) : -1;
    let hash = Math.imul(companyId | 0, 0x9e3779b1) ^ manufacturerData.length;
    hash = Math.imul(hash ^ (head0 << 8) ^ head1, 0x85ebca6b) ^ (txPower | 0);
    hash = Math.imul(hash ^ (appearance | 0), 0xc2b2ae35) ^ serviceUuids.length;
    hash = Math.imul(hash ^ serviceDataUuid.length, 0x27d4eb2f) ^ localName.length;
    let bucket = this.buckets.get(hash);
    if (bucket) {
      for (const parts of bucket) {
        if (
          sameNumber(parts.companyId, companyId) &&
          parts.length === manufacturerData.length &&
          parts.head0 === head0 &&
          parts.head1 === head1 &&
          parts.serviceUuids === serviceUuids &&
          parts.serviceDataUuid === serviceDataUuid &&
          sameNumber(parts.txPower, txPower) &&
          sameNumber(parts.appearance, appearance) &&
          parts.localName === localName
        ) {
          return parts.text;
        }
      }
    } else {
      bucket = [];
      this.buckets.set(hash, bucket);
    }
    const text = templateText(companyId, manufacturerData, serviceUuids, serviceDataUuid, txPower, appearance, localName);
    bucket.push({ companyId, length: manufacturerData.length, head0, head1, serviceUuids, serviceDataUuid, txPower, appearance, localName, text });
    return text;
  }
}

interface BleTemplateParts {
  companyId: number;
  length: number;
  head0: number;
  head1: number;
  serviceUuids: string;
  serviceDataUuid: string;
  txPower: number;
  appearance: number;
  localName: string;
  text: string;
}

/** Equal numbers, NaN equal to NaN (an absent cell). */
function sameNumber(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/**
 * The template text: rotating tokens change the bytes of manufacturer data but not its length
 * or its first octet (the vendor's message type, e.g. Apple's 0x10 Nearby Info): the template
 * keeps those.
 */
export function templateText(companyId: number, manufacturerData: string, serviceUuids: string, serviceDataUuid: string, txPower: number, appearance: number, localName: string): string {
  return `${Number.isNaN(companyId) ? '' : companyId}|${manufacturerData.length / 2}|${manufacturerData.slice(0, 2)}|${serviceUuids}|${serviceDataUuid}|${Number.isNaN(txPower) ? '' : txPower}|${Number.isNaN(appearance) ? '' : appearance}|${localName}`;
}
