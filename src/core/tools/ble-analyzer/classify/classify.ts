import type { AddressType, RotationModelReport } from '../shared/analysis-types.ts';
import { classifyRandomBits } from './address-bits.ts';
import type { BleAddressProfile } from '../profile/address-profiles.ts';
import { formatBleCount } from '../shared/count-format.ts';
import { flatText } from '../shared/flat-text.ts';
import type { BleKeyedTexts } from '../shared/keyed-texts.ts';
import { BLE_ROLE, BLE_VOTE } from '../scan/observation-store.ts';
import { describeLifetimeRange, formatDuration } from './rotation-model.ts';

/**
 * One address's class from its type votes, bits and behaviour (ble-spec.md §1).
 *
 * Confidence is the product of: a base rate for the rule that decided (how often that rule is
 * right on CRC-good data: public 0.98, random static 0.96, RPA 0.96, NRPA 0.92, invalid bit
 * pattern 0.9), the share of packets whose TxAdd / HCI type agree, an adequacy term n/(n + 1),
 * and penalties for behaviour unlike the class (an RPA seen far longer than the rotation model
 * allows: × 0.7). An IRK resolution makes an RPA certain (0.999).
 */
export interface BleClassInput {
  address: string;
  value: number;
  votes: Int32Array;
  roles: Int32Array;
  profile: BleAddressProfile | undefined;
  observations: number;
  minObservationCount: number;
  rotationModel: RotationModelReport;
  /** Span of the whole analysed data in ms, for "present across the full window". */
  dataSpanMs: number;
  irkLabel?: string;
  foldedCopies?: { addresses: number; packets: number };
  payloadNote?: string;
  /**
   * Lines already built in this analysis, by their counts (the TxAdd and "Only N observations"
   * lines): shared by the calls of one analysis, which all pass the same minObservationCount.
   */
  texts?: BleKeyedTexts;
  /**
   * A list to collect the evidence in (emptied first), returned as the verdict's evidence: a
   * caller that copies the lines it keeps passes the same list for every address rather than
   * having a new one grown per call.
   */
  evidence?: string[];
}

export interface BleClassVerdict {
  type: AddressType;
  confidence: number;
  evidence: string[];
  /** The class the bits and TxAdd point to, even when too sparse to report it. */
  bitClass: AddressType;
}

const BASE: Record<AddressType, number> = { public: 0.98, random_static: 0.96, rpa: 0.96, nrpa: 0.92, unknown: 0.9 };

const count = formatBleCount;

/** `describeLifetimeRange` of the last model asked for: the same text for every RPA of a run. */
let rangeMinS = Number.NaN;
let rangeMaxS = Number.NaN;
let rangeText = '';

function lifetimeRange(model: RotationModelReport): string {
  if (model.lifetimeMinS !== rangeMinS || model.lifetimeMaxS !== rangeMaxS) {
    rangeText = describeLifetimeRange(model);
    rangeMinS = model.lifetimeMinS;
    rangeMaxS = model.lifetimeMaxS;
  }
  return rangeText;
}

/** BleKeyedTexts kinds of the lines keyed by their counts; "Only N observations" lines add the bit class's index. */
const PUBLIC_TXADD_LINE = 0;
const RANDOM_TXADD_LINE = 1;
const SPARSE_LINE = 2;
const BIT_CLASSES: ReadonlyArray<AddressType> = ['public', 'random_static', 'rpa', 'nrpa', 'unknown'];

/** "<prefix><votes> of <total> packets", from `texts` when it was built before. */
function txAddLine(texts: BleKeyedTexts | undefined, kind: number, prefix: string, votes: number, total: number): string {
  const known = texts?.get(kind, votes, total);
  if (known !== undefined) return known;
  const line = flatText(prefix, count(votes), ' of ', count(total), ' packets');
  texts?.set(kind, votes, total, line);
  return line;
}

function sparseLine(texts: BleKeyedTexts | undefined, n: number, minObservationCount: number, bitClass: AddressType): string {
  const kind = SPARSE_LINE + BIT_CLASSES.indexOf(bitClass);
  const known = texts?.get(kind, n, minObservationCount);
  if (known !== undefined) return known;
  const line = flatText('Only ', plural(n, 'observation'), ' (min_observation_count is ', minObservationCount, '): not classified', bitClass !== 'unknown' ? flatText('; the bits and TxAdd suggest ', bitClass) : '');
  texts?.set(kind, n, minObservationCount, line);
  return line;
}

/** The owner of the "Active for …" lines in BleKeyedTexts.keyedByText (the rotation lines are the model's). */
const ACTIVE_LINES = {};

/**
 * "Rotation cadence ~<duration> (fits <model>: <range>)" with the model it fits, else "Active
 * for <duration> in the window"; built once per analysis for each duration and model (the RPAs
 * of a run share a few hundred durations): the line is then one string however many addresses
 * list it, and pooling it again (BleTextPool) hashes a string whose hash is known. The model's
 * content must not change while `texts` is in use (one table per model object).
 */
function lifetimeLine(texts: BleKeyedTexts | undefined, duration: string, fits?: RotationModelReport): string {
  const table = texts?.keyedByText(fits ?? ACTIVE_LINES);
  const known = table?.get(duration);
  if (known !== undefined) return known;
  const line = fits ? flatText('Rotation cadence ~', duration, ' (fits ', fits.name, ': ', lifetimeRange(fits), ')') : flatText('Active for ', duration, ' in the window');
  table?.set(duration, line);
  return line;
}

