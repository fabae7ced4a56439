import type { ProviderFailure } from '../provider-types.ts';

export const FIRST_BACKOFF_MS = 1_000;
export const MAX_BACKOFF_MS = 60_000;

/**
 * `maxRetries` with provider cycling (agent-contract.md §2, §3): attempt N of a turn goes to
 * `targets[(N-1) % length]`; a rate limit waits its Retry-After, else backs off exponentially
 * 1 s → 60 s, and the maximum when every target of a cycle was limited. Auth and quota end the
 * session; every other failure is retried at once. Pure: the loop sleeps on what it returns.
 */
export class RetryPolicy {
  private readonly notBefore = new Map<number, number>();
  private rateLimits = 0;
  private readonly limitedThisCycle = new Set<number>();

  constructor(private readonly targetCount: number) {}

  /** Resets the per-turn counters (the not-before times carry over: they are the provider's). */
  startTurn(): void {
    this.rateLimits = 0;
    this.limitedThisCycle.clear();
  }

  /** The target of an attempt (1-based). */
  targetOf(attempt: number): number {
    const index = (attempt - 1) % this.targetCount;
    if (index === 0) this.limitedThisCycle.clear();
    return index;
  }

  /** How long to wait before sending to `target` now. */
  waitBefore(target: number, now: number): number {
    return Math.max(0, (this.notBefore.get(target) ?? 0) - now);
  }

  static isFatal(failure: ProviderFailure): boolean {
    return failure.kind === 'auth' || failure.kind === 'quota';
  }

  /** Records a failure of `target`; returns the wait it imposes (0 except for rate limits). */
  onFailure(target: number, failure: ProviderFailure, now: number): number {
    if (failure.kind !== 'rate_limit') return 0;
    this.rateLimits += 1;
    this.limitedThisCycle.add(target);
    const everyTargetLimited = this.targetCount > 1 && this.limitedThisCycle.size === this.targetCount;
    const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.rateLimits - 1));
    const waitMs = failure.retryAfterMs ?? (everyTargetLimited ? MAX_BACKOFF_MS : backoff);
    const until = now + waitMs;
    const limited = everyTargetLimited && failure.retryAfterMs === undefined ? [...Array(this.targetCount).keys()] : [target];
    for (const index of limited) this.notBefore.set(index, Math.max(this.notBefore.get(index) ?? 0, until));
    return waitMs;
  }
}
