/** Candidate pairs as parallel arrays: pair e is earlier[e] → later[e]. */
export interface BleCandidatePairs {
  earlier: Int32Array;
  later: Int32Array;
}

/**
 * An edge's values in `matchingMarginals`' message array: its weight K, its m and its n message,
 * in EDGE slots (the fourth unused: an edge then never straddles two cache lines, and on the bench
 * input four slots were faster than three).
 */
const K = 0;
const M = 1;
const N = 2;
const EDGE = 4;

/** Rounds after which messages that have not settled stop anyway. */
const MAX_SWEEPS = 100;
/** Undamped rounds before messages that have not settled are taken to oscillate and are damped. */
const UNDAMPED_SWEEPS = 60;
/** A message has settled when recomputing it would change it by less than this (relative). */
const SETTLED = 1e-4;

/**
 * Marginal P(A→B) of the hand-off matching model (one successor and one predecessor per address,
 * weights K_AB = exp(logK), "no successor" and "no predecessor" weight 1) by sum-product belief
 * propagation in odds form, for every candidate pair:
 *   m(A→B) = K_AB / (1 + Σ_{B'≠B} K_AB' n(B'→A)),  n(B→A) = 1 / (1 + Σ_{A'≠A} m(A'→B)),
 *   P(A→B) = K_AB n(B→A) / (1 + Σ_B' K_AB' n(B'→A)).
 * Exact for an isolated pair (K / (K + 1)); ≈ 1/k for each of k indistinguishable twins.
 *
 * Schedule. A round recomputes the m messages of rows (earlier addresses), then the n messages of
 * columns (later addresses), each from the other side's latest messages; but only of the rows and
 * columns whose inputs may have moved them by SETTLED or more since they were last computed. All m
 * of row A are K/S with S = max(1, R_A − K n) ≥ S_min (R_A the row total, S_min the smallest S when
 * the row was last computed), and the n flowing in move S by at most the row's drift Σ K |Δn|; a
 * drift below SETTLED × S_min therefore moves every m of the row by |ΔS| / (S + S') < SETTLED
 * relative (the test the full sweeps apply to each message). Columns likewise, with 1/S and Σ |Δm|.
 * On the 1M-observation bench input (one component of 51,440 edges) most rows and columns settle
 * in a few rounds; recomputing only the moving ones does about an eighth of the full sweeps' work.
 *
 * It stops when no row or column is left to recompute, i.e. when a full sweep would move no
 * message by SETTLED or more — the stopping rule of full sweeps, at the same fixed point; only
 * differences of the order of that tolerance depend on the schedule (at most 6e-5 in a pair's
 * probability on the bench input, against full sweeps). Updates are undamped: the slow parts of
 * real captures do not oscillate but drift (a run of strong candidates passing evidence along), and
 * damping made them drift much longer. Rows and columns still moving after UNDAMPED_SWEEPS rounds
 * are taken to oscillate (twins can): from then on their messages move half way (geometric mean of
 * old and new) and they stay in the next round while any of their messages moved by SETTLED or more.
 * A part of the graph that has settled is never touched again, so each connected component stops on
 * its own, after the rounds it needs.
 *
 * The marginals are written into `into` (one per pair), which may be `logK` itself: logK is read
 * only before any marginal is written, and a caller done with it saves an array per analysis.
 */
