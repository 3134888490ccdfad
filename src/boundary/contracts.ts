import type {
  AbstractTrace,
  AbstractTurn,
  BoundaryTarget,
  Facts,
  RankedTarget,
  RoundPlan,
  SessionTrace,
  TestCase,
  Turn,
  Verdict,
  WorkflowGraph,
} from "./types.ts";

/**
 * The interfaces of the boundary suite's model roles (each has a `rules` and an `llm` engine, issue 5 §2)
 * and the shapes of a campaign's costs and audit. Re-exported by types.ts.
 */

/* ---- Model roles: each has a `rules` and an `llm` engine (issue 5 §2). ---- */

/** Planner (AgentEval §III-A): what the next discovery round explores. */
export interface Planner {
  plan(context: { round: number; traces: readonly SessionTrace[]; facts: Facts }): Promise<RoundPlan>;
  /**
   * Whether the planner still has rounds it holds necessary (the rules planner: a customer not yet carried
   * through a request): discovery then goes on past its patience, up to its budget. Optional.
   */
  pending?(context: { traces: readonly SessionTrace[]; facts: Facts }): boolean;
}

/** Driver: the next user message of a discovery session, or undefined to stop (objective met). */
export interface Driver {
  next(context: { plan: RoundPlan; turns: readonly Turn[]; facts: Facts }): Promise<string | undefined>;
}

/** Labeller (AgentEval §IV-A): abstract a trace's turns; `known` = activity labels already in use, to reuse. */
export interface Labeller {
  label(
    trace: { id: string; turns: readonly Turn[] },
    facts: Facts,
    known: readonly string[],
  ): Promise<AbstractTurn[]>;
}

/** Ranker (AgentEval Alg. 2 line 2): boundary potential and a label per target, same order. */
export interface Ranker {
  rank(targets: readonly BoundaryTarget[], graph: WorkflowGraph): Promise<RankedTarget[]>;
}

/** What the generators read: the discovery traces, their abstraction, the graph and the facts. */
export interface GenerationContext {
  traces: readonly SessionTrace[];
  abstracts: readonly AbstractTrace[];
  graph: WorkflowGraph;
  facts: Facts;
}

/** Test generator (AgentEval §V): functional tests from traces; boundary tests per selected target. */
export interface Generator {
  functional(context: GenerationContext, max: number): Promise<TestCase[]>;
  boundary(target: RankedTarget, context: GenerationContext): Promise<TestCase[]>;
}

/** Runner (AgentEval §III-B): the next user message of a test session, or undefined when done. */
export interface Runner {
  next(context: { test: TestCase; turns: readonly Turn[] }): Promise<string | undefined>;
}

/** Judge (AgentEval §III-B): a verdict from the visible transcript only. */
export interface Judge {
  judge(test: TestCase, turns: readonly Turn[], labels: readonly AbstractTurn[]): Promise<Verdict>;
}

/* ---- Campaign outputs: costs and the audit (AgentEval §VI, Tables III, VII, VIII). ---- */

/** Cost of one stage of a campaign (AgentEval Table VIII). */
export interface StageCost {
  stage: "discover" | "abstract" | "graph" | "plan" | "run" | "audit";
  /** Model calls (0 with `rules` engines) and tokens, summed over the stage's roles. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Wall time, ms. */
  ms: number;
  /** Turns sent to the target. */
  targetTurns: number;
}

/** Quality of one kind of test as the privileged audit sees it (AgentEval Table III columns). */
export interface AuditRates {
  tests: number;
  /** Tests the audit accepts (decisive on the clean agent and reaching their target). */
  valid: number;
  validity: number;
  /** Boundary tests only: distinct boundaries among the valid ones, and 1 − distinct/valid. */
  distinct?: number;
  duplicateRate?: number;
  /** On the clean agent: FP / (FP + TN), (TP + TN) / N, INC / N. */
  falseAlarmRate: number;
  accuracy: number;
  inconclusiveRate: number;
}

/** Whether a seeded fault was killed (AgentEval Table VII): a test passing on the clean agent fails on it. */
export interface KillRow {
  fault: string;
  /** Tests that killed it. */
  killedBy: string[];
  /** The privileged view confirms the killing runs differ from the clean runs (a write, or a mutated tool output). */
  confirmed: boolean;
}

/** The audit of a plan against the reference agent (issue 5 §2 `audit`). */
export interface AuditSummary {
  functional: AuditRates;
  boundary: AuditRates;
  kills: KillRow[];
}
