import type { LinkCandidate } from '../shared/analysis-types.ts';
import type { BleChainPair } from '../co-location/co-location-types.ts';
import type { BleLinkableAddress } from '../handoff/handoff-types.ts';
import type { BleLinks } from '../handoff/linkage.ts';

/** Hand-off candidates, then co-location candidates, in one array of its final length. */
export function candidateList(linkable: ReadonlyArray<BleLinkableAddress>, links: BleLinks, pairs: ReadonlyArray<BleChainPair>): LinkCandidate[] {
  const candidates = new Array<LinkCandidate>(links.earlier.length + pairs.length);
  for (let e = 0; e < links.earlier.length; e++) {
    const factors = links.factors[e];
    candidates[e] = {
      earlier: linkable[links.earlier[e]].address,
      later: linkable[links.later[e]].address,
      probability: links.probability[e],
      factors: factors ? namedTexts(factors) : [],
    };
  }
  for (let index = 0; index < pairs.length; index++) {
    const pair = pairs[index];
    const aFirst = linkable[pair.memberA].profile.firstMs <= linkable[pair.memberB].profile.firstMs;
    candidates[links.earlier.length + index] = {
      earlier: linkable[aFirst ? pair.memberA : pair.memberB].address,
      later: linkable[aFirst ? pair.memberB : pair.memberA].address,
      probability: pair.same,
      factors: pair.terms ? namedTexts(pair.terms) : [],
      relation: 'co_location',
    };
  }
  return candidates;
}

/** "name: text" of each factor or term, in order (the candidates' printed factors). */
function namedTexts(factors: ReadonlyArray<{ name: string; text: string }>): string[] {
  const texts = new Array<string>(factors.length);
  for (let index = 0; index < factors.length; index++) texts[index] = `${factors[index].name}: ${factors[index].text}`;
  return texts;
}