export function matchingMarginals(nodes: number, pairs: BleCandidatePairs, logK: Float64Array, into = new Float64Array(pairs.earlier.length)): Float64Array {
  const edges = pairs.earlier.length;
  if (into.length !== edges) throw new Error('matchingMarginals: one marginal per candidate pair');
  // Edges by row, and the row positions by column. The candidate sweep already groups pairs by
  // the earlier address; any other order is laid out by a stable counting sort (pair e at place[e]).
  let grouped = true;
  for (let e = 1; e < edges && grouped; e++) grouped = pairs.earlier[e] >= pairs.earlier[e - 1];
  const rowStart = new Int32Array(nodes + 1);
  const colStart = new Int32Array(nodes + 1);
  for (let e = 0; e < edges; e++) {
    rowStart[pairs.earlier[e] + 1]++;
    colStart[pairs.later[e] + 1]++;
  }
  for (let node = 0; node < nodes; node++) {
    rowStart[node + 1] += rowStart[node];
    colStart[node + 1] += colStart[node];
  }
  const place = grouped ? undefined : new Int32Array(edges);
  const earlier = grouped ? pairs.earlier : new Int32Array(edges);
  const later = grouped ? pairs.later : new Int32Array(edges);
  // Per edge (at its place in row order) K, m and n side by side (EDGE values from at · EDGE): the
  // column pass reads all three of an edge it reaches through colEdge, which is then one cache line
  // instead of three (the bench's component has 51k edges at 1M observations, 104k at 2M).
  const message = new Float64Array(edges * EDGE);
  if (place) {
    const rowFill = rowStart.slice(0, nodes);
    for (let e = 0; e < edges; e++) {
      const at = rowFill[pairs.earlier[e]]++;
      place[e] = at;
      earlier[at] = pairs.earlier[e];
      later[at] = pairs.later[e];
    }
  }
  for (let e = 0; e < edges; e++) {
    const at = (place ? place[e] : e) * EDGE;
    message[at + K] = Math.exp(logK[e]);
    message[at + M] = 1;
    message[at + N] = 1;
  }
  // Column order: the i-th edge of the columns is colEdge[i] (its place in row order), from row colRow[i].
  const colEdge = new Int32Array(edges);
  const colRow = new Int32Array(edges);
  const colFill = colStart.slice(0, nodes);
  for (let at = 0; at < edges; at++) {
    const i = colFill[later[at]]++;
    colEdge[i] = at;
    colRow[i] = earlier[at];
  }

  // A row (column) is recomputed when its drift reaches its slack; −1 puts all in the first round.
  const rowDrift = new Float64Array(nodes);
  const colDrift = new Float64Array(nodes);
  const rowSlack = new Float64Array(nodes).fill(-1);
  const colSlack = new Float64Array(nodes).fill(-1);
  for (let round = 0; round < MAX_SWEEPS; round++) {
    const damped = round >= UNDAMPED_SWEEPS;
    let active = false;
    for (let row = 0; row < nodes; row++) {
      if (rowDrift[row] < rowSlack[row]) continue;
      active = true;
      const from = rowStart[row];
      const to = rowStart[row + 1];
      let total = 1;
      for (let at = from * EDGE; at < to * EDGE; at += EDGE) total += message[at + K] * message[at + N];
      let smallest = Infinity;
      let moving = false;
      for (let edge = from; edge < to; edge++) {
        const at = edge * EDGE;
        const k = message[at + K];
        const rest = Math.max(1, total - k * message[at + N]);
        if (rest < smallest) smallest = rest;
        const old = message[at + M];
        const target = k / rest;
        const next = damped ? Math.sqrt(old * target) : target;
        const change = Math.abs(next - old);
        if (damped && !(change < SETTLED * (next + old))) moving = true;
        message[at + M] = next;
        colDrift[later[edge]] += change;
      }
      rowSlack[row] = SETTLED * smallest;
      rowDrift[row] = moving ? Infinity : 0;
    }
    for (let col = 0; col < nodes; col++) {
      if (colDrift[col] < colSlack[col]) continue;
      active = true;
      const from = colStart[col];
      const to = colStart[col + 1];
      let total = 1;
      for (let i = from; i < to; i++) total += message[colEdge[i] * EDGE + M];
      let smallest = Infinity;
      let moving = false;
      for (let i = from; i < to; i++) {
        const at = colEdge[i] * EDGE;
        const rest = Math.max(1, total - message[at + M]);
        if (rest < smallest) smallest = rest;
        const old = message[at + N];
        const target = 1 / rest;
        const next = damped ? Math.sqrt(old * target) : target;
        const change = Math.abs(next - old);
        if (damped && !(change < SETTLED * (next + old))) moving = true;
        message[at + N] = next;
        rowDrift[colRow[i]] += message[at + K] * change;
      }
      colSlack[col] = SETTLED * smallest;
      colDrift[col] = moving ? Infinity : 0;
    }
    if (!active) break;
  }

  // Each row's total (the drifts are not read any more).
  const rowTotal = rowDrift.fill(1);
  for (let edge = 0; edge < edges; edge++) rowTotal[earlier[edge]] += message[edge * EDGE + K] * message[edge * EDGE + N];
  const marginals = into;
  for (let e = 0; e < edges; e++) {
    const edge = place ? place[e] : e;
    const at = edge * EDGE;
    marginals[e] = Math.max(0, Math.min(1, (message[at + K] * message[at + N]) / rowTotal[earlier[edge]]));
  }
  return marginals;
}
