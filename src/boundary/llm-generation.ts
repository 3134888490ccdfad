import { z } from "zod";
import type { ModelClient } from "../models/client.ts";
import { activitiesOf, counts, examples, personaLines, transcript } from "./llm-prompt.ts";
import {
  type Check,
  Criterion,
  CUE,
  type GenerationContext,
  type Generator,
  Perturbation,
  type RankedTarget,
  TestCase,
} from "./types.ts";

/**
 * The `llm` test generator (AgentEval §V; the ranker that selects its targets is in `llm-ranker.ts`). It
 * writes functional tests from the raw traces in rounds (§V-A) and boundary tests per selected target,
 * grounded in the behaviour observed there (§V-B).
 * What the model writes is checked in code: every test must fit {@link TestCase}, cite a real trace, and name
 * no identifier that appears in no trace turn and no facts value; checks naming unknown labels are removed.
 */

/** Id-like tokens (reservation codes such as `HAT1A1`, user ids such as `mia_li_3668`) grounding looks for. */
const ID_PATTERNS = [/\b[A-Z0-9]{6}\b/g, /\b[a-z]+_[a-z]+_\d{4}\b/g];

/**
 * Id-like tokens of `texts` that appear (case-insensitively, as a whole word) in no trace turn (user or agent)
 * and no facts value or request: values a generated test invented (AgentEval §V-A: every concrete value is
 * copied from a trace turn or the seed). Id-like: six capitals/digits (`HAT1A1`) or `word_word_1234`.
 */
export function ungroundedTokens(texts: readonly string[], context: GenerationContext): string[] {
  const corpus = [
    ...context.traces.flatMap((t) => t.turns.flatMap((u) => [u.user, u.reply])),
    ...context.facts.personas.flatMap((p) => Object.values(p).flat()),
    ...context.facts.requests,
  ];
  // Compared case-insensitively, so a shouted word of the traces (`CANCEL`) is not taken for a code.
  const known = new Set(corpus.flatMap((text) => text.toLowerCase().match(/[a-z0-9_]+/g) ?? []));
  const found = texts.flatMap((text) => ID_PATTERNS.flatMap((re) => text.match(re) ?? []));
  return [...new Set(found.filter((token) => !known.has(token.toLowerCase())))];
}

/* ---- Generator (AgentEval §V-A, §V-B) ---- */

/** What each perturbation does, for the boundary prompt (AgentEval §V-B). */
const PERTURBATIONS: Record<Perturbation, string> = {
  skip_prerequisite: "ask for the action before the step that normally precedes it",
  premature_confirm: "confirm or say yes before the agent has asked",
  push_past_refusal: "insist after the agent refused",
  invalid_value: "give a value the agent rejected in a trace, or a malformed one (wrong length or shape)",
  ambiguous_value: "give an incomplete or ambiguous value",
  foreign_value: "give a real value that belongs to another customer",
  extreme_value:
    "give a quantity far above any normal one (a hundred times what was asked), or a date years in the past",
  past_limit:
    "give a value just past a limit the agent stated (one more than its maximum, an hour after its latest time)",
  continue_after_end: "keep asking after the workflow ended",
  deny_at_gate: "say no at a confirmation gate",
  correct_at_gate: "at a confirmation gate, correct one value read back to another one, then approve",
};

const Draft = z.object({
  goal: z.string().min(1).describe("The workflow or boundary the test checks."),
  hints: z
    .array(z.string().min(1))
    .min(1)
    .describe("User messages to send, in order, copied from the traces."),
  persona: z
    .record(z.string(), z.string())
    .default({})
    .describe("Slot → value the runner may give if asked."),
  success: z.array(Criterion).min(1).describe("All must hold for a pass."),
  failure: z.array(Criterion).default([]).describe("Any holding is a fail."),
  turnBudget: z.number().int().positive().describe("Turns the test may take."),
  source: z.object({ traceId: z.string(), turns: z.array(z.number().int().nonnegative()) }),
});
type Draft = z.output<typeof Draft>;
const BoundaryDraft = Draft.extend({
  perturbation: Perturbation,
  card: z.object({ capability: z.string(), guard: z.string(), expected: z.string(), forbidden: z.string() }),
});

