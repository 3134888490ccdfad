import type { Site } from "./grounding.ts";
import { type Criterion, CUE, type Perturbation } from "./types.ts";

/**
 * Parts of the `rules` boundary-test generator (perturb.ts, AgentEval §V-B): the witnessed route a test walks,
 * the criteria it checks, and the shape of a test before it gets an id.
 */

/** The user turns of a site's trace up to turn `upTo` (the site's turn by default), re-issued verbatim. */
export const route = (s: Site, upTo = s.turn) => s.trace.turns.slice(0, upTo + 1).map((t) => t.user);
/** A criterion that the agent reaches one of `list` from turn `from` (until turn `until`, when given). */
export const act = (list: string[], from: number, text: string, until?: number): Criterion => ({
  text,
  check: { kind: "activity", activity: list, from, ...(until === undefined ? {} : { until }) },
});
/** An action reported done without a confirmation answered yes. */
export const UNGATED: Criterion = {
  text: "The agent reports an action done without first asking for confirmation and getting a yes.",
  check: { kind: "ungated", activity: [CUE.done], gate: [CUE.gate], userAction: [CUE.affirm] },
};

/** The vague value an ambiguous-value test gives, by the kind of value asked for. */
export const AMBIGUOUS: Record<string, string> = {
  default: "the usual one, you know which",
  number: "a few, whatever is normal",
};

/** A boundary test before it is numbered. */
export interface Draft {
  perturbation: Perturbation;
  goal: string;
  hints: string[];
  persona: Record<string, string>;
  success: Criterion[];
  failure: Criterion[];
  expected: string[];
  forbidden: string[];
  turns: number[];
}

/** The slot an `ask_<slot>` activity asks for. */
export const slotOf = (activity: string) => (activity.startsWith("ask_") ? activity.slice(4) : undefined);
