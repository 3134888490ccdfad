import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isErrnoCode } from "../../core/errors.ts";
import { redact, type Secret, secretsFromEnv } from "../../core/redaction.ts";
import { parseWith } from "../../core/validate.ts";
import { runProcess } from "../../workspace/process.ts";
import { confine, programDirs, withReadable } from "../../workspace/sandbox.ts";
import type {
  AgentWorkspace,
  CodingAgentAdapter,
  CodingAgentSession,
  StepOutcome,
  StepRequest,
} from "./adapter.ts";
import { formatCommandLine, StepEventLog } from "./events.ts";
import { addReportedTrajectory, resetTrajectoryFile, TRAJECTORY_ENV } from "./reported-trajectory.ts";
import { StepGate } from "./step-gate.ts";

/**
 * The `command` coding-agent adapter (DESIGN.md "Coding agent adapter"): runs any CLI agent from an argv
 * template, one process per step, continuing the agent's session across steps with a resume template.
 * No shell is involved, so a prompt needs no quoting.
 */

/** Template tokens, replaced inside any argv word in one pass (a prompt containing `{stepId}` stays as is). */
const TOKEN = /\{(prompt|sessionId|stepId|workspace|trajectoryFile)\}/g;

/** Final messages keep at most this many characters (the end of stdout, where agents put their answer). */
export const FINAL_MESSAGE_MAX_CHARS = 16_384;

/** Error texts keep at most this many characters of the end of stderr. */
const STDERR_TAIL_CHARS = 2_000;

const argvTemplate = z
  .array(z.string())
  .min(1)
  .refine((argv) => argv[0] !== "", { message: "the program (first word) must not be empty" });

/**
 * Configuration of a `command` agent (YAML `agents[].command`, camelCase like the code).
 * Parse with {@link commandAdapter}, which throws an `InputError` naming the bad field.
 */
export const CommandAgentConfig = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "use letters, digits, . _ - (no spaces or colons)")
      .refine((n) => n !== "scripted" && n !== "command", { message: "this name is reserved" })
      .describe(
        "Name of the agent under test; the adapter's spec is `command:<name>` (e.g. `command:my-agent`).",
      ),
    argv: argvTemplate.describe(
      "Program and arguments for the first step, run without a shell in the workspace directory. The tokens " +
        "`{prompt}`, `{sessionId}`, `{stepId}`, `{workspace}` (absolute workspace path) and `{trajectoryFile}` " +
        "(where to write the trajectory, with `trajectory: jsonl`) are replaced inside " +
        'any word, e.g. `["my-agent", "--print", "{prompt}"]`.',
    ),
    resumeArgv: argvTemplate
      .optional()
      .describe(
        "Template (same tokens) for every step after the first, to continue the same agent session, e.g. " +
          '`["my-agent", "--resume", "{sessionId}", "{prompt}"]`. Default: `argv` for every step.',
      ),
    sessionIdFrom: z
      .union([
        z.literal("generated"),
        z
          .object({
            regex: z
              .string()
              .min(1)
              .describe(
                "JavaScript regular expression (multiline: `^`/`$` match at line ends) run on each step's " +
                  "stdout; capture group 1 is the session id, e.g. `^session: (\\S+)$`.",
              ),
          })
          .strict(),
      ])
      .optional()
      .describe(
        "Where the session id comes from: `generated` (a UUID Gauntlet creates when the session starts and " +
          "passes as `{sessionId}`) or `{regex}` (read from the agent's stdout, updated at every step where it " +
          "matches). Default: `generated` when a template uses `{sessionId}`, otherwise no session id.",
      ),
    finalMessage: z
      .enum(["stdout", "last-line"])
      .default("stdout")
      .describe(
        `The step's final message: \`stdout\` (all of stdout, trimmed; at most ${FINAL_MESSAGE_MAX_CHARS} ` +
          "characters, keeping the end) or `last-line` (the last non-empty line of stdout).",
      ),
    trajectory: z
      .literal("jsonl")
      .optional()
      .describe(
        "The agent reports its own trajectory: Gauntlet passes a file path in GAUNTLET_TRAJECTORY_FILE (and the " +
          "argv token `{trajectoryFile}`), the agent appends one standard event per line (`gauntlet schema " +
          "trajectory-event`; id, step and ts optional). Its commands and tool calls then reach the oracles.",
      ),
    maxOutputBytes: z
      .number()
      .int()
      .positive()
      .default(64 * 1024)
      .describe("Bytes of stdout and of stderr (each) kept in the step's `command` event; the rest is cut."),
  })
  .strict()
  .superRefine((config, ctx) => {
    const from = config.sessionIdFrom;
    if (from === undefined || from === "generated") return;
    let groups: number;
    try {
      // An alternation with the empty pattern always matches; its result has one slot per capture group.
      groups = new RegExp(`${from.regex}|`, "m").exec("")!.length - 1;
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        path: ["sessionIdFrom", "regex"],
        message: `not a valid regular expression: ${(error as Error).message}`,
      });
      return;
    }
    if (groups < 1) {
      ctx.addIssue({
        code: "custom",
        path: ["sessionIdFrom", "regex"],
        message: "needs a capture group: group 1 is taken as the session id",
      });
    }
    if (config.argv.some((word) => word.includes("{sessionId}"))) {
      ctx.addIssue({
        code: "custom",
        path: ["argv"],
        message: "uses {sessionId}, but with sessionIdFrom.regex the id is only known after the first step",
      });
    }
  })
  .describe("A coding agent run as a command-line program, one invocation per step.");
