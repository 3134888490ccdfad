/**
 * A counting semaphore (issue 3 §1): at most `limit` model calls in flight per client; the rest wait in
 * FIFO order.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  /** @throws RangeError when `limit` is not a positive integer */
  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  /** Calls running now. */
  get inFlight(): number {
    return this.active;
  }

  /** Run `task` once a slot is free; the slot is released when it settles, whether it resolves or throws. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays the same.
      if (next) next();
      else this.active--;
    }
  }
}
