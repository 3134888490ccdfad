import { z } from "zod";
import { Check } from "./check.ts";

/**
 * The records the boundary suite's stages exchange (AgentEval §II–V): session traces from discovery, their
 * abstraction into user actions and agent activities, tests of the plan, and judged runs. Every stage
 * writes these as files, so a campaign can stop, resume and be read by a person.
 */

/** One turn: a user utterance and the agent's visible reply (AgentEval §II-A). */
export const Turn = z
  .object({
    user: z.string().describe("What the tester sent."),
    reply: z.string().describe("The agent's visible reply (empty when the target failed to answer)."),
    ms: z.number().nonnegative().describe("Wall time of the reply, ms."),
  })
  .strict();
export type Turn = z.infer<typeof Turn>;

/** Exploration phases of phase-guided discovery (AgentEval §III-A); `free` = chosen by the planner. */
export const Phase = z.enum(["capability", "happy_path", "consistency", "free"]);
export type Phase = z.infer<typeof Phase>;

/** What a discovery round set out to do (the planner's output, AgentEval §III-A). */
export const RoundPlan = z
  .object({
    phase: Phase.describe("Kind of exploration."),
    objective: z.string().min(1).describe("The goal the session should reach."),
    strategy: z.string().min(1).describe("A short tactical plan for the driver."),
    persona: z
      .number()
      .int()
      .nonnegative()
      .default(0)
      .describe("Index of the facts persona the driver plays."),
    request: z.string().optional().describe("The first user request, when the planner fixed it."),
  })
  .strict();
export type RoundPlan = z.infer<typeof RoundPlan>;

/** One discovery session (one round): a fresh conversation of at most the turn budget. */
export const SessionTrace = z
  .object({
    id: z.string().describe("Stable id, e.g. `d03`."),
    round: z.number().int().nonnegative(),
    plan: RoundPlan,
    turns: z.array(Turn),
    stop: z
      .enum(["objective", "turn_budget", "driver_stop", "target_error"])
      .describe("Why the session ended."),
    error: z.string().optional().describe("The target's error, when `stop` is `target_error`."),
  })
  .strict();
export type SessionTrace = z.infer<typeof SessionTrace>;

/**
 * What the tester knows before it starts (the "benchmark-provided seed", AgentEval §V-A): personas, each a
 * map slot name → values (`user_id: [mia_li_3668]`, `reservation_id: [HAT1A1, HAT3C3]`), used by the driver
 * and runner to answer the agent's questions. Slot names are snake_case and match the agent's wording
 * (a question naming "reservation id" is answered from `reservation_id`).
 */
export const Facts = z
  .object({
    personas: z
      .array(z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), z.array(z.string().min(1)).min(1)))
      .min(1)
      .describe("One entry per customer the tester can play."),
    requests: z
      .array(z.string().min(1))
      .default([])
      .describe("Requests to try besides those the agent offers (optional)."),
  })
  .strict();
export type Facts = z.output<typeof Facts>;

/**
 * A turn abstracted (AgentEval §IV-A): the user action of the utterance and the agent activity of the reply.
 * Labels are snake_case. Cue activities every labeller uses when they apply: `request_confirmation` (a
 * gate: asks for yes/no before acting), `confirm_completion` (reports an action done), `refuse`,
 * `acknowledge_abort`, `report_not_found`, `transfer_to_human`, `offer_capabilities`, `clarify`,
 * `close_conversation`, `report_error`, and `ask_<slot>` (asks for a value, e.g. `ask_user_id`). User
 * actions: `affirm`, `deny`, `request_<verb>` (e.g. `request_cancel`), `provide_<slot>`, `insist`, `thank`,
 * `other`.
 */
export const AbstractTurn = z
  .object({
    userAction: z.string().min(1),
    activity: z.string().min(1),
    /** Slots whose values the user turn carries (`user_id`, `reservation_id`…), whatever its action. */
    provided: z.array(z.string()).default([]),
    summary: z.string().default("").describe("One sentence saying what happened in the turn."),
  })
  .strict();
export type AbstractTurn = z.output<typeof AbstractTurn>;

/** The abstraction of one session trace, turn for turn. */
export const AbstractTrace = z
  .object({
    traceId: z.string(),
    turns: z.array(AbstractTurn),
    hash: z
      .string()
      .optional()
      .describe("Hash of the labelled turns' text: a re-run session gets labelled again."),
  })
  .strict();