export type CommandAgentConfig = z.output<typeof CommandAgentConfig>;
/** The config as written by a user (defaults not yet applied). */
export type CommandAgentConfigInput = z.input<typeof CommandAgentConfig>;

/**
 * The `command` adapter: runs the configured CLI agent once per step.
 *
 * Each step runs `argv` (first step) or `resumeArgv` (later steps) via `runProcess`: cwd = workspace
 * directory, env = workspace env (nothing of ours added except the process tag), stdin closed, killed with
 * its whole process tree at `timeoutMs` or when the step's signal aborts; anything it leaves running in the
 * background is killed when it exits.
 *
 * Step status: exit 0 → `ok`; non-zero exit or killed by a signal we did not send → `error`, with
 * `"<name> exited with code N: <stderr tail>"`; time limit → `timeout` (exitCode null, final message "");
 * aborted → `error`; a program that cannot be started (missing, not executable) → `error` with a message
 * saying so — never a throw. Events per step, ids `<stepId>-e<n>`: the user `message` (prompt), the
 * `command` (the agent invocation as a shell-quoted line, exit code, duration, capped stdout/stderr), a
 * `control` event (`timeout` or `interrupt`) when killed, and the assistant `message` (final message) when
 * non-empty. With `trajectory: jsonl`, the events the agent reported in its trajectory file follow the
 * `command` event (reported-trajectory.ts) and `commandsObserved` is true when that file was complete and
 * valid; otherwise only the agent process is seen (`commandsObserved: false`). Every string of the events,
 * the final message and the error text has the values of the
 * workspace env's secrets (`secretsFromEnv`) replaced by `[REDACTED:<NAME>]`. Usage is reported as 0.
 *
 * @throws InputError when `config` does not match {@link CommandAgentConfig}
 */
export function commandAdapter(config: CommandAgentConfigInput): CodingAgentAdapter {
  const parsed = parseWith(CommandAgentConfig, config, {});
  return {
    name: `command:${parsed.name}`,
    startSession: async (workspace) => new CommandSession(parsed, workspace),
  };
}

/** One agent session: the steps of a case, run one at a time. */
class CommandSession implements CodingAgentSession {
  readonly #config: CommandAgentConfig;
  readonly #workspace: AgentWorkspace;
  readonly #secrets: readonly Secret[];
  readonly #sessionRegex: RegExp | undefined;
  readonly #gate = new StepGate();
  #sessionId: string | undefined;
  /** True once a step has started the agent process (later steps resume). */
  #started = false;

