import { describe, expect, it } from 'vitest';
import type { AddressType } from '../shared/analysis-types.ts';
import { classifyRandomBits } from './address-bits.ts';
import { parseBleAddress } from '../shared/ah.ts';
import { classifyBleAddress, type BleClassInput } from './classify.ts';
import { BleKeyedTexts } from '../shared/keyed-texts.ts';
import { bleRotationModel } from './rotation-model.ts';

describe('random address bits (ble-spec.md §1)', () => {
  it.each<[string, AddressType]>([
    ['C4:12:34:56:78:9A', 'random_static'],
    ['FF:FF:FF:FF:FF:FE', 'random_static'],
    ['C0:00:00:00:00:00', 'unknown'], // static, random part all 0
    ['FF:FF:FF:FF:FF:FF', 'unknown'], // static, random part all 1
    ['7A:4C:21:9D:10:EF', 'rpa'],
    ['40:00:00:12:34:56', 'unknown'], // RPA whose prand random part is all 0
    ['7F:FF:FF:12:34:56', 'unknown'], // … all 1
    ['40:00:01:12:34:56', 'rpa'],
    ['3A:4C:21:9D:10:EF', 'nrpa'],
    ['00:00:00:00:00:00', 'unknown'],
    ['3F:FF:FF:FF:FF:FF', 'unknown'],
    ['8A:4C:21:9D:10:EF', 'unknown'], // reserved 10
    ['BF:FF:FF:FF:FF:FF', 'unknown'],
  ])('%s → %s', (address, type) => {
    expect(classifyRandomBits(parseBleAddress(address)!).type).toBe(type);
  });
});

function votes(publicVotes: number, random: number, publicIdentity = 0, randomIdentity = 0): Int32Array {
  return Int32Array.of(publicVotes, random, publicIdentity, randomIdentity);
}

function classify(address: string, v: Int32Array, observations = 100) {
  return classifyBleAddress({
    address,
    value: parseBleAddress(address)!,
    votes: v,
    roles: Int32Array.of(observations, 0, 0, 0),
    profile: undefined,
    observations,
    minObservationCount: 25,
    rotationModel: bleRotationModel('spec_default'),
    dataSpanMs: 1_800_000,
  });
}

function classInput(address: string, v: Int32Array, observations: number): BleClassInput {
  return {
    address,
    value: parseBleAddress(address)!,
    votes: v,
    roles: Int32Array.of(observations, 0, 0, 0),
    profile: undefined,
    observations,
    minObservationCount: 25,
    rotationModel: bleRotationModel('spec_default'),
    dataSpanMs: 1_800_000,
  };
}

