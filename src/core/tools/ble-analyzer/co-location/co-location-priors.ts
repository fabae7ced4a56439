/**
 * The priors of co-location linkage (co-location.ts), fitted to the capture by empirical Bayes:
 * a chain has about λ sibling sets and μ companions among the `crowd` chains active with it, and
 * how common multi-set phones and companions are differs from one capture to the next (none in a
 * room of beacons, many in a street). λ and μ are fitted by expectation–maximisation over all
 * scored pairs: the prior mass equals the expected posterior mass.
 */

/** Expected sibling sets and companions of a chain among the chains active with it (the fit's starting rates). */
const PRIOR_SAME = 1;
const PRIOR_TRAVEL = 1;
import { CO_LOCATION_COMPANIONS_MAX, CO_LOCATION_PRIOR_MAX, CO_LOCATION_PRIOR_MIN as PRIOR_MIN, coLocationPosteriors } from './co-location-model.ts';

export { CO_LOCATION_PRIOR_MAX };
/** Iterations of the fit at most, and the change of both rates under which it stops. */
const MAX_ITERATIONS = 20;
const SETTLED = 1e-3;

/**
 * The posterior probabilities of a pair with evidence `evidenceS` and `evidenceT` (log-odds
 * against "unrelated") among `crowd` chains under the prior rates l (sibling sets) and m
 * (companions): P(one device) into out[0], P(travelled together) into out[1]; without evidence of
 * one radio (`oneRadio` false) the same-device mass is travelled together's (co-location-model.ts).
 */
export function posteriorsOf(evidenceS: number, evidenceT: number, crowd: number, l: number, m: number, out: Float64Array, oneRadio = true): void {
  coLocationPosteriors(evidenceS, evidenceT, crowd, l, m, oneRadio, out);
}

/**
 * The posterior mass of "one device" and of "travelled together" over the first `count` scored
 * pairs at rates l and m, into out[0] and out[1], summed in pair order. (A function of its own,
 * called once per iteration: the fit runs once per analysis, and a loop over every pair in a
 * function called once is compiled anew in every analysis.)
 */
function posteriorMass(logS: Float64Array, logT: Float64Array, crowd: Float64Array, oneRadio: Uint8Array | undefined, count: number, l: number, m: number, out: Float64Array, posterior: Float64Array): void {
  let massS = 0;
  let massT = 0;
  for (let entry = 0; entry < count; entry++) {
    coLocationPosteriors(logS[entry], logT[entry], crowd[entry], l, m, oneRadio === undefined || oneRadio[entry] === 1, posterior);
    massS += posterior[0];
    massT += posterior[1];
  }
  out[0] = massS;
  out[1] = massT;
}

/**
 * The fitted rates λ (sibling sets per chain) into rates[0] and μ (companions per chain) into
 * rates[1], from the first `count` scored pairs' evidence and crowds. `inverseCrowd` is Σ 1/crowd
 * over every pair compared, scored or screened out (co-location-candidates.ts): the pairs the
 * screen dropped count as pairs without posterior mass. `oneRadio[entry]` 0: the pair's
 * same-device mass is travelled together's (`posteriorsOf`).
 */
export function fitPriorRates(logS: Float64Array, logT: Float64Array, crowd: Float64Array, count: number, inverseCrowd: number, rates: Float64Array, oneRadio?: Uint8Array): void {
  let lambda = PRIOR_SAME;
  let mu = PRIOR_TRAVEL;
  const mass = new Float64Array(2);
  // One pair's posteriors, written over by each pair.
  const posterior = new Float64Array(2);
  for (let iteration = 0; iteration < MAX_ITERATIONS && count > 0; iteration++) {
    posteriorMass(logS, logT, crowd, oneRadio, count, lambda, mu, mass, posterior);
    const nextLambda = Math.min(CO_LOCATION_PRIOR_MAX, Math.max(PRIOR_MIN, mass[0] / inverseCrowd));
    const nextMu = Math.min(CO_LOCATION_COMPANIONS_MAX, Math.max(PRIOR_MIN, mass[1] / inverseCrowd));
    const settled = Math.abs(nextLambda - lambda) < SETTLED && Math.abs(nextMu - mu) < SETTLED;
    lambda = nextLambda;
    mu = nextMu;
    if (settled) break;
  }
  rates[0] = lambda;
  rates[1] = mu;
}
