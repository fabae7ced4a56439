/**
 * A tracker tag is a radio of its own (issue 22): a chain whose addresses carry a tracker kind
 * (the trackers stage sets `BleLinkableAddress.tracker`) is never one device with a chain of
 * another kind or of none. The stages up to co-location are run as analyze.ts runs them, and the
 * kinds are set on a phone's own sets, the hardest case: every other term says one device.
 */
import { describe, expect, it } from 'vitest';
import { generateBleScenario } from '../../../demo/ble-scenario/generate-ble-scenario.ts';
import { BleScanner } from '../scan/observations.ts';
import { profileAddresses } from '../profile/profile-addresses.ts';
import { foldAddresses } from '../profile/fold-addresses.ts';
import { resolveIrks } from '../classify/resolve-irks.ts';
import { BleAddressClassifier } from '../classify/classify-addresses.ts';
import { bleRotationModel } from '../classify/rotation-model.ts';
import { linkableAddresses, linkHandoffs } from '../handoff/link-handoffs.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import { buildChains } from '../cluster/clusters.ts';
import { bleAnalysisOptions } from '../shared/test-support.ts';
import type { ToolWarning } from '../../../contract/tool-error.ts';
import { scoreChainPairs } from './co-location.ts';

const OPTIONS = bleAnalysisOptions();

/** android_multi_set seed 1 up to its chains, and a scorer of its concurrent chain pairs. */
function multiSetChains() {
  const generated = generateBleScenario({ seed: 1, scenario: 'android_multi_set' });
  if (!generated.ok) throw new Error(generated.error.message);
  const scanner = new BleScanner({ columns: OPTIONS.addressColumns, includeCrcBad: false });
  for (const capture of generated.value.captures) {
    for (const batch of capture.table.batches) scanner.add({ captureId: capture.info.id, batch, mask: new Uint8Array(batch.numRows).fill(1), selectedCount: batch.numRows });
  }
  const store = scanner.finish();
  const warnings: ToolWarning[] = [];
  const profiled = profileAddresses(store);
  const folding = foldAddresses(store, profiled.observed, OPTIONS.minObservationCount, warnings);
  const irkOf = resolveIrks(store, folding.isFolded, []);
  const model = bleRotationModel('spec_default');
  const classifier = new BleAddressClassifier(store, profiled, folding, irkOf, [], OPTIONS.minObservationCount, model);
  classifier.classify(model);
  const linkable: BleLinkableAddress[] = linkableAddresses(store, profiled, classifier.typeOf, folding.isFolded, irkOf);
  const { dataStartMs, dataEndMs } = profiled;
  const context = { linkageWindowS: OPTIONS.linkageWindowS, model, payloads: store, receiverNames: store.receiverNames, receivers: profiled.receivers, dataStartMs, dataEndMs, irkLabels: [], uncalibrated: false, describeCandidates: false };
  const { chains } = buildChains(linkable, linkHandoffs(linkable, context, OPTIONS, warnings).links);
  const score = () => scoreChainPairs(chains, linkable, store.events, store.receiverNames, dataStartMs, dataEndMs, profiled.receiverFloors).pairs;
  return { chains, linkable, score };
}

describe('tracker tags in co-location', () => {
  it('never makes a tag one device with a chain of another kind or of none; two chains of one kind are weighed as usual', () => {
    const { chains, linkable, score } = multiSetChains();
    const joined = score().filter((pair) => pair.same > 0.5);
    expect(joined.length).toBeGreaterThan(0);
    const { a, b } = joined[0];
    const mark = (chain: number, kind: BleLinkableAddress['tracker']) => {
      for (const member of chains[chain].members) linkable[member].tracker = kind;
    };

    // A tag beside a phone (the tag shows its kind, the phone none): travelled together.
    mark(a, 'find_my');
    const tagAndPhone = score().find((pair) => pair.a === a && pair.b === b)!;
    expect(tagAndPhone.same).toBe(0);
    expect(tagAndPhone.travel).toBeGreaterThan(0.5);
    expect(tagAndPhone.terms!.find((term) => term.name === 'one_radio')!.text).toMatch(/^tracker kinds differ \(find_my and no tracker\)/);
    // Nor with a tag of another kind.
    mark(b, 'smarttag');
    expect(score().find((pair) => pair.a === a && pair.b === b)!.same).toBe(0);
    // Two chains of one kind: the rule does not stand in the way (their evidence decides).
    mark(b, 'find_my');
    expect(score().find((pair) => pair.a === a && pair.b === b)!.same).toBeGreaterThan(0.5);
  });
});
