import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Json } from "../../core/json-view.ts";
import { redact, type Secret, secretsFromEnv } from "../../core/redaction.ts";
import { runProcess } from "../../workspace/process.ts";
import { confine, programDirs, withReadable } from "../../workspace/sandbox.ts";
import type {
  AgentWorkspace,
  CodingAgentAdapter,
  CodingAgentSession,
  StepOutcome,
  StepRequest,
} from "./adapter.ts";
import { StepEventLog } from "./events.ts";
import { StepGate } from "./step-gate.ts";
import { TraceBuilder } from "./trace-builder.ts";

/**
 * Real coding-agent CLIs (issue 3 §3; agent-clis.md): what the five adapters share. Each agent is a
 * {@link CliAgentDefinition} — how to configure its isolated HOME, which argv runs a step and which resumes
 * the session, and a parser from its native event stream to standard trajectory events. The session runner
 * here does the rest the same way for all: one process per step with stdin closed, confined by the sandbox,
 * killed with its whole tree at the step's time limit; secrets redacted from everything it returns.
 */

/** Where an agent sends its model requests. */
export interface ModelEndpoint {
  /** Base URL as the agent's own setting expects it (see each definition), or undefined for the vendor's. */
  baseUrl?: string;
  /** API key, passed to the agent in the variable it reads; redacted from traces. */
  apiKey?: string;
  /** Model name sent to the endpoint. */
  model: string;
}

/** What a definition gets to prepare a session and build each step's argv. */
export interface SessionContext {
  /** The agent's cwd (the case workspace's repository copy). */
  workspace: string;
  /** The isolated HOME of the session (workspace env `HOME`). */
  home: string;
  endpoint: ModelEndpoint;
}

/** Standard events from one step's native stream, built by a parser. */
export interface ParsedStep {
  /** The agent's session id, when the stream names it. */
  sessionId?: string;
  /** The final answer of the step ("" when none). */
  finalMessage: string;
  /** Whether the stream ended with the agent's own end-of-turn record (result, turn.completed, …). */
  completed: boolean;
  /** An error the agent reported in its stream. */
  error?: string;
  /** Usage as the agent reports it; `cumulative` when it counts the whole session (deltas are taken). */
  usage: {
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
    cumulative: boolean;
    costCumulative?: boolean;
  };
  /** Model name the agent reported, when it did. */
  model?: string;
}

/** A parser of one step's stdout (one JSON object per line). */
export interface StreamParser {
  /** One decoded JSON line of stdout. */
  line(record: Record<string, unknown>): void;
  /**
   * After the process exited: read anything the stream lacked (e.g. Gemini CLI's session file for exit codes)
   * and emit the step's events into the trace.
   */
  finish(trace: TraceBuilder, context: SessionContext & { sessionId?: string }): ParsedStep;
}

/** A step with nothing parsed yet. */
export function emptyStep(cumulative: boolean): ParsedStep {
  return {
    finalMessage: "",
    completed: false,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, cumulative },
  };
}

/** A parser that keeps the stream's records and turns them into the step once the process has exited. */
export function collectingParser(
  finish: (
    records: readonly Json[],
    trace: TraceBuilder,
    context: SessionContext & { sessionId?: string },
  ) => ParsedStep,
): StreamParser {
  const records: Json[] = [];
  return { line: (r) => void records.push(r), finish: (trace, context) => finish(records, trace, context) };
}

/** How one agent CLI is run (one file per agent: claude-code.ts, codex.ts, …). */
export interface CliAgentDefinition {
  /** Adapter name, e.g. `claude-code`. */
  name: string;
  /** npm package and the pinned version Gauntlet installs (agent-clis.md §1: pin, or Node 20 gets old releases). */
  npmPackage: string;
  version: string;
  /** Executable name under `node_modules/.bin`. */
  bin: string;
  /** Model used when none is configured. */
  defaultModel: string;
  /** Variables of Gauntlet's own environment read for the endpoint when the config does not set it. */
  endpointEnv: { baseUrl: string; apiKey: string };
  /**
   * What to append to a server root (e.g. `http://127.0.0.1:PORT`) to get the base URL this agent expects:
   * `""` for Anthropic and Gemini clients, `"/v1"` for OpenAI-style ones.
   */
  basePath: "" | "/v1";
  /** Whether a session id can be chosen up front (`--session-id`); otherwise it is read from the first step. */
  preassignsSessionId: boolean;
  /**
   * Write the agent's config into the isolated HOME (telemetry, updates and plugins off; the endpoint) and
   * return the variables to add to the agent's environment.
   */
  prepare(context: SessionContext): Record<string, string>;
  /** argv (after the program) for a step: the first (`sessionId` set if pre-assigned) or a resumed one. */
  args(step: {
    prompt: string;
    sessionId?: string;
    resume: boolean;
    model: string;
    extraArgs: readonly string[];
  }): string[];
  /** A fresh parser for one step's stream. */
  parser(): StreamParser;
}

