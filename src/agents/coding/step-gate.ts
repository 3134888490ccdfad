import type { StepOutcome } from "./adapter.ts";

/**
 * One step at a time per agent session, and a session that can be closed (DESIGN.md "Coding agent
 * adapter"): a step asked for while another runs, or after `close()`, is refused with a reason; `close()`
 * aborts {@link closing}, which the running step's process watches, and waits for it to end.
 */
export class StepGate {
  /** Aborted by {@link close}: kills the step in flight. */
  readonly closing = new AbortController();
  #inFlight: Promise<StepOutcome> | undefined;

  /**
   * Run a step unless another is running or the session is closed.
   * @param run the step
   * @param refuse the outcome of a refused step, given the reason
   */
  async run(run: () => Promise<StepOutcome>, refuse: (why: string) => StepOutcome): Promise<StepOutcome> {
    if (this.#inFlight) return refuse("a step is already running in this session; run steps one at a time");
    if (this.closing.signal.aborted) return refuse("the session is closed");
    this.#inFlight = run();
    try {
      return await this.#inFlight;
    } finally {
      this.#inFlight = undefined;
    }
  }

  /** Close the session: abort the step in flight and wait for it to end. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.#inFlight?.catch(() => undefined);
  }
}