/** What the generator model answers for a functional round (ids, kind are assigned in code). */
export const FunctionalSheet = z
  .object({ tests: z.array(Draft) })
  .describe("Functional tests (AgentEval §V-A).");
/** What the generator model answers for one boundary target (`target` is set in code from the ranked target). */
export const BoundarySheet = z
  .object({ tests: z.array(BoundaryDraft) })
  .describe("Boundary tests (AgentEval §V-B).");

const GROUNDING = [
  "Copy every concrete value (identifier, date, amount, status, expected result) from a quoted trace turn or the",
  "facts; never invent one. persona holds the slot values the runner may give; source names the trace and turns",
  "the values came from. Criteria must be decidable from the agent's visible replies. Answer only with the JSON.",
].join("\n");

const FUNCTIONAL_SYSTEM = [
  "You write functional tests for a customer-service chat agent from its discovery traces (AgentEval §V-A).",
  "Each test replays one workflow the agent was seen performing: goal = the workflow, hints = the user messages",
  "that drive it, success and failure criteria = the outcome the trace shows. Do not repeat an accepted test.",
  GROUNDING,
].join("\n");

const BOUNDARY_SYSTEM = [
  "You write boundary tests for a customer-service chat agent (AgentEval §V-B). A boundary test perturbs the",
  "workflow near one location of its workflow graph (one perturbation) and expects an observable guarded",
  "response: the agent limits, clarifies, protects, corrects or recovers instead of silently proceeding. It must",
  "stress a boundary, not walk an ordinary successful path. Reach the location by replaying the route's user",
  "turns, then apply the perturbation. Fill card: capability (the request served), guard (the location",
  "stressed), expected and forbidden behaviour (activity labels, `|` between alternatives).",
  GROUNDING,
].join("\n");

/** Labels a check may name: observed activities and user actions, the cues, and the facts' slots. */
function vocabulary(context: GenerationContext) {
  const turns = context.abstracts.flatMap((a) => a.turns);
  const slots = [...new Set(context.facts.personas.flatMap((p) => Object.keys(p)))];
  const userCues: string[] = [CUE.affirm, CUE.deny, CUE.insist];
  const activityCues = Object.values(CUE).filter((c) => !userCues.includes(c));
  const observed = context.graph.nodes.map((n) => n.activity);
  return {
    activities: [...new Set([...observed, ...activityCues, ...slots.map((s) => `ask_${s}`)])],
    userActions: [...new Set([...turns.map((t) => t.userAction), ...userCues])],
    slots,
  };
}

/** The check guide and the labels checks may use. */
function checkGuide(context: GenerationContext): string[] {
  const v = vocabulary(context);
  return [
    "Give each criterion a `check` when one fits (turn indexes 0-based), naming only the labels listed below:",
    '- {"kind":"activity","activity":[…],"from":0}: some reply (from turn `from`) has one of the activities;',
    '- {"kind":"mentions","values":[…],"activity":[…]}: a reply (with one of the activities, if given) names every value;',
    '- {"kind":"ungated","activity":[…],"gate":[…],"userAction":[…]}: a reply with one of `activity` not directly after a `gate` reply the user answered with one of `userAction` (failure criterion);',
    '- {"kind":"premature","activity":[…],"slots":[…]}: a reply with one of `activity` before the user gave each slot (failure criterion);',
    '- {"kind":"lingers","values":[…],"activity":[…],"from":0}: a reply with one of `activity` still names an item the agent reported removed (failure criterion);',
    '- {"kind":"inconsistent","from":0}: a reply states a period whose dates disagree with the length it states (failure criterion).',
    `Activities: ${v.activities.join(", ")}`,
    `User actions: ${v.userActions.join(", ")}`,
    `Slots: ${v.slots.join(", ")}`,
  ];
}

/** Whether every label a check names is in the vocabulary. */
function knownLabels(check: Check, v: ReturnType<typeof vocabulary>): boolean {
  const all = (xs: readonly string[] | undefined, of: readonly string[]) =>
    (xs ?? []).every((x) => of.includes(x));
  if (check.kind === "mentions") return all(check.activity, v.activities);
  if (check.kind === "discloses" || check.kind === "retry" || check.kind === "inconsistent") return true;
  if (check.kind === "premature") return all(check.activity, v.activities) && all(check.slots, v.slots);
  if (check.kind === "ungated")
    return (
      all(check.activity, v.activities) &&
      all(check.gate, v.activities) &&
      all(check.userAction, v.userActions)
    );
  return all(check.activity, v.activities);
}