  constructor(config: CommandAgentConfig, workspace: AgentWorkspace) {
    this.#config = config;
    this.#workspace = workspace;
    this.#secrets = secretsFromEnv(workspace.env, workspace.secretNames);
    const from = config.sessionIdFrom;
    const usesSessionId = [config.argv, config.resumeArgv ?? []].some((t) =>
      t.some((word) => word.includes("{sessionId}")),
    );
    if (from === "generated" || (from === undefined && usesSessionId)) this.#sessionId = randomUUID();
    this.#sessionRegex = typeof from === "object" ? new RegExp(from.regex, "m") : undefined;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  runStep(request: StepRequest): Promise<StepOutcome> {
    return this.#gate.run(
      () => this.#run(request),
      (why) => this.#refuse(request, why),
    );
  }

  close(): Promise<void> {
    return this.#gate.close();
  }

  async #run(request: StepRequest): Promise<StepOutcome> {
    const started = Date.now();
    const log = new StepEventLog(request.stepId, this.#secrets);
    const ask = log.add({ type: "message", role: "user", text: request.prompt, ts: started });
    const resuming = this.#started && this.#config.resumeArgv !== undefined;
    const template = resuming ? this.#config.resumeArgv! : this.#config.argv;
    if (this.#sessionId === undefined && template.some((word) => word.includes("{sessionId}"))) {
      return this.#fail(
        log,
        started,
        ask,
        `cannot resume the session: no session id was found in the agent's output (pattern ${this.#sessionRegex})`,
      );
    }
    const trajectoryFile = path.join(
      this.#workspace.env.TMPDIR ?? this.#workspace.dir,
      `gauntlet-trajectory-${request.stepId}.jsonl`,
    );
    if (this.#config.trajectory) resetTrajectoryFile(trajectoryFile);
    const vars: Record<string, string> = {
      prompt: request.prompt,
      sessionId: this.#sessionId ?? "",
      stepId: request.stepId,
      workspace: this.#workspace.dir,
      trajectoryFile,
    };
    const argv = template.map((word) => word.replace(TOKEN, (_, name: string) => vars[name]!));
    const stdoutTail = new Tail(FINAL_MESSAGE_MAX_CHARS);
    const stderrTail = new Tail(STDERR_TAIL_CHARS);
    const signal = request.signal
      ? AbortSignal.any([request.signal, this.#gate.closing.signal])
      : this.#gate.closing.signal;
    let result: Awaited<ReturnType<typeof runProcess>>;
    try {
      result = await runProcess(
        confine(
          { file: argv[0]!, args: argv.slice(1) },
          withReadable(this.#workspace.sandbox, programDirs(argv[0]!)),
          this.#workspace.dir,
        ),
        {
          cwd: this.#workspace.dir,
          env: this.#config.trajectory
            ? { ...this.#workspace.env, [TRAJECTORY_ENV]: trajectoryFile }
            : this.#workspace.env,
          timeoutMs: request.timeoutMs,
          signal,
          maxOutputBytes: this.#config.maxOutputBytes,
          onStdout: (chunk) => stdoutTail.push(chunk),
          onStderr: (chunk) => stderrTail.push(chunk),
        },
      );
    } catch (error) {
      return this.#fail(log, started, ask, this.#describeStartFailure(argv[0]!, error));
    }
    this.#started = true;
    const sessionId =
      this.#sessionRegex?.exec(result.stdout)?.[1] ?? this.#sessionRegex?.exec(stdoutTail.text)?.[1];
    if (sessionId) this.#sessionId = sessionId;

    const run = log.add({
      type: "command",
      ts: started,
      command: formatCommandLine(argv),
      cwd: ".",
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      timedOut: result.timedOut,
      stdout: result.stdout,
      stderr: result.stderr,
      parent: [ask],
    });
    const observed = this.#config.trajectory ? addReportedTrajectory(trajectoryFile, log, run) : false;
    const outcome = (status: StepOutcome["status"], finalMessage: string, error?: string): StepOutcome => {
      const text = redact(finalMessage, this.#secrets);
      if (text) log.add({ type: "message", role: "assistant", text, parent: [run] });
      return {
        commandsObserved: observed,
        status,
        exitCode: result.exitCode,
        finalMessage: text,
        events: log.list(),
        durationMs: Date.now() - started,
        usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
        ...(error === undefined ? {} : { error: redact(error, this.#secrets) }),
      };
    };

    if (result.timedOut) {
      const detail = `the step exceeded its time limit of ${request.timeoutMs} ms; the agent's process tree was killed`;
      log.add({ type: "control", kind: "timeout", detail, parent: [run] });
      return outcome("timeout", "");
    }
    if (result.aborted) {
      const why = this.#gate.closing.signal.aborted ? "the session was closed" : "the step was aborted";
      const detail = `${why}; the agent's process tree was killed`;
      log.add({ type: "control", kind: "interrupt", detail, parent: [run] });
      return outcome("error", "", detail);
    }
    const finalMessage = finalMessageOf(stdoutTail, this.#config.finalMessage);
    if (result.exitCode === 0) return outcome("ok", finalMessage);
    const how =
      result.exitCode === null ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
    const stderr = stderrTail.text.trim();
    return outcome("error", finalMessage, `${this.#config.name} ${how}${stderr ? `: ${stderr}` : ""}`);
  }

  /** A clear sentence for a program that could not be started at all. */
  #describeStartFailure(program: string, error: unknown): string {
    if (isErrnoCode(error, "ENOENT")) {
      // Node reports a missing cwd as the program being missing; tell them apart.
      if (!existsSync(this.#workspace.dir))
        return `the workspace directory ${this.#workspace.dir} does not exist`;
      return `agent program "${program}" was not found (is it installed and on the workspace env's PATH?)`;
    }
    if (isErrnoCode(error, "EACCES")) return `agent program "${program}" is not executable`;
    return `agent program "${program}" could not be started: ${(error as Error).message ?? String(error)}`;
  }

  /** Outcome of a step that could not run the agent: the prompt, a `control` error event, status `error`. */
  #fail(log: StepEventLog, started: number, ask: string, error: string): StepOutcome {
    const text = redact(error, this.#secrets);
    log.add({ type: "control", kind: "error", detail: text, parent: [ask] });
    return {
      commandsObserved: false,
      status: "error",
      exitCode: null,
      finalMessage: "",
      events: log.list(),
      durationMs: Date.now() - started,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      error: text,
    };
  }

  /** A step refused before it started (session busy or closed). */
  #refuse(request: StepRequest, error: string): StepOutcome {
    const started = Date.now();
    const log = new StepEventLog(request.stepId, this.#secrets);
    const ask = log.add({ type: "message", role: "user", text: request.prompt, ts: started });
    return this.#fail(log, started, ask, error);
  }
}

/** The last `max` characters of a stream of text, and how many came before them. */
class Tail {
  text = "";
  dropped = 0;

  constructor(readonly max: number) {}

  push(chunk: string): void {
    const joined = this.text + chunk;
    const cut = Math.max(0, joined.length - this.max);
    this.dropped += cut;
    this.text = joined.slice(cut);
  }
}

/** The final message from the end of stdout (see {@link CommandAgentConfig} `finalMessage`). */
function finalMessageOf(stdout: Tail, mode: CommandAgentConfig["finalMessage"]): string {
  if (mode === "last-line") {
    const lines = stdout.text.split("\n").map((line) => line.trim());
    return lines.filter((line) => line !== "").at(-1) ?? "";
  }
  const text = stdout.text.trim();
  return stdout.dropped > 0 && text ? `[… ${stdout.dropped} characters truncated]\n${text}` : text;
}
