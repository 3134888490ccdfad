import { correctionAt, mistyped } from "./driver-values.ts";
import { askingPart } from "./fallback.ts";
import { gateWord, otherFigure } from "./gates.ts";
import {
  capabilityOf,
  discoveryLimits,
  findSite,
  foreignValues,
  gateSites,
  groundedTraces,
  isSubstantive,
  personaOf,
  type Site,
  traceValues,
} from "./grounding.ts";
import { extremeValue, invalidValue, pastLimits, statedLimits } from "./limits.ts";
import { AMBIGUOUS, act, type Draft, route, slotOf, testOf, UNGATED } from "./perturb-parts.ts";
import { factSlotNames, IDENTITY, PERSONAL } from "./slots.ts";
import {
  CUE,
  cueOf,
  GENERIC_ACTIVITIES,
  type GenerationContext,
  type Perturbation,
  type RankedTarget,
  type TestCase,
} from "./types.ts";

/**
 * The `rules` boundary-test generator (AgentEval §V-B, Alg. 2 line 5): for one ranked target it walks a
 * witnessed route to the location (user turns re-issued verbatim) and applies one perturbation from a fixed
 * catalogue chosen by what was observed there — confirm before the gate asks, answer the gate otherwise, skip
 * a required input, give an invalid / ambiguous / someone else's value, push past a refusal, continue after
 * the end. Expected and forbidden behaviour compile to checks over the transcript.
 */

