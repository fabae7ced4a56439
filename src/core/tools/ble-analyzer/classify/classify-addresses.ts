import type { AddressClassification, AddressType } from '../shared/analysis-types.ts';
import type { BleAddressProfile } from '../profile/address-profiles.ts';
import type { BleFoldedAddresses } from '../profile/fold-addresses.ts';
import type { BleProfiledAddresses } from '../profile/profile-addresses.ts';
import type { BleObservationStore } from '../scan/observation-store.ts';
import { flatText } from '../shared/flat-text.ts';
import { BleKeyedTexts } from '../shared/keyed-texts.ts';
import { BleTextPool } from '../shared/text-pool.ts';
import { classifyBleAddress, type BleClassInput } from './classify.ts';
import type { BleRotationModel } from './rotation-model.ts';

const VOTES = 4;
const ROLES = 4;

/**
 * The classification stage: every address that is not folded, classified under a rotation model
 * (again under a learned one, when the linkage learns it). `classification`, `typeOf` and
 * `sparse` hold the last run's results.
 */
export class BleAddressClassifier {
  readonly classification: AddressClassification[] = [];
  /** Each address's type by id ('unknown' for folded ones). */
  readonly typeOf: AddressType[];
  /** Addresses below min_observation_count. */
  sparse = 0;
  // One address's votes and roles, copied into reused arrays (classifyBleAddress only reads them
  // during the call): a subarray view per address was two allocations each.
  private readonly addressVotes = new Int32Array(VOTES);
  private readonly addressRoles = new Int32Array(ROLES);
  // Evidence lines repeat across addresses (a few hundred distinct in thousands): the result keeps one copy of each.
  private readonly evidenceTexts = new BleTextPool();
  // …and most of the repeated ones are built once, keyed by their counts.
  private readonly keyedTexts = new BleKeyedTexts();
  // One input and one evidence list for every address, filled in turn: classifyBleAddress reads
  // them only during the call, and the evidence kept is copied (evidenceTexts.shareAll).
  private readonly input: BleClassInput;

  constructor(
    private readonly store: BleObservationStore,
    private readonly profiled: BleProfiledAddresses,
    private readonly folding: BleFoldedAddresses,
    /** The key each address resolves under (resolveIrks), and the keys' labels. */
    private readonly irkOf: Int32Array,
    private readonly irkLabels: ReadonlyArray<string>,
    private readonly minObservationCount: number,
    model: BleRotationModel,
  ) {
    this.typeOf = new Array<AddressType>(store.addressCount).fill('unknown');
    this.input = {
      address: '',
      value: Number.NaN,
      votes: this.addressVotes,
      roles: this.addressRoles,
      profile: undefined,
      observations: 0,
      minObservationCount,
      rotationModel: model,
      dataSpanMs: profiled.dataEndMs - profiled.dataStartMs,
      irkLabel: undefined,
      foldedCopies: undefined,
      payloadNote: undefined,
      texts: this.keyedTexts,
      evidence: [],
    };
  }

  classify(model: BleRotationModel): void {
    const { store, input, classification, typeOf, addressVotes, addressRoles, irkOf, irkLabels, keyedTexts } = this;
    const { isFolded, foldedInto } = this.folding;
    const { byAddress: profiles, observed } = this.profiled;
    const votes = store.votes.values;
    const roles = store.roles.values;
    classification.length = 0;
    this.sparse = 0;
    input.rotationModel = model;
    for (let id = 0; id < store.addressCount; id++) {
      if (isFolded[id]) continue;
      const profile = profiles[id];
      for (let index = 0; index < VOTES; index++) addressVotes[index] = votes[id * VOTES + index];
      for (let index = 0; index < ROLES; index++) addressRoles[index] = roles[id * ROLES + index];
      input.address = store.addressTexts[id];
      input.value = store.addressValues.values[id];
      input.profile = profile;
      input.observations = observed[id];
      input.irkLabel = irkOf[id] >= 0 ? irkLabels[irkOf[id]] : undefined;
      input.foldedCopies = foldedInto.get(id);
      input.payloadNote = profile ? payloadNote(store, profile, keyedTexts) : undefined;
      const verdict = classifyBleAddress(input);
      typeOf[id] = verdict.type;
      if (observed[id] < this.minObservationCount) this.sparse++;
      classification.push({
        address: store.addressTexts[id],
        type: verdict.type,
        confidence: verdict.confidence,
        evidence: this.evidenceTexts.shareAll(verdict.evidence),
        observations: observed[id],
        firstSeenMs: profile?.firstMs ?? Number.NaN,
        lastSeenMs: profile?.lastMs ?? Number.NaN,
      });
    }
  }
}

type PayloadContent = 'manufacturer data' | 'service UUID' | 'advertising data';
const PAYLOAD_CONTENTS: ReadonlyArray<PayloadContent> = ['manufacturer data', 'service UUID', 'advertising data'];

/** The note of a single-payload address, per kind of content: one string each, not one per address. */
const STABLE_PAYLOAD_NOTE: Readonly<Record<PayloadContent, string>> = {
  'manufacturer data': 'Stable manufacturer data payload signature',
  'service UUID': 'Stable service UUID payload signature',
  'advertising data': 'Stable advertising data payload signature',
};

/** BleKeyedTexts kinds of the payload notes (apart from those of classify.ts). */
const MOSTLY_STABLE_NOTE = 100;
const ROTATING_NOTE = 101;

function payloadNote(store: BleObservationStore, profile: BleAddressProfile, texts: BleKeyedTexts): string | undefined {
  if (profile.dominantPayload < 0) return undefined;
  const features = store.payloadFeatures(profile.dominantPayload);
  const content = features.manufacturerData ? 0 : features.serviceUuids ? 1 : 2;
  const what = PAYLOAD_CONTENTS[content];
  if (profile.distinctPayloads === 1) return STABLE_PAYLOAD_NOTE[what];
  // Flat strings (flat-text.ts), built once per analysis for each content and count.
  if (profile.dominantShare >= 0.8) {
    const percent = Math.round(profile.dominantShare * 100);
    let note = texts.get(MOSTLY_STABLE_NOTE, content, percent);
    // Several signatures, so the dominant one never holds 100 % even when it rounds there.
    const shown = percent === 100 ? 'over 99' : percent;
    if (note === undefined) texts.set(MOSTLY_STABLE_NOTE, content, percent, (note = flatText('Mostly stable ', what, ' payload signature (', shown, '% of packets)')));
    return note;
  }
  let note = texts.get(ROTATING_NOTE, content, profile.distinctPayloads);
  if (note === undefined) texts.set(ROTATING_NOTE, content, profile.distinctPayloads, (note = flatText(profile.distinctPayloads, ' payload signatures (rotating ', what, ' content)')));
  return note;
}
