import type { TrajectoryEvent } from "../../core/trajectory.ts";
import type { Sandbox } from "../../workspace/sandbox.ts";
import type { StepIntent } from "./intent.ts";

/**
 * The coding-agent adapter contract (DESIGN.md "Coding agent adapter"; ABTest §3.4): start one agent
 * session in a workspace, then run each step (one prompt) within that same session.
 */

/** The workspace a session runs in. */
export interface AgentWorkspace {
  /** Absolute path of the workspace directory (the agent's cwd). Never the user's repository. */
  dir: string;
  /** Environment for the agent process: scrubbed, with an isolated HOME and any case variables. */
  env: Record<string, string>;
  /**
   * Variables of `env` to treat as secrets even if their names do not look like it (e.g. every variable the
   * user passed through); their values are redacted from everything the adapter returns.
   */
  secretNames?: readonly string[];
  /** When set, every process of the agent runs confined by it (see workspace/sandbox.ts). */
  sandbox?: Sandbox;
}

/** One step to run. */
export interface StepRequest {
  /** Step id within the case, e.g. `S01`. */
  stepId: string;
  /** The prompt given to the agent, verbatim. */
  prompt: string;
  /** Time limit of the step, ms; past it the adapter kills the agent's whole process tree. */
  timeoutMs: number;
  /** Aborts the step (same effect as a timeout, but reported as `error`). */
  signal?: AbortSignal;
  /** Structured step intent (see intent.ts); only scripted agents read it, real agents see only the prompt. */
  intent?: StepIntent;
  /** Id of the case this step belongs to (scripted agents key their behaviour on it). */
  caseId?: string;
}

/** A misbehaviour a scripted persona committed on purpose (ground truth for oracle recall). */
export interface SeededMisbehaviour {
  /** Catalogue id, e.g. `claims-tests-without-running`. */
  id: string;
  /** Oracle expected to catch it. */
  oracle: string;
  /** Class the oracle should give it. */
  class: "critical" | "expected_outcome" | "minor";
  /** Step it was committed in. */
  stepId: string;
}

/** What one step produced. */
export interface StepOutcome {
  /** `ok`: the agent finished the step; `timeout`: killed at the time limit; `error`: the agent failed to run. */
  status: "ok" | "timeout" | "error";
  /** Exit code of the agent process (0 for in-process agents that finished), null when killed. */
  exitCode: number | null;
  /** The agent's final message for the step ("" when none). */
  finalMessage: string;
  /** Standard trajectory events of the step, in order; ids unique within the case. */
  events: TrajectoryEvent[];
  /** Wall time of the step, ms. */
  durationMs: number;
  /** Wall time of the agent process itself, spawn to exit, ms (adapters that run one; the rest is Gauntlet's). */
  processMs?: number;
  /** Tokens and cost of the step (0 when the agent does not report them). */
  usage: { inputTokens: number; outputTokens: number; costUsd: number };
  /** Error text when status is `error`. */
  error?: string;
  /** Ground truth from scripted personas: misbehaviours committed on purpose in this step. */
  seeded?: SeededMisbehaviour[];
  /**
   * Whether `events` include the commands the agent ran (true for adapters that parse the agent's tool
   * calls); false when only the agent process itself is visible, so claims about commands cannot be checked.
   * Default true.
   */
  commandsObserved?: boolean;
}

/** One agent session, spanning all steps of a case. */
export interface CodingAgentSession {
  /** The agent's own session id, once known. */
  readonly sessionId: string | undefined;
  /** Run one step in this session. Must not throw for agent failures: report them as status `error`. */
  runStep(request: StepRequest): Promise<StepOutcome>;
  /** End the session and kill anything it left running. */
  close(): Promise<void>;
}

/** A kind of coding agent (`command`, `scripted`, later `claude-code`, `codex`, …). */
export interface CodingAgentAdapter {
  /** Spec naming the agent under test, e.g. `scripted:careful` or `command:my-agent`. */
  readonly name: string;
  /** Start a session in the workspace. */
  startSession(workspace: AgentWorkspace): Promise<CodingAgentSession>;
}