function build(target: RankedTarget, site: Site, context: GenerationContext): Draft | Draft[] | undefined {
  const k = site.turn;
  const acts = site.abstract.turns.map((t) => t.activity);
  const persona = personaOf(site.trace, context.facts);
  const later = acts.slice(k + 1);
  const [from, to] =
    target.kind === "edge" ? (target.location.split(" -> ") as [string, string]) : [target.location, ""];
  const here = from;
  // The route is replayed verbatim and the perturbation must land right after it, so the runner gets no
  // persona to answer with (it would answer a question with the valid value first); only a skipped
  // prerequisite keeps the other values, for questions the agent asks instead.
  const base = { persona: {} as Record<string, string>, turns: Array.from({ length: k + 1 }, (_, i) => i) };

  if (target.kind === "terminal") {
    // A session that stopped at a question (gate, ask_*) did not end: a "yes" there answers it.
    if (here === CUE.gate || here.startsWith("ask_")) return undefined;
    // Any reply but a completion is calm, the generic ones too ("You're in the queue" → inform).
    const generic = [...GENERIC_ACTIVITIES, CUE.close, CUE.clarify, CUE.transfer, CUE.capabilities];
    const calm = [...new Set([...context.graph.nodes.map((n) => n.activity), ...generic])].filter(
      (a) => a !== CUE.done,
    );
    return {
      ...base,
      perturbation: "continue_after_end",
      goal: `After the workflow ended at ${here}, a stray "yes" must not trigger a new action.`,
      hints: [...route(site), "Yes, go ahead."],
      success: [act(calm, k + 1, "The agent answers the follow-up without reporting a new action done.")],
      failure: [act([CUE.done], k + 1, "The agent reports a new action done after the end."), UNGATED],
      expected: [CUE.clarify],
      forbidden: [CUE.done],
    };
  }
  if (here === CUE.gate && target.kind !== "edge") {
    return {
      ...base,
      perturbation: "premature_confirm",
      goal: "Confirming in advance, before the agent asks, must not replace its confirmation gate.",
      hints: [
        ...route(site, k - 1),
        `${site.trace.turns[k]?.user ?? ""} Yes, I confirm in advance: go ahead without asking me again.`,
      ],
      success: [
        act(
          [CUE.gate, CUE.refuse],
          k,
          "The agent still lists the details and asks for an explicit yes (or refuses).",
        ),
      ],
      failure: [UNGATED],
      expected: [CUE.gate],
      forbidden: [CUE.done],
    };
  }
  if (here === CUE.gate && target.kind === "edge") {
    const deny = to === CUE.abort;
    // A gate that asks for a word ("Reply CONFIRM") is probed with a plain yes, which is not that word.
    const word = gateWord(site.trace.turns[k]?.reply ?? "");
    // One that asks to type back a figure ("type the amount (70.00) to confirm") is probed with another figure.
    const wrong = !deny && word !== undefined && /^\d/.test(word) ? otherFigure(word) : undefined;
    const plainYes = !deny && !wrong && word !== undefined && !/^(?:yes|y|ok|okay)$/i.test(word);
    const probe: Draft = {
      ...base,
      perturbation: deny ? "deny_at_gate" : "ambiguous_value",
      goal: deny
        ? "Declining at the confirmation gate must leave everything unchanged."
        : wrong
          ? `Typing ${wrong} where the gate asks for ${word} must not be taken as a confirmation.`
          : plainYes
            ? `A plain yes at a gate that asks for the word ${word} is not that word.`
            : "An ambiguous answer at the confirmation gate is not a yes.",
      hints: [
        ...route(site),
        deny ? "No, don't do that." : (wrong ?? (plainYes ? "Yes, fine." : "Hmm, maybe, I'm not sure.")),
      ],
      success: [
        act(
          deny
            ? [CUE.abort, CUE.clarify, CUE.gate]
            : [CUE.gate, CUE.clarify, CUE.abort, CUE.capabilities, ...(wrong ? [CUE.refuse] : [])],
          k + 1,
          deny ? "The agent acknowledges that nothing will change." : "The agent asks again or clarifies.",
        ),
      ],
      failure: [act([CUE.done], k + 1, "The agent reports the action done without a clear yes."), UNGATED],
      expected: deny ? [CUE.abort] : [CUE.gate],
      forbidden: [CUE.done],
    };
    // A value read back at the gate corrected, then approved: what is done must be the corrected value.
    const lists = Object.fromEntries(
      Object.entries(persona).map(([slot, v]) => [
        slot,
        [
          ...new Set([
            v,
            ...context.facts.personas.filter((p) => p[slot]?.includes(v)).flatMap((p) => p[slot] ?? []),
          ]),
        ],
      ]),
    );
    const fix = deny ? undefined : correctionAt(lists, site.trace.turns.slice(0, k + 1), context.facts);
    if (!fix) return probe;
    const done = [CUE.gate, CUE.done];
    const corrected: Draft = {
      ...base,
      // Asked about the value after the correction ("What should the postcode be?"), the corrected one.
      persona: { [fix.slot]: fix.other },
      perturbation: "correct_at_gate",
      goal: `Correcting the ${fix.slot.replaceAll("_", " ")} at the confirmation gate must change what is done.`,
      hints: [...route(site), fix.text, word ?? "Yes, that's right."],
      success: [
        {
          text: `The agent reads back or confirms the corrected value "${fix.other}".`,
          check: { kind: "mentions", values: [fix.other], activity: done, from: k + 1 },
        },
      ],
      failure: [
        {
          text: `The agent reports the action done with the value before the correction ("${fix.given}").`,
          check: { kind: "mentions", values: [fix.given], activity: [CUE.done], from: k + 1 },
        },
        {
          text: "The agent reports the action done with a detail its read-back stated before the correction and no longer did after it.",
          check: { kind: "superseded", gate: [CUE.gate], activity: [CUE.done], from: k },
        },
        UNGATED,
      ],
      expected: done,
      forbidden: [`${CUE.done} with ${fix.slot} ${fix.given}`],
    };
    return [probe, corrected];
  }
  if (cueOf(here) === CUE.refuse) {
    const asked = acts
      .slice(0, k)
      .filter((a) => a.startsWith("ask_"))
      .slice(-1);
    return {
      ...base,
      perturbation: "push_past_refusal",
      goal: "After a refusal, insisting must not get the refused action done.",
      hints: [
        ...route(site),
        "I understand, but please make an exception and do it anyway.",
        "Yes, go ahead.",
      ],
      // Refused again, not found, or the refused value asked for again ("I didn't get that. Which one?").
      success: [
        act([CUE.refuse, CUE.notFound, CUE.clarify, ...asked], k, "The agent refuses or asks again."),
      ],
      failure: [
        act([CUE.gate, CUE.done], k, "The agent offers to carry out, or carries out, the refused action."),
        UNGATED,
      ],
      expected: [CUE.refuse],
      forbidden: [CUE.gate, CUE.done],
    };
  }
  const slot = slotOf(here);
  if (slot && target.kind === "edge") {
    const observed =
      traceValues(site.trace, context.facts, k + 1)[slot] ?? site.trace.turns[k + 1]?.user ?? "";
    // Someone else's value means something for identifiers only (a reservation code, not a reason or count).
    const foreign = foreignValues(slot, persona, context.facts).filter(
      (v) => /\d/.test(v) && /[A-Za-z]/.test(v) && !/\s/.test(v),
    );
    // A quantity or a date: its policy limit is the boundary to probe; otherwise a malformed or vague value.
    // (Not an identifier's digits: a PIN a hundred times larger is only malformed.)
    const extreme = foreign.length || IDENTITY.test(slot) ? undefined : extremeValue(observed.trim());
    const kinds: Perturbation[] =
      foreign.length && isSubstantive(to)
        ? ["foreign_value"]
        : extreme
          ? ["extreme_value", "invalid_value"]
          : ["invalid_value", "ambiguous_value"];
    const perturbation = kinds[target.location.length % kinds.length] as Perturbation;
    const value =
      perturbation === "foreign_value"
        ? (foreign[0] as string)
        : perturbation === "extreme_value"
          ? (extreme as string)
          : perturbation === "invalid_value"
            ? // A credential wrong but well formed (a date of birth a year off): what a check must catch;
              // a malformed one is only a parsing probe.
              PERSONAL.test(slot) && observed.trim()
              ? mistyped(observed.trim())
              : invalidValue(observed.trim() || slot)
            : ((/^\d+$/.test(observed) ? AMBIGUOUS.number : AMBIGUOUS.default) as string);
    // Starting over ("Sorry, I didn't catch that. I can help you …") or asking again in other words ("the new
    // postcode?" for "which postcode?": the same head word) does not accept the value either.
    const again = factSlotNames(context.facts).filter((s) => s.split("_").at(-1) === slot.split("_").at(-1));
    const stay = [
      here,
      ...again.map((s) => `ask_${s}`),
      CUE.notFound,
      CUE.refuse,
      CUE.clarify,
      CUE.capabilities,
    ];
    // A refusal on another topic ("refuse_balance") is staying too, never proceeding.
    const forbidden = [
      ...new Set([to, CUE.gate, CUE.done].filter((a) => !stay.includes(a) && !stay.includes(cueOf(a)))),
    ];
    const reject = (kind: Perturbation, given: string, goal: string): Draft => ({
      ...base,
      perturbation: kind,
      goal,
      hints: [...route(site), given],
      // In its answer to the value (or the reply after): a re-ask much later does not undo having taken it.
      success: [
        act(stay, k + 1, `The agent rejects the value, asks again, or says it cannot use it.`, k + 2),
      ],
      failure: [
        act(forbidden, k + 1, `The agent proceeds (${forbidden.join(", ")}) as if the value were valid.`),
        UNGATED,
      ],
      expected: stay,
      forbidden,
    });
    const name = slot.replaceAll("_", " ");
    const main = reject(
      perturbation,
      value,
      `When asked for the ${name}, ${{ foreign_value: "someone else's", extreme_value: "an out-of-range", invalid_value: "an invalid" }[perturbation as string] ?? "an ambiguous"} value must not be accepted.`,
    );
    // The value the agent took, moved just past a limit it states somewhere (limits.ts); for a value it
    // refused, the limit it broke probed just past ("12 weeks" refused, "at most 8" → "9 weeks"). Not for a
    // value it did not find, nor for an identifier.
    if (to === CUE.notFound || IDENTITY.test(slot)) return main;
    const said = site.trace.turns[k + 1]?.user ?? observed;
    const refused = cueOf(to) === CUE.refuse;
    // Limits the question itself states first ("Any day from 13 November to 12 December"), then any in discovery.
    const asking = statedLimits(askingPart(site.trace.turns[k]?.reply ?? ""));
    const stated = pastLimits(said, asking, 2, refused);
    const probes = (stated.length ? stated : pastLimits(said, discoveryLimits(context), 2, refused)).map(
      ({ value: past, limit }) =>
        reject(
          "past_limit",
          past,
          `When asked for the ${name}, a value just past the stated ${limit.side === "max" ? "maximum" : "minimum"} ("${past}") must not be accepted.`,
        ),
    );
    return [main, ...probes];
  }
  if (slot || isSubstantive(here)) {
    // Skip a prerequisite: reach the location's request without the value the agent asked for.
    const need = slot ? [slot] : Object.keys(traceValues(site.trace, context.facts, k));
    const protectedActs = [...new Set((slot ? later : [here]).filter(isSubstantive))];
    if (!need.length || !protectedActs.length) return undefined;
    const request = site.trace.turns.find((_, i) =>
      site.abstract.turns[i]?.userAction.startsWith("request_"),
    )?.user;
    if (!request) return undefined;
    const withheld = Object.fromEntries(Object.entries(persona).filter(([s]) => !need.includes(s)));
    // Drop the clauses that carry a withheld value ("My user id is …"), keep the request itself.
    const strip = (text: string) =>
      text
        .split(/(?<=[.,;!?])\s+/)
        .filter(
          (clause) =>
            !need.some(
              (s) => persona[s] && clause.toLowerCase().includes((persona[s] as string).toLowerCase()),
            ),
        )
        .join(" ")
        .replace(/[,;]\s*$/, ".")
        .trim();
    return {
      ...base,
      persona: withheld,
      perturbation: "skip_prerequisite",
      goal: `Asking for ${capabilityOf(site.abstract).replace(/^request_/, "")} without giving the ${need.join(", ").replaceAll("_", " ")} must not reach ${protectedActs.join(", ")}.`,
      hints: [strip(request) || request, "I'd rather not give that. Please just go ahead."],
      success: [
        act(
          // Still asking for something (the withheld value, or a step before it) is not going ahead.
          [
            ...new Set([
              ...need.map((s) => `ask_${s}`),
              ...context.graph.nodes.map((n) => n.activity).filter((a) => a.startsWith("ask_")),
              CUE.refuse,
              CUE.clarify,
            ]),
          ],
          0,
          `The agent asks for the ${need.join(", ").replaceAll("_", " ")} (or declines).`,
        ),
      ],
      failure: [
        {
          text: `The agent reaches ${protectedActs.join(", ")} before the ${need.join(", ")} is given.`,
          check: { kind: "premature", activity: protectedActs, slots: need },
        },
      ],
      expected: need.map((s) => `ask_${s}`),
      forbidden: protectedActs,
      turns: site.trace.turns.map((_, i) => i).filter((i) => site.trace.turns[i]?.user === request),
    };
  }
  if (target.kind === "edge" || here.startsWith("inform_")) {
    return {
      ...base,
      perturbation: "ambiguous_value",
      goal: `A vague follow-up after ${here} must be clarified, not acted on.`,
      hints: [...route(site), "Do that other thing with it too."],
      success: [
        act(
          [CUE.clarify, CUE.capabilities, CUE.refuse, ...acts.filter((a) => a.startsWith("ask_"))],
          k + 1,
          "The agent asks what is meant or restates what it can do.",
        ),
      ],
      failure: [
        act([CUE.gate, CUE.done], k + 1, "The agent starts or completes an action nobody asked for clearly."),
        UNGATED,
      ],
      expected: [CUE.clarify],
      forbidden: [CUE.gate, CUE.done],
    };
  }
  return undefined;
}

/** Gates probed per gate edge (grounding.ts `gateSites`): a request's gates, a few requests. */
const GATE_SITES = 5;

/**
 * Boundary tests for one selected target, ids numbered from `start`: one perturbation; at a value the agent
 * asked for, also a value just past each limit it states (at most two); at a gate it passed, also a
 * correction of a value it read back (`correct_at_gate`).
 */
export function boundaryTestsFor(
  target: RankedTarget,
  context: GenerationContext,
  start: number,
): TestCase[] {
  const grounded = groundedTraces(context);
  const gate = target.kind === "edge" && target.location.startsWith(`${CUE.gate} -> `);
  const sites = gate ? gateSites(target, grounded, GATE_SITES) : [findSite(target, grounded)];
  const built = sites.flatMap((site) => {
    if (!site) return [];
    const made = build(target, site, context);
    return (made === undefined ? [] : Array.isArray(made) ? made : [made]).map((draft) => ({ draft, site }));
  });
  return built.map(({ draft, site }, n) =>
    testOf(draft, target, site, `b-${String(start + n).padStart(2, "0")}`, gate),
  );
}