export type AbstractTrace = z.output<typeof AbstractTrace>;

/** Activity labels with a fixed meaning (see {@link AbstractTurn}). */
export const CUE = {
  gate: "request_confirmation",
  safety: "ask_safety",
  done: "confirm_completion",
  refuse: "refuse",
  abort: "acknowledge_abort",
  notFound: "report_not_found",
  transfer: "transfer_to_human",
  capabilities: "offer_capabilities",
  clarify: "clarify",
  close: "close_conversation",
  error: "report_error",
  affirm: "affirm",
  deny: "deny",
  insist: "insist",
} as const;

/**
 * Generic reply labels the `rules` labeller gives when no cue or topic applies (abstract.ts labelReply): a test
 * may name them though discovery never saw them ("any calm reply").
 */
export const GENERIC_ACTIVITIES = ["inform", "open_question", "greet", "no_reply"] as const;

/**
 * Cue activities whose labels carry a topic: `refuse_limit`, `report_error_balance` (a not-found stays bare: what
 * was not found is named differently by every paraphrase).
 */
export const TOPIC_FAMILIES: readonly string[] = [CUE.refuse, CUE.error];

/**
 * The cue an activity belongs to: `refuse_limit` → `refuse`, `report_error_balance` → `report_error`; any other
 * activity is its own cue. Checks naming a family (`refuse`) accept every member of it (judge.ts).
 */
export function cueOf(activity: string): string {
  for (const f of TOPIC_FAMILIES) if (activity === f || activity.startsWith(`${f}_`)) return f;
  return activity;
}

/** A node of the workflow graph: an activity and its support (replies mapped to it). */
export interface ActivityNode {
  activity: string;
  support: number;
  /** Up to three reply texts labelled with it, for people and for the generator's grounding. */
  examples: string[];
}

/** An edge a → b of the directly-follows graph, with what drove it (AgentEval Alg. 1). */
export interface GraphEdge {
  from: string;
  to: string;
  frequency: number;
  /** User action label → count: the user turns between a and b. */
  userActions: Record<string, number>;
  /** Trace ids that witness the edge (kept so tests replay witnessed prefixes, van der Aalst 2019). */
  traces: string[];
}

/**
 * A replayable route to a location: the user turns of a witnessing trace up to and including the turn whose
 * reply reached it, re-issued verbatim in a fresh session (AgentEval §II-D).
 */
export interface Route {
  traceId: string;
  /** Index of the turn whose reply is the location's activity (0-based). */
  turn: number;
  userTurns: string[];
}

/** The conversational workflow graph G = (V, E, S, T) (AgentEval §II-D, Alg. 1). */
export interface WorkflowGraph {
  nodes: ActivityNode[];
  edges: GraphEdge[];
  /** Entry activities (first reply of a session) → sessions starting there. */
  entry: Record<string, number>;
  /** Terminal activities (last reply of a session) → sessions ending there. */
  terminal: Record<string, number>;
  /** Shortest witnessed route to each activity. */
  routes: Record<string, Route>;
}

/** Where a boundary test aims (AgentEval Table I). Edge locations are written `a -> b`. */
export const TargetKind = z.enum(["node", "edge", "entry", "terminal"]);
export type TargetKind = z.infer<typeof TargetKind>;

/** Perturbations of the rules generator's catalogue (AgentEval §V-B lists these kinds). */
export const Perturbation = z.enum([
  "skip_prerequisite",
  "premature_confirm",
  "push_past_refusal",
  "invalid_value",
  "ambiguous_value",
  "foreign_value",
  "extreme_value",
  "past_limit",
  "continue_after_end",
  "deny_at_gate",
  "correct_at_gate",
]);
export type Perturbation = z.infer<typeof Perturbation>;

/** A structural boundary target before ranking (AgentEval Table I). */
export interface BoundaryTarget {
  kind: TargetKind;
  /** Activity, or `a -> b` for an edge. */
  location: string;
  /** Support of the node / frequency of the edge / count of the entry or terminal. */
  support: number;
  /** User actions seen at the location (incoming edges of a node, the edge's own). */
  userActions: Record<string, number>;
  /** What stressing it tests (Table I's third column). */
  description: string;
}

/** A target after ranking: boundary potential in [0, 1] and a concise label (AgentEval §V-B). */
export interface RankedTarget extends BoundaryTarget {
  potential: number;
  label: string;
}