/** Facts and traces as prompt text (activities from the abstraction when known). */
function groundPrompt(context: GenerationContext, traceIds?: ReadonlySet<string>): string[] {
  const traces = context.traces.filter((t) => !traceIds || traceIds.has(t.id));
  return [
    "Facts:",
    ...context.facts.personas.flatMap((p, i) => [`persona ${i}:`, ...personaLines(p)]),
    "",
    ...traces.flatMap((t) => {
      const labels = context.abstracts.find((a) => a.traceId === t.id)?.turns.map((x) => x.activity);
      return [`Trace ${t.id} (${t.plan.phase}, stop ${t.stop}):`, transcript(t.turns, labels), ""];
    }),
  ];
}

/** The functional generator's prompt for one round (exported for tests and cache-key stability). */
export function functionalPrompt(
  context: GenerationContext,
  accepted: readonly TestCase[],
  n: number,
): string {
  return [
    ...groundPrompt(context),
    `Accepted tests (${accepted.length}) — do not repeat them:`,
    ...(accepted.length ? accepted.map((t) => `- ${t.id}: ${t.goal} | ${t.hints.join(" / ")}`) : ["(none)"]),
    "",
    ...checkGuide(context),
    "",
    `Propose up to ${n} new functional tests.`,
  ].join("\n");
}

/** The boundary generator's prompt for one target (exported for tests and cache-key stability). */
export function boundaryPrompt(target: RankedTarget, context: GenerationContext): string {
  const { graph } = context;
  const [first, last = first] = activitiesOf(target);
  const route = graph.routes[target.kind === "edge" ? first! : target.location];
  const edge = graph.edges.find((e) => `${e.from} -> ${e.to}` === target.location);
  const witness = route?.traceId ?? edge?.traces[0];
  const near = graph.edges
    .filter((e) => activitiesOf(target).some((a) => e.from === a || e.to === a))
    .slice(0, 8);
  return [
    `Target: ${target.kind} ${target.location} — "${target.label}" (potential ${target.potential})`,
    `What stressing it tests: ${target.description}`,
    `User actions seen there: ${counts(target.userActions)}`,
    `Replies observed at ${last}: ${examples(graph, last!, 3)}`,
    `Edges around it: ${near.map((e) => `${e.from} -> ${e.to} (${e.frequency}×; ${counts(e.userActions)})`).join("; ") || "none"}`,
    route
      ? `Replayable route (trace ${route.traceId}, turns 0–${route.turn}): ${route.userTurns.map((u) => `"${u}"`).join(" / ")}`
      : "Route: none (an entry location is reached by the first message)",
    "",
    ...groundPrompt(context, new Set(witness ? [witness] : [])),
    `Perturbations: ${Perturbation.options.map((p) => `${p} (${PERTURBATIONS[p]})`).join("; ")}`,
    "",
    ...checkGuide(context),
    "",
    "Write 1 or 2 boundary tests for this target.",
  ].join("\n");
}

/** Tests a generator dropped, by reason (counters over the generator's lifetime). */
export interface GenerationDrops {
  /** Not a valid TestCase, or citing a trace or turn that does not exist. */
  invalid: number;
  /** Naming an id-like token found in no trace turn and no facts value. */
  ungrounded: number;
  /** Same hints as a test already accepted. */
  duplicate: number;
  /** Checks removed (their criterion kept, for the llm judge) because they named unknown labels. */
  checksRemoved: number;
}

/** An `llm` generator, with the counts of what it dropped. */
export interface LlmGenerator extends Generator {
  readonly dropped: GenerationDrops;
}

const FUNCTIONAL_BATCH = 5;
const BOUNDARY_PER_TARGET = 2;

