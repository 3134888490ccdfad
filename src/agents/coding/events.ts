import { redactDeep, type Secret } from "../../core/redaction.ts";
import type { EventDraft, TrajectoryEvent } from "../../core/trajectory.ts";

/**
 * Building one step's trajectory events inside an adapter: ids `${stepId}-e${n}` (n from 1), the step id
 * and a timestamp filled in, and every string redacted before it is stored.
 */

/** An event as an adapter writes it: no id, and `step` / `ts` optional (filled in by {@link StepEventLog}). */
export type StepEventDraft = EventDraft extends infer E
  ? E extends EventDraft
    ? Omit<E, "step" | "ts"> & { ts?: number }
    : never
  : never;

/**
 * Ordered, redacted events of one step.
 *
 * @example
 * const log = new StepEventLog("S01", secretsFromEnv(env));
 * const ask = log.add({ type: "message", role: "user", text: prompt }); // "S01-e1"
 */
export class StepEventLog {
  readonly #stepId: string;
  readonly #secrets: readonly Secret[];
  readonly #events: TrajectoryEvent[] = [];

  /**
   * @param stepId id of the step; prefixes every event id
   * @param secrets values replaced by `[REDACTED:<NAME>]` in every string of every event
   */
  constructor(stepId: string, secrets: readonly Secret[]) {
    this.#stepId = stepId;
    this.#secrets = secrets;
  }

  /** Append an event (redacted; `ts` defaults to now, epoch ms) and return its id. */
  add(draft: StepEventDraft): string {
    const id = `${this.#stepId}-e${this.#events.length + 1}`;
    const event = { ...draft, id, step: this.#stepId, ts: draft.ts ?? Date.now() } as TrajectoryEvent;
    this.#events.push(redactDeep(event, this.#secrets));
    return id;
  }

  /** The events so far, in order (a copy). */
  list(): TrajectoryEvent[] {
    return [...this.#events];
  }
}

/**
 * Render an argv as a POSIX shell command line for display: words with characters outside
 * `[A-Za-z0-9_./:=,@%+-]` are single-quoted (a `'` becomes `'\''`); the empty string becomes `''`.
 *
 * @example formatCommandLine(["agent", "--prompt", "fix it's bug"]) // `agent --prompt 'fix it'\''s bug'`
 */
export function formatCommandLine(argv: readonly string[]): string {
  return argv
    .map((word) => (/^[A-Za-z0-9_./:=,@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`))
    .join(" ");
}