export { Check } from "./check.ts";

/** An observable criterion: the sentence a person reads, and the check the `rules` judge runs. */
export const Criterion = z
  .object({
    text: z.string().min(1).describe("The criterion in words, decidable from the visible transcript."),
    check: Check.optional().describe("Its compiled check; without one only the `llm` judge can decide it."),
  })
  .strict();
export type Criterion = z.output<typeof Criterion>;

/** What a boundary test stresses (the auditor's boundary card, AgentEval §VI-B): two tests are the same boundary when capability, guard, perturbation and expected agree. */
export const BoundaryCard = z
  .object({
    capability: z.string().describe("The user request the workflow serves, e.g. `request_cancel`."),
    guard: z.string().describe("The guard or location stressed, e.g. `request_confirmation`."),
    perturbation: Perturbation,
    expected: z.string().describe("Expected behaviour, e.g. `refuse|ask_user_id`."),
    forbidden: z.string().describe("Forbidden behaviour, e.g. `confirm_completion`."),
  })
  .strict();
export type BoundaryCard = z.infer<typeof BoundaryCard>;

/** One test of the plan (AgentEval §II-A schema + §V). */
export const TestCase = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/)
      .describe("Unique id: `f-NN` functional, `b-NN-<perturbation>` boundary."),
    kind: z
      .enum(["functional", "boundary"])
      .describe("Replays an observed workflow, or stresses one boundary."),
    goal: z.string().min(1).describe("What the test checks, in one sentence."),
    hints: z
      .array(z.string())
      .describe("User turns to send, in order; the runner adapts when the agent asks for something else."),
    persona: z
      .record(z.string(), z.string())
      .default({})
      .describe("Slot values the runner may use to answer the agent's questions (copied from traces/facts)."),
    success: z.array(Criterion).describe("All must hold for a pass."),
    failure: z.array(Criterion).describe("Any holding is a fail."),
    turnBudget: z.number().int().positive().describe("Most user turns the runner may send."),
    target: z
      .object({
        kind: TargetKind,
        location: z.string(),
        label: z.string(),
        potential: z.number().min(0).max(1),
      })
      .strict()
      .optional()
      .describe("Boundary tests: the graph location stressed."),
    card: BoundaryCard.optional(),
    source: z
      .object({ traceId: z.string(), turns: z.array(z.number().int().nonnegative()) })
      .strict()
      .describe("The discovery trace (and its turns) the test's values were copied from."),
  })
  .strict();
export type TestCase = z.output<typeof TestCase>;

/** A verdict of the judge (AgentEval §III-B). */
export const Verdict = z
  .object({
    verdict: z.enum(["pass", "fail", "inconclusive"]),
    /** Why, in one or two sentences for people; turns are numbered from 1 ("turn 3's reply…"). */
    reason: z.string(),
    /** The turns that decided it, quoted; `turn` is the 0-based index into the transcript (shown +1). */
    quotes: z.array(
      z
        .object({
          turn: z.number().int().nonnegative(),
          speaker: z.enum(["user", "agent"]),
          text: z.string(),
        })
        .strict(),
    ),
    /**
     * Each criterion's result, success then failure criteria, from the test's point of view: a failure
     * criterion that held is `violated`, one that did not happen `met` (the report shows "held" / "did not
     * happen").
     */
    criteria: z
      .array(z.object({ text: z.string(), result: z.enum(["met", "violated", "undecided"]) }).strict())
      .default([]),
  })
  .strict();
export type Verdict = z.output<typeof Verdict>;

/** One executed test (a line of `runs.jsonl`). */
export const TestRun = z
  .object({
    testId: z.string().describe("The plan's test id."),
    testHash: z
      .string()
      .optional()
      .describe("Hash of the test as run: a resumed run reuses a result only for the very same test."),
    target: z.string().describe("Name of the target the test ran against."),
    turns: z.array(Turn).describe("The visible transcript."),
    labels: z
      .array(AbstractTurn)
      .default([])
      .describe("The labeller's abstraction of each turn (what the rules judge reads)."),
    verdict: Verdict,
    error: z
      .string()
      .optional()
      .describe("The target's error, when it failed to answer (the verdict is then inconclusive)."),
    ms: z.number().nonnegative().describe("Wall time of the whole test, ms."),
  })
  .strict();
export type TestRun = z.output<typeof TestRun>;

export type * from "./contracts.ts";