/** Write a file under the session HOME, creating directories. */
export function writeConfigFile(home: string, relative: string, text: string): void {
  const file = path.join(home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Options of a real CLI agent (from `gauntlet.yaml` `agents[]`, or defaults for the built-in names). */
export interface CliAgentOptions {
  /** Spec the agent is known by in results (`claude-code`, or a configured name). */
  name: string;
  /** Absolute path of the agent program. */
  program: string;
  endpoint: ModelEndpoint;
  /** Extra arguments added to every step's argv (before the prompt). */
  extraArgs?: readonly string[];
  /** Extra environment for the agent process. */
  env?: Record<string, string>;
  /** Directories the sandboxed agent must be able to read (its installation). */
  readable?: readonly string[];
}

/** The adapter for one CLI agent definition. */
export function cliAgentAdapter(
  definition: CliAgentDefinition,
  options: CliAgentOptions,
): CodingAgentAdapter {
  return {
    name: options.name,
    startSession: async (workspace) => new CliAgentSession(definition, options, workspace),
  };
}

/** Characters of stderr kept for an error message. */
const STDERR_TAIL_CHARS = 2_000;

class CliAgentSession implements CodingAgentSession {
  readonly #def: CliAgentDefinition;
  readonly #options: CliAgentOptions;
  readonly #workspace: AgentWorkspace;
  readonly #env: Record<string, string>;
  readonly #secrets: readonly Secret[];
  readonly #context: SessionContext;
  readonly #gate = new StepGate();
  #sessionId: string | undefined;
  #steps = 0;
  /** Totals reported so far, for agents that report cumulative usage. */
  #seen = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

  constructor(def: CliAgentDefinition, options: CliAgentOptions, workspace: AgentWorkspace) {
    this.#def = def;
    this.#options = options;
    this.#workspace = workspace;
    const home = workspace.env.HOME ?? path.join(workspace.dir, "..", "home");
    this.#context = { workspace: workspace.dir, home, endpoint: options.endpoint };
    const added = def.prepare(this.#context);
    this.#env = { ...workspace.env, ...added, ...(options.env ?? {}) };
    const keyNames = Object.entries(this.#env)
      .filter(([, v]) => options.endpoint.apiKey && v === options.endpoint.apiKey)
      .map(([k]) => k);
    this.#secrets = secretsFromEnv(this.#env, [...(workspace.secretNames ?? []), ...keyNames]);
    if (def.preassignsSessionId) this.#sessionId = randomUUID();
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  runStep(request: StepRequest): Promise<StepOutcome> {
    return this.#gate.run(
      () => this.#run(request),
      (why) => {
        const log = new StepEventLog(request.stepId, this.#secrets);
        log.add({ type: "control", kind: "error", detail: why });
        return this.#outcome(log, Date.now(), "error", null, "", why);
      },
    );
  }

  close(): Promise<void> {
    return this.#gate.close();
  }

  #outcome(
    log: StepEventLog,
    started: number,
    status: StepOutcome["status"],
    exitCode: number | null,
    finalMessage: string,
    error?: string,
    usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  ): StepOutcome {
    return {
      status,
      exitCode,
      finalMessage: redact(finalMessage, this.#secrets),
      events: log.list(),
      durationMs: Date.now() - started,
      usage,
      commandsObserved: true,
      ...(error === undefined ? {} : { error: redact(error, this.#secrets) }),
    };
  }

  async #run(request: StepRequest): Promise<StepOutcome> {
    const started = Date.now();
    const log = new StepEventLog(request.stepId, this.#secrets);
    log.add({ type: "message", role: "user", text: request.prompt, ts: started });
    const resume = this.#steps > 0;
    if (resume && !this.#sessionId) {
      const why = `cannot resume the ${this.#def.name} session: the first step's output named no session id`;
      log.add({ type: "control", kind: "error", detail: why });
      return this.#outcome(log, started, "error", null, "", why);
    }
    const args = [
      ...this.#def.args({
        prompt: request.prompt,
        sessionId: this.#sessionId,
        resume,
        model: this.#options.endpoint.model,
        extraArgs: this.#options.extraArgs ?? [],
      }),
    ];
    const parser = this.#def.parser();
    let pending = "";
    let stderrTail = "";
    const feed = (text: string) => {
      pending += text;
      let nl = pending.indexOf("\n");
      while (nl >= 0) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (line.startsWith("{")) {
          try {
            parser.line(JSON.parse(line));
          } catch {
            // Not JSON after all (a banner line): ignored.
          }
        }
        nl = pending.indexOf("\n");
      }
    };
    const program = this.#options.program;
    const readable = [...(this.#options.readable ?? []), ...programDirs(program)];
    const signal = request.signal
      ? AbortSignal.any([request.signal, this.#gate.closing.signal])
      : this.#gate.closing.signal;
    let result: Awaited<ReturnType<typeof runProcess>>;
    try {
      result = await runProcess(
        confine(
          { file: program, args },
          withReadable(this.#workspace.sandbox, readable),
          this.#workspace.dir,
        ),
        {
          cwd: this.#workspace.dir,
          env: this.#env,
          timeoutMs: request.timeoutMs,
          signal,
          maxOutputBytes: 256 * 1024,
          onStdout: feed,
          onStderr: (chunk) => {
            stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
          },
        },
      );
    } catch (error) {
      const why = `${this.#def.name} could not be started (${program}): ${(error as Error).message}`;
      log.add({ type: "control", kind: "error", detail: why });
      return this.#outcome(log, started, "error", null, "", why);
    }
    this.#steps++;
    feed("\n");
    const trace = new TraceBuilder(log, this.#workspace.dir);
    let parsed: ParsedStep;
    try {
      parsed = parser.finish(trace, { ...this.#context, sessionId: this.#sessionId });
    } catch (error) {
      // A parser must never take the run down (the agent may have planted odd files in its HOME).
      log.add({
        type: "control",
        kind: "error",
        detail: `could not read the agent's output: ${(error as Error).message}`,
      });
      parsed = { ...emptyStep(false), error: `unreadable agent output: ${(error as Error).message}` };
    }
    if (parsed.sessionId) this.#sessionId = parsed.sessionId;
    const usage = this.#stepUsage(parsed);
    if (usage.inputTokens || usage.outputTokens || usage.costUsd)
      log.add({ type: "usage", ...usage, ...(parsed.model ? { model: parsed.model } : {}) });

    if (result.timedOut) {
      const detail = `the step exceeded its time limit of ${request.timeoutMs} ms; the agent's process tree was killed`;
      log.add({ type: "control", kind: "timeout", detail });
      return {
        ...this.#outcome(log, started, "timeout", null, "", undefined, usage),
        processMs: result.durationMs,
      };
    }
    if (result.aborted) {
      const why = this.#gate.closing.signal.aborted ? "the session was closed" : "the step was aborted";
      const detail = `${why}; the agent's process tree was killed`;
      log.add({ type: "control", kind: "interrupt", detail });
      return {
        ...this.#outcome(log, started, "error", null, "", detail, usage),
        processMs: result.durationMs,
      };
    }
    if (result.exitCode === 0 && parsed.completed && !parsed.error)
      return {
        ...this.#outcome(log, started, "ok", 0, parsed.finalMessage, undefined, usage),
        processMs: result.durationMs,
      };
    const how =
      result.exitCode === null ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    const detail = parsed.error ?? (stderrTail.trim() || "its output stream ended without a final result");
    const why = `${this.#def.name} ${how}: ${detail}`;
    log.add({ type: "control", kind: "error", detail: why });
    return {
      ...this.#outcome(log, started, "error", result.exitCode, parsed.finalMessage, why, usage),
      processMs: result.durationMs,
    };
  }

  /** This step's usage: as reported, or the difference to the previous totals for cumulative reports. */
  #stepUsage(parsed: ParsedStep): StepOutcome["usage"] {
    const u = parsed.usage;
    const tokens = u.cumulative
      ? {
          inputTokens: Math.max(0, u.inputTokens - this.#seen.inputTokens),
          outputTokens: Math.max(0, u.outputTokens - this.#seen.outputTokens),
        }
      : { inputTokens: u.inputTokens, outputTokens: u.outputTokens };
    const costUsd = u.costCumulative ? Math.max(0, u.costUsd - this.#seen.costUsd) : u.costUsd;
    if (u.cumulative) {
      this.#seen.inputTokens = Math.max(this.#seen.inputTokens, u.inputTokens);
      this.#seen.outputTokens = Math.max(this.#seen.outputTokens, u.outputTokens);
    }
    if (u.costCumulative) this.#seen.costUsd = Math.max(this.#seen.costUsd, u.costUsd);
    return { ...tokens, costUsd: Math.round(costUsd * 1e6) / 1e6 };
  }
}