function plural(value: number, word: string): string {
  return `${count(value)} ${word}${value === 1 ? '' : 's'}`;
}

export function classifyBleAddress(input: BleClassInput): BleClassVerdict {
  const evidence = input.evidence ?? [];
  evidence.length = 0;
  const v = input.votes;
  const publicVotes = v[BLE_VOTE.public];
  const randomVotes = v[BLE_VOTE.random];
  const identityVotes = v[BLE_VOTE.publicIdentity] + v[BLE_VOTE.randomIdentity];
  const total = publicVotes + randomVotes + identityVotes;
  let type: AddressType;
  let confidence: number;
  if (total === 0 || Number.isNaN(input.value)) {
    type = 'unknown';
    confidence = 0.5;
    evidence.push(Number.isNaN(input.value) ? 'Not a 48-bit address' : 'No TxAdd or HCI address type recorded: public and random cannot be told apart');
  } else if (identityVotes * 2 > total) {
    const publicIdentity = v[BLE_VOTE.publicIdentity] >= v[BLE_VOTE.randomIdentity];
    type = publicIdentity ? 'public' : 'random_static';
    confidence = BASE[type] * (identityVotes / total);
    evidence.push(
      `Identity address resolved by the controller from an RPA (HCI address type ${publicIdentity ? 2 : 3}, ${publicIdentity ? 'public' : 'random static'} identity); the over-the-air RPA is not in the log`,
    );
  } else if (publicVotes >= randomVotes) {
    type = 'public';
    confidence = BASE.public * (publicVotes / (publicVotes + randomVotes));
    evidence.push(txAddLine(input.texts, PUBLIC_TXADD_LINE, 'Public address: TxAdd = 0 in ', publicVotes, publicVotes + randomVotes));
  } else {
    const bits = classifyRandomBits(input.value);
    type = bits.type;
    confidence = BASE[type] * (randomVotes / (publicVotes + randomVotes));
    evidence.push(bits.reason);
    evidence.push(txAddLine(input.texts, RANDOM_TXADD_LINE, 'Random address: TxAdd = 1 in ', randomVotes, publicVotes + randomVotes));
  }
  if (total > 0 && publicVotes > 0 && randomVotes > 0) {
    evidence.push(`Conflicting TxAdd: ${plural(publicVotes, 'packet')} say public, ${count(randomVotes)} random`);
  }

  const roles = input.roles;
  if (roles[BLE_ROLE.scanner] > 0) evidence.push(`Seen as scanner (ScanA) in ${plural(roles[BLE_ROLE.scanner], 'scan request')}`);
  if (roles[BLE_ROLE.initiator] > 0) evidence.push(`Seen as initiator (InitA) in ${plural(roles[BLE_ROLE.initiator], 'connection request')}`);
  if (roles[BLE_ROLE.referenced] > 0 && roles[BLE_ROLE.advertiser] === 0) {
    evidence.push(`Only seen as the target of ${plural(roles[BLE_ROLE.referenced], 'packet')} (scan/connection requests or directed advertising)`);
  }

  const profile = input.profile;
  const bitClass = type;
  if (type === 'rpa' && input.irkLabel !== undefined) {
    confidence = 0.999;
    evidence.push(`Resolves under IRK '${input.irkLabel}' (ah(IRK, prand) = hash)`);
  }
  if (profile) {
    const lifetimeS = (profile.lastMs - profile.firstMs) / 1000;
    if (type === 'rpa' && input.irkLabel === undefined) {
      const limit = input.rotationModel.lifetimeMaxS;
      if (lifetimeS > 1.5 * limit + 60) {
        confidence *= 0.7;
        evidence.push(
          `Seen for ${formatDuration(lifetimeS)}, far longer than the ${input.rotationModel.name} rotation model allows (${lifetimeRange(input.rotationModel)}): a non-rotating implementation or a misread TxAdd`,
        );
      } else if (lifetimeS >= input.rotationModel.lifetimeMinS * 0.8) {
        evidence.push(lifetimeLine(input.texts, formatDuration(lifetimeS), input.rotationModel));
      } else {
        evidence.push(lifetimeLine(input.texts, formatDuration(lifetimeS)));
      }
    }
    if ((type === 'public' || type === 'random_static') && input.dataSpanMs > 0 && profile.lastMs - profile.firstMs >= 0.8 * input.dataSpanMs) {
      evidence.push('No observed rotation across full window');
      confidence = Math.min(0.995, confidence * 1.01);
    }
    if (type === 'nrpa' && lifetimeS > 3600) {
      confidence *= 0.8;
      evidence.push(`Non-resolvable address kept for ${formatDuration(lifetimeS)}: unusual for a private address`);
    }
    if (input.payloadNote) evidence.push(input.payloadNote);
  }
  if (input.foldedCopies && input.foldedCopies.addresses > 0) {
    evidence.push(
      `${plural(input.foldedCopies.addresses, 'address')} 1–2 bit flips away (${plural(input.foldedCopies.packets, 'packet')}) treated as corrupted copies of this one`,
    );
  }

  const n = input.observations;
  if (n < input.minObservationCount) {
    return {
      type: 'unknown',
      confidence: 0.5,
      evidence: [sparseLine(input.texts, n, input.minObservationCount, bitClass), ...evidence.slice(0, 2)],
      bitClass,
    };
  }
  confidence *= n / (n + 1);
  return { type, confidence: Math.round(Math.max(0, Math.min(1, confidence)) * 1000) / 1000, evidence, bitClass };
}