describe('address classification', () => {
  it('lets TxAdd decide public versus random: a public address may begin 4x–7x', () => {
    expect(classify('7A:4C:21:9D:10:EF', votes(100, 0)).type).toBe('public');
    expect(classify('7A:4C:21:9D:10:EF', votes(0, 100)).type).toBe('rpa');
    expect(classify('8A:4C:21:9D:10:EF', votes(100, 0)).type).toBe('public');
  });

  it('maps HCI address types 2 and 3 to resolved identities, not plain public', () => {
    const publicIdentity = classify('8C:1A:BF:39:FB:FD', votes(0, 0, 50, 0));
    expect(publicIdentity.type).toBe('public');
    expect(publicIdentity.evidence[0]).toMatch(/resolved by the controller.*type 2/);
    const randomIdentity = classify('D4:1A:BF:39:FB:FD', votes(0, 0, 0, 50));
    expect(randomIdentity.type).toBe('random_static');
    expect(randomIdentity.evidence[0]).toMatch(/type 3/);
  });

  it('classifies the reserved pattern as unknown and says why', () => {
    const verdict = classify('8A:4C:21:9D:10:EF', votes(0, 100));
    expect(verdict.type).toBe('unknown');
    expect(verdict.evidence[0]).toMatch(/Reserved/);
  });

  it('lowers confidence when TxAdd conflicts, and keeps it in [0, 1]', () => {
    const clean = classify('7A:4C:21:9D:10:EF', votes(0, 100));
    const mixed = classify('7A:4C:21:9D:10:EF', votes(20, 80));
    expect(mixed.type).toBe('rpa');
    expect(mixed.confidence).toBeLessThan(clean.confidence);
    expect(mixed.evidence.some((line) => line.startsWith('Conflicting TxAdd'))).toBe(true);
    expect(clean.confidence).toBeGreaterThan(0.9);
    expect(clean.confidence).toBeLessThanOrEqual(1);
  });

  it('gives the same evidence with lines kept for the analysis (built by the first address, reused by the next)', () => {
    const input = classInput;
    const texts = new BleKeyedTexts();
    const cases: Array<[string, Int32Array, number]> = [
      ['7A:4C:21:9D:10:EF', votes(0, 6), 6],
      ['7B:4C:21:9D:10:EF', votes(0, 6), 6],
      ['3A:4C:21:9D:10:EF', votes(0, 6), 6],
      ['00:1A:7D:8A:16:F4', votes(4186, 0), 4186],
      ['00:1A:7D:8A:16:F5', votes(4186, 0), 4186],
      ['7A:4C:21:9D:10:EF', votes(3, 5000), 5003],
      ['7A:4C:21:9D:10:EF', votes(3, 5000), 5003],
    ];
    for (const [address, v, observations] of cases) {
      const plain = classifyBleAddress(input(address, v, observations));
      expect(classifyBleAddress({ ...input(address, v, observations), texts })).toEqual(plain);
    }
    expect(classifyBleAddress({ ...input('3A:4C:21:9D:10:EF', votes(0, 6), 6), texts }).evidence[0]).toBe(
      'Only 6 observations (min_observation_count is 25): not classified; the bits and TxAdd suggest nrpa',
    );
    expect(classifyBleAddress({ ...input('00:1A:7D:8A:16:F4', votes(4186, 0), 4186), texts }).evidence[0]).toBe('Public address: TxAdd = 0 in 4,186 of 4,186 packets');
  });

  it('collects the evidence in the list it is given, emptied first, with the same lines as a list of its own', () => {
    const list = ['left over from another address'];
    const cases: Array<[string, Int32Array, number]> = [
      ['7A:4C:21:9D:10:EF', votes(3, 5000), 5003],
      ['3A:4C:21:9D:10:EF', votes(0, 6), 6],
      ['00:1A:7D:8A:16:F4', votes(4186, 0), 4186],
    ];
    const profile = { id: 0, count: 5003, firstMs: 0, lastMs: 900_000, advIntervalS: 1, dominantPayload: -1, headPayload: -1, tailPayload: -1, dominantShare: 1, distinctPayloads: 1 };
    for (const [address, v, observations] of cases) {
      for (const withProfile of [false, true]) {
        const input = { ...classInput(address, v, observations), profile: withProfile ? profile : undefined };
        const own = classifyBleAddress(input);
        const filled = classifyBleAddress({ ...input, evidence: list });
        expect(filled).toEqual(own);
        expect(filled.evidence.includes('left over from another address')).toBe(false);
      }
    }
    // Enough observations: the verdict's evidence is the list itself.
    expect(classifyBleAddress({ ...classInput('00:1A:7D:8A:16:F4', votes(4186, 0), 4186), evidence: list }).evidence).toBe(list);
  });

  it('leaves sparse addresses unknown but says what the bits suggest', () => {
    const verdict = classify('7A:4C:21:9D:10:EF', votes(0, 3), 3);
    expect(verdict.type).toBe('unknown');
    expect(verdict.evidence[0]).toMatch(/Only 3 observations .* suggest rpa/);
  });

  it('flags an RPA seen far longer than the rotation model allows', () => {
    const verdict = classifyBleAddress({
      address: '7A:4C:21:9D:10:EF',
      value: parseBleAddress('7A:4C:21:9D:10:EF')!,
      votes: votes(0, 1000),
      roles: Int32Array.of(1000, 0, 0, 0),
      profile: {
        id: 0, count: 1000, firstMs: 0, lastMs: 3_600_000, advIntervalS: 1, dominantPayload: -1, headPayload: -1,
        tailPayload: -1, dominantShare: 1, distinctPayloads: 1,
      },
      observations: 1000,
      minObservationCount: 25,
      rotationModel: bleRotationModel('spec_default'),
      dataSpanMs: 3_600_000,
    });
    expect(verdict.type).toBe('rpa');
    expect(verdict.confidence).toBeLessThan(0.7);
    expect(verdict.evidence.join(' ')).toMatch(/far longer than the spec_default rotation model allows/);
  });

  it('names the range of the rotation model of each call (the range text is kept between calls)', () => {
    const cadence = (model: ReturnType<typeof bleRotationModel>) =>
      classifyBleAddress({
        address: '7A:4C:21:9D:10:EF',
        value: parseBleAddress('7A:4C:21:9D:10:EF')!,
        votes: votes(0, 1000),
        roles: Int32Array.of(1000, 0, 0, 0),
        profile: {
          id: 0, count: 1000, firstMs: 0, lastMs: 900_000, advIntervalS: 1, dominantPayload: -1, headPayload: -1,
          tailPayload: -1, dominantShare: 1, distinctPayloads: 1,
        },
        observations: 1000,
        minObservationCount: 25,
        rotationModel: model,
        dataSpanMs: 3_600_000,
      }).evidence.find((line) => line.startsWith('Rotation cadence'));
    expect(cadence(bleRotationModel('spec_default'))).toBe('Rotation cadence ~15 min (fits spec_default: 13 min–16 min)');
    expect(cadence({ ...bleRotationModel('spec_default'), name: 'learned', lifetimeMinS: 600, lifetimeMaxS: 1200 })).toBe('Rotation cadence ~15 min (fits learned: 10 min–20 min)');
    expect(cadence(bleRotationModel('spec_default'))).toBe('Rotation cadence ~15 min (fits spec_default: 13 min–16 min)');
  });

  it('builds a lifetime line once per duration and model when lines are kept for the analysis', () => {
    const texts = new BleKeyedTexts();
    const rpa = (model: ReturnType<typeof bleRotationModel>, lastMs: number) =>
      classifyBleAddress({
        ...classInput('7A:4C:21:9D:10:EF', votes(0, 1000), 1000),
        profile: { id: 0, count: 1000, firstMs: 0, lastMs, advIntervalS: 1, dominantPayload: -1, headPayload: -1, tailPayload: -1, dominantShare: 1, distinctPayloads: 1 },
        rotationModel: model,
        dataSpanMs: 3_600_000,
        texts,
      }).evidence.find((line) => line.startsWith('Rotation') || line.startsWith('Active'));
    const spec = bleRotationModel('spec_default');
    const learned = { ...spec, name: 'learned' as const, lifetimeMinS: 600, lifetimeMaxS: 1200 };
    const first = rpa(spec, 900_000);
    expect(first).toBe('Rotation cadence ~15 min (fits spec_default: 13 min–16 min)');
    expect(rpa(spec, 900_400)).toBe(first);
    expect(rpa(learned, 900_000)).toBe('Rotation cadence ~15 min (fits learned: 10 min–20 min)');
    expect(rpa(spec, 60_000)).toBe('Active for 60 s in the window');
    expect(rpa(learned, 60_000)).toBe('Active for 60 s in the window');
  });
});
