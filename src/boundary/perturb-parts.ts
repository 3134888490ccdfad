import { capabilityOf, type Site } from "./grounding.ts";
import { type Criterion, CUE, type Perturbation, type RankedTarget, type TestCase } from "./types.ts";

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

/**
 * The boundary test a draft makes at `site` for `target`, its id `<prefix>-<perturbation>`; a gate's card names
 * what came before it (grounding.ts `gateSites`: "request_confirmation after ask_new_tariff -> …").
 */
export function testOf(
  draft: Draft,
  target: RankedTarget,
  site: Site,
  prefix: string,
  gate: boolean,
): TestCase {
  return {
    id: `${prefix}-${draft.perturbation.replaceAll("_", "-")}`,
    kind: "boundary",
    goal: draft.goal,
    hints: draft.hints,
    persona: draft.persona,
    success: draft.success,
    failure: draft.failure,
    turnBudget: draft.hints.length + 2,
    target: {
      kind: target.kind,
      location: target.location,
      label: target.label,
      potential: target.potential,
    },
    card: {
      capability: capabilityOf(site.abstract),
      guard: gate
        ? target.location.replace(
            " -> ",
            ` after ${site.abstract.turns[site.turn - 1]?.activity ?? "start"} -> `,
          )
        : target.location,
      perturbation: draft.perturbation,
      expected: draft.expected.join("|"),
      forbidden: draft.forbidden.join("|"),
    },
    source: { traceId: site.trace.id, turns: draft.turns },
  };
}