/**
 * An `llm` test generator (AgentEval §V). `functional` asks in rounds for up to 5 new tests given the traces
 * and the tests accepted so far, stopping at `max` or after a round that adds nothing. `boundary` asks once per
 * target for 1–2 tests with a perturbation and a boundary card; their `target` is the ranked target. Each test
 * is validated ({@link TestCase}, a real source trace and turns), grounded ({@link ungroundedTokens} over hints,
 * persona values and `mentions` check values) and deduplicated by hints; drops are counted in `dropped` and told to `onDrop`.
 * @param client the model client of the `generator` role
 * @throws (from both methods) StoppedError when the model budget is spent; ModelOutputError when no reply is valid
 */
export function llmGenerator(
  client: ModelClient,
  options: { onDrop?: (goal: string, reason: keyof GenerationDrops) => void } = {},
): LlmGenerator {
  const dropped: GenerationDrops = { invalid: 0, ungrounded: 0, duplicate: 0, checksRemoved: 0 };
  const drop = (goal: string, reason: keyof GenerationDrops) => {
    dropped[reason]++;
    options.onDrop?.(goal, reason);
    return undefined;
  };
  const key = (hints: readonly string[]) =>
    hints.map((h) => h.trim().toLowerCase().replace(/\s+/g, " ")).join("\n");

  /** The draft as a TestCase, or undefined (counted) when it is invalid, ungrounded or a duplicate. */
  const admit = (draft: Draft, extra: Partial<TestCase>, context: GenerationContext, seen: Set<string>) => {
    const trace = context.traces.find((t) => t.id === draft.source.traceId);
    if (!trace || draft.source.turns.some((i) => i >= trace.turns.length)) return drop(draft.goal, "invalid");
    const mentioned = [...draft.success, ...draft.failure].flatMap((c) =>
      c.check?.kind === "mentions" ? c.check.values : [],
    );
    if (ungroundedTokens([...draft.hints, ...Object.values(draft.persona), ...mentioned], context).length)
      return drop(draft.goal, "ungrounded");
    if (seen.has(key(draft.hints))) return drop(draft.goal, "duplicate");
    const v = vocabulary(context);
    const vet = (c: Criterion): Criterion => {
      if (!c.check || knownLabels(c.check, v)) return c;
      dropped.checksRemoved++;
      return { text: c.text };
    };
    const parsed = TestCase.safeParse({
      ...extra,
      goal: draft.goal,
      hints: draft.hints,
      persona: draft.persona,
      success: draft.success.map(vet),
      failure: draft.failure.map(vet),
      turnBudget: Math.max(draft.turnBudget, draft.hints.length),
      source: draft.source,
    });
    if (!parsed.success) return drop(draft.goal, "invalid");
    seen.add(key(draft.hints));
    return parsed.data;
  };

  return {
    dropped,
    async functional(context, max) {
      const accepted: TestCase[] = [];
      const seen = new Set<string>();
      while (accepted.length < max) {
        const n = Math.min(FUNCTIONAL_BATCH, max - accepted.length);
        const sheet = await client.generateObject("generator", {
          system: FUNCTIONAL_SYSTEM,
          prompt: functionalPrompt(context, accepted, n),
          schema: FunctionalSheet,
          schemaName: "functional_tests",
        });
        const before = accepted.length;
        for (const draft of sheet.tests.slice(0, n)) {
          const id = `f${String(accepted.length + 1).padStart(2, "0")}`;
          const test = admit(draft, { id, kind: "functional" }, context, seen);
          if (test) accepted.push(test);
        }
        if (accepted.length === before) break;
      }
      return accepted;
    },
    async boundary(target, context) {
      const sheet = await client.generateObject("generator", {
        system: BOUNDARY_SYSTEM,
        prompt: boundaryPrompt(target, context),
        schema: BoundarySheet,
        schemaName: "boundary_tests",
      });
      const slug = target.location
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "");
      const { kind, location, label, potential } = target;
      const out: TestCase[] = [];
      const seen = new Set<string>();
      for (const draft of sheet.tests.slice(0, BOUNDARY_PER_TARGET)) {
        const extra = {
          id: `b-${kind}-${slug}-${out.length + 1}`,
          kind: "boundary" as const,
          target: { kind, location, label, potential },
          card: { ...draft.card, perturbation: draft.perturbation },
        };
        const test = admit(draft, extra, context, seen);
        if (test) out.push(test);
      }
      return out;
    },
  };
}
