/**
 * The project's one queue mechanism (agent-contract.md §1 "MCP Tool Queues", §7 "Queue
 * Validation"): a named queue runs at most `concurrent` executions at once; further requests
 * wait their turn, first come first served, and a waiting request whose signal aborts leaves the
 * line without ever running. The planner's tool executions, the app's worker pool and
 * `sextant mcp serve` all bound their work with it.
 */

/** What a queue says about one admission, for telemetry and accounting. */
export interface QueueAdmission {
  queue: string;
  /** Requests already waiting when this one arrived (0: it found a free slot at once or was first in line). */
  depth: number;
  /** How long it waited for its slot, in ms of the queue's clock. */
  waitedMs: number;
}

export interface QueueSnapshot {
  name: string;
  concurrent: number;
  running: number;
  waiting: number;
}

interface Waiter {
  admit: () => void;
}

export class WorkQueue {
  private active = 0;
  private line: Waiter[] = [];

  constructor(
    readonly name: string,
    private limit: number,
    private readonly now: () => number = () => 0,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`queue '${name}': concurrent must be an integer >= 1, not ${String(limit)}`);
  }

  get concurrent(): number {
    return this.limit;
  }

  /** Changes the bound; waiting requests are admitted at once when it grows. */
  set concurrent(value: number) {
    this.limit = Math.max(1, Math.floor(value));
    this.admitWaiting();
  }

  snapshot(): QueueSnapshot {
    return { name: this.name, concurrent: this.limit, running: this.active, waiting: this.line.length };
  }

  /**
   * Waits for a slot. Resolves with a `release` to call exactly once when the work is over, or
   * null when `signal` aborted first (the request then never held a slot).
   */
  acquire(signal?: AbortSignal): Promise<{ release: () => void; admission: QueueAdmission } | null> {
    if (signal?.aborted) return Promise.resolve(null);
    const arrived = this.now();
    const depth = this.line.length;
    return new Promise((resolve) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.active += 1;
        let released = false;
        resolve({
          release: () => {
            if (released) return;
            released = true;
            this.active -= 1;
            this.admitWaiting();
          },
          admission: { queue: this.name, depth, waitedMs: this.now() - arrived },
        });
      };
      const waiter: Waiter = { admit: grant };
      const onAbort = () => {
        this.line = this.line.filter((other) => other !== waiter);
        resolve(null);
      };
      if (this.active < this.limit && this.line.length === 0) return grant();
      this.line.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Runs `work` in a slot; `null` when the signal aborted while it waited. */
  async run<T>(work: (admission: QueueAdmission) => Promise<T>, signal?: AbortSignal): Promise<{ value: T; admission: QueueAdmission } | null> {
    const slot = await this.acquire(signal);
    if (!slot) return null;
    try {
      return { value: await work(slot.admission), admission: slot.admission };
    } finally {
      slot.release();
    }
  }

  private admitWaiting(): void {
    while (this.active < this.limit && this.line.length > 0) this.line.shift()!.admit();
  }
}

/** `queues.<name>.concurrent` as a configuration writes it. */
export type QueueConfig = Readonly<Record<string, { concurrent: number }>>;

/** The queue every unbound tool uses; added when the configuration does not name it. */
export const DEFAULT_QUEUE = 'default';

/** One binding of something (an MCP server, a tool) to a queue, named for the error message. */
export interface QueueBinding {
  /** Who is bound, e.g. `mcpServers.everything`. */
  owner: string;
  queue: string;
}

export type QueueSetResult = { ok: true; queues: QueueSet } | { ok: false; message: string };

/** The configured queues by name, with the default one always present. */
export class QueueSet {
  private readonly byName = new Map<string, WorkQueue>();

  private constructor(config: QueueConfig, defaultConcurrent: number, now: () => number) {
    for (const [name, { concurrent }] of Object.entries(config)) this.byName.set(name, new WorkQueue(name, concurrent, now));
    if (!this.byName.has(DEFAULT_QUEUE)) this.byName.set(DEFAULT_QUEUE, new WorkQueue(DEFAULT_QUEUE, defaultConcurrent, now));
  }

  /**
   * Builds the queues and validates every binding at start-up (§7): a binding to a queue that
   * does not exist is refused with a message naming the owner, the queue and the ones there are.
   */
  static create(config: QueueConfig, bindings: ReadonlyArray<QueueBinding>, options: { defaultConcurrent: number; now?: () => number }): QueueSetResult {
    for (const [name, entry] of Object.entries(config)) {
      const concurrent = (entry as { concurrent?: unknown } | null)?.concurrent;
      if (!Number.isInteger(concurrent) || (concurrent as number) < 1) return { ok: false, message: `queues.${name}.concurrent must be an integer >= 1` };
    }
    const set = new QueueSet(config, options.defaultConcurrent, options.now ?? (() => 0));
    for (const binding of bindings) {
      if (!set.byName.has(binding.queue)) {
        return { ok: false, message: `${binding.owner} is bound to queue '${binding.queue}', which is not configured; the queues are: ${[...set.byName.keys()].join(', ')} (add queues.${binding.queue}.concurrent)` };
      }
    }
    return { ok: true, queues: set };
  }

  /** The named queue; the default one for a name that has none (bindings were checked at start-up). */
  get(name: string = DEFAULT_QUEUE): WorkQueue {
    return this.byName.get(name) ?? this.byName.get(DEFAULT_QUEUE)!;
  }

  snapshot(): QueueSnapshot[] {
    return [...this.byName.values()].map((queue) => queue.snapshot());
  }
}
