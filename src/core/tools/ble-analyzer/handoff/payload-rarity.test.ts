import { describe, expect, it } from 'vitest';
import type { BlePayloadFeatures } from '../scan/payload-features.ts';
import { BlePayloadRarity } from './payload-rarity.ts';

/** Payload ids 0–5; templates: 0 and 1 share "A", 2 and 3 share "B", 4 is "C", 5 "D". */
const TEMPLATES = ['A', 'A', 'B', 'B', 'C', 'D'];

function source(lookups: number[]) {
  return {
    payloadFeatures(payload: number): BlePayloadFeatures {
      lookups.push(payload);
      // Built by concatenation, like the real templates: equal texts, distinct strings.
      const template = `${TEMPLATES[payload]}|${payload % 1}`;
      return { companyId: Number.NaN, manufacturerData: '', serviceUuids: '', txPower: Number.NaN, localName: '', appearance: Number.NaN, serviceDataUuid: '', template };
    },
  };
}

const carrier = (headPayload: number, tailPayload: number, dominantPayload: number) => ({ headPayload, tailPayload, dominantPayload });

describe('BlePayloadRarity', () => {
  it('counts each distinct signature of an address once and the template of its dominant payload', () => {
    const rarity = new BlePayloadRarity([carrier(0, 0, 0), carrier(0, 1, 1), carrier(1, 2, 0), carrier(-1, -1, -1), carrier(4, 4, 2)], source([]));
    expect(rarity.total).toBe(5);
    expect([-1, 0, 1, 2, 3, 4].map((payload) => rarity.signatureCount(payload))).toEqual([1, 3, 2, 2, 0, 1]);
    // Dominant payloads 0, 1, 0 (template A), −1 (no AD data), 2 (template B).
    expect(rarity.templateCount(rarity.templateId(0))).toBe(3);
    expect(rarity.templateCount(rarity.templateId(1))).toBe(3);
    expect(rarity.templateCount(rarity.templateId(-1))).toBe(1);
    expect(rarity.templateCount(rarity.templateId(3))).toBe(1);
    expect(rarity.templateCount(rarity.templateId(4))).toBe(0);
  });

  it('gives equal ids exactly to equal templates, looking each payload up once', () => {
    const lookups: number[] = [];
    const rarity = new BlePayloadRarity([carrier(0, 5, 1), carrier(2, 3, 4)], source(lookups));
    const ids = [-1, 0, 1, 2, 3, 4, 5].map((payload) => rarity.templateId(payload));
    expect(ids[1]).toBe(ids[2]);
    expect(ids[3]).toBe(ids[4]);
    expect(new Set([ids[0], ids[1], ids[3], ids[5], ids[6]]).size).toBe(5);
    for (let payload = -1; payload <= 5; payload++) rarity.templateId(payload);
    expect([...lookups].sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('grows its template counts past the first allocation', () => {
    const many = Array.from({ length: 200 }, (_, payload) => carrier(payload, payload, payload));
    const rarity = new BlePayloadRarity(many, {
      payloadFeatures: (payload) => ({ companyId: 0, manufacturerData: '', serviceUuids: '', txPower: 0, localName: '', appearance: 0, serviceDataUuid: '', template: `t${payload}` }),
    });
    expect(rarity.templateCount(rarity.templateId(199))).toBe(1);
    expect(rarity.templateId(199)).toBe(199);
  });
});
