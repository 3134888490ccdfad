import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { resolveInside } from "../../core/paths.ts";
import { redact, type Secret, secretsFromEnv } from "../../core/redaction.ts";
import type { EventDraft, TrajectoryEvent } from "../../core/trajectory.ts";
import { runProcess } from "../../workspace/process.ts";
import { confine, type Sandbox } from "../../workspace/sandbox.ts";
import type {
  AgentWorkspace,
  CodingAgentAdapter,
  CodingAgentSession,
  SeededMisbehaviour,
  StepOutcome,
  StepRequest,
} from "./adapter.ts";

/**
 * The `scripted` adapter: a deterministic, offline coding agent. A {@link Persona} decides what to do for each
 * step and acts through {@link AgentTools} (shell, file writes, deletes, moves, a final message); every
 * action is recorded as standard trajectory events exactly like a real agent's tool calls. Used by tests and
 * the demo; it never calls a model.
 */

/** Result of a shell command run by a scripted agent. */
export interface ShellResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** True when the agent's own bound (`timeoutSec`) stopped the command. */
  timedOut: boolean;
}

/** The tools a persona acts with; each call is recorded as tool_call / tool_result (and command) events. */
export interface AgentTools {
  /** Workspace directory (cwd of commands). */
  readonly dir: string;
  /** Run a shell command in the workspace; `timeoutSec` is the agent's own bound on it. */
  run(command: string, options?: { timeoutSec?: number }): Promise<ShellResult>;
  write(relPath: string, content: string): void;
  append(relPath: string, content: string): void;
  remove(relPath: string, options?: { recursive?: boolean }): void;
  move(from: string, to: string): void;
  read(relPath: string): string | undefined;
  exists(relPath: string): boolean;
  /** Workspace-relative files under `relDir` (recursive, sorted; skips node_modules and .git). */
  list(relDir?: string): string[];
  /** Set the step's final message. */
  say(text: string): void;
  /** Declare a misbehaviour committed on purpose (ground truth for oracle recall). */
  seed(misbehaviour: Omit<SeededMisbehaviour, "stepId">): void;
  /** The workspace environment (names and values). */
  readonly env: Readonly<Record<string, string>>;
}

/** A deterministic agent policy: what to do for a step, with memory across the steps of one session. */
export interface Persona {
  readonly name: string;
  /** Fresh per-session memory. */
  newMemory(): Record<string, unknown>;
  act(step: StepRequest, tools: AgentTools, memory: Record<string, unknown>): Promise<void>;
}

const SKIP_DIRS = new Set(["node_modules", ".git"]);

class StepRecorder implements AgentTools {
  readonly events: TrajectoryEvent[] = [];
  readonly seeded: SeededMisbehaviour[] = [];
  finalMessage = "";
  private calls = 0;

  constructor(
    readonly dir: string,
    readonly env: Readonly<Record<string, string>>,
    private readonly stepId: string,
    private readonly signal: AbortSignal,
    private readonly secrets: readonly Secret[],
    private readonly nextId: () => string,
    private readonly sandbox: Sandbox | undefined,
  ) {}

  private push(event: EventDraft): string {
    const id = this.nextId();
    this.events.push({ ...event, id, ts: Date.now(), step: this.stepId } as TrajectoryEvent);
    return id;
  }

  private tool<T>(name: string, input: Record<string, unknown>, fn: () => T, describe: (r: T) => string): T {
    const callId = `${this.stepId}-call${++this.calls}`;
    const callEvent = this.push({
      type: "tool_call",
      callId,
      name,
      input: JSON.parse(redact(JSON.stringify(input), this.secrets)),
    });
    try {
      const result = fn();
      this.push({
        type: "tool_result",
        callId,
        output: redact(describe(result), this.secrets),
        isError: false,
        parent: [callEvent],
      });
      return result;
    } catch (error) {
      this.push({
        type: "tool_result",
        callId,
        output: redact(String(error), this.secrets),
        isError: true,
        parent: [callEvent],
      });
      throw error;
    }
  }

  private abs(rel: string): string {
    return resolveInside(this.dir, rel);
  }

  async run(command: string, options: { timeoutSec?: number } = {}): Promise<ShellResult> {
    const callId = `${this.stepId}-call${++this.calls}`;
    const callEvent = this.push({
      type: "tool_call",
      callId,
      name: "shell",
      input: { command: redact(command, this.secrets) },
    });
    const r = await runProcess(confine({ shell: command }, this.sandbox, this.dir), {
      cwd: this.dir,
      env: this.env,
      signal: this.signal,
      timeoutMs: options.timeoutSec ? options.timeoutSec * 1000 : undefined,
    });
    const out = { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
    const commandEvent = this.push({
      type: "command",
      command: redact(command, this.secrets),
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      timedOut: r.timedOut || undefined,
      stdout: redact(r.stdout, this.secrets),
      stderr: redact(r.stderr, this.secrets),
      parent: [callEvent],
    });
    this.push({
      type: "tool_result",
      callId,
      output: redact(
        `exit code ${r.exitCode ?? "none"}${r.timedOut ? " (stopped by the agent's time bound)" : ""}`,
        this.secrets,
      ),
      isError: r.exitCode !== 0,
      parent: [commandEvent],
    });
    return out;
  }

  write(rel: string, content: string): void {
    this.tool(
      "write_file",
      { path: rel, content },
      () => {
        mkdirSync(path.dirname(this.abs(rel)), { recursive: true });
        writeFileSync(this.abs(rel), content);
      },
      () => `wrote ${Buffer.byteLength(content)} bytes to ${rel}`,
    );
  }

  append(rel: string, content: string): void {
    this.tool(
      "append_file",
      { path: rel, content },
      () => {
        const abs = this.abs(rel);
        const old = existsSync(abs) ? readFileSync(abs, "utf8") : "";
        const sep = old.length > 0 && !old.endsWith("\n") ? "\n" : "";
        writeFileSync(abs, old + sep + content);
      },
      () => `appended to ${rel}`,
    );
  }

  remove(rel: string, options: { recursive?: boolean } = {}): void {
    this.tool(
      "delete_path",
      { path: rel, ...options },
      () => rmSync(this.abs(rel), { recursive: options.recursive ?? false }),
      () => `deleted ${rel}`,
    );
  }

  move(from: string, to: string): void {
    this.tool(
      "move_path",
      { from, to },
      () => {
        mkdirSync(path.dirname(this.abs(to)), { recursive: true });
        renameSync(this.abs(from), this.abs(to));
      },
      () => `moved ${from} to ${to}`,
    );
  }

  read(rel: string): string | undefined {
    return this.tool(
      "read_file",
      { path: rel },
      () => (existsSync(this.abs(rel)) ? readFileSync(this.abs(rel), "utf8") : undefined),
      (r) => (r === undefined ? `${rel}: no such file` : `${r.length} chars`),
    );
  }

  exists(rel: string): boolean {
    return existsSync(this.abs(rel));
  }

  list(relDir = "."): string[] {
    return this.tool(
      "list_files",
      { path: relDir },
      () => {
        const out: string[] = [];
        const walk = (rel: string) => {
          const abs = this.abs(rel);
          if (!existsSync(abs) || !statSync(abs).isDirectory()) return;
          for (const entry of readdirSync(abs, { withFileTypes: true })) {
            if (SKIP_DIRS.has(entry.name)) continue;
            const child = rel === "." ? entry.name : `${rel}/${entry.name}`;
            if (entry.isDirectory()) walk(child);
            else out.push(child);
          }
        };
        walk(relDir.replace(/\/$/, "") || ".");
        return out.sort();
      },
      (r) => r.join("\n"),
    );
  }

  say(text: string): void {
    this.finalMessage = text;
  }

  seed(m: Omit<SeededMisbehaviour, "stepId">): void {
    this.seeded.push({ ...m, stepId: this.stepId });
  }
}

/**
 * A scripted coding agent with the given persona.
 * @param name agent spec recorded in trajectories, e.g. `scripted:careful`
 */
export function scriptedAdapter(name: string, persona: Persona): CodingAgentAdapter {
  return {
    name,
    async startSession(workspace: AgentWorkspace): Promise<CodingAgentSession> {
      const memory = persona.newMemory();
      const secrets = secretsFromEnv(workspace.env, workspace.secretNames);
      let counter = 0;
      const sessionId = `scripted-${persona.name}-${Date.now().toString(36)}`;
      return {
        sessionId,
        async runStep(request: StepRequest): Promise<StepOutcome> {
          const started = Date.now();
          const controller = new AbortController();
          const onAbort = () => controller.abort();
          request.signal?.addEventListener("abort", onAbort, { once: true });
          let timedOut = false;
          const timer = setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, request.timeoutMs);
          const recorder = new StepRecorder(
            workspace.dir,
            workspace.env,
            request.stepId,
            controller.signal,
            secrets,
            () => `${request.stepId}-e${++counter}`,
            workspace.sandbox,
          );
          const nextId = () => `${request.stepId}-e${++counter}`;
          const base = { ts: started, step: request.stepId };
          const events: TrajectoryEvent[] = [
            { ...base, id: nextId(), type: "message", role: "user", text: redact(request.prompt, secrets) },
          ];
          let status: StepOutcome["status"] = "ok";
          let error: string | undefined;
          // The persona runs until it finishes or the step's time limit aborts its running command.
          const acting = persona.act(request, recorder, memory).catch((e: unknown) => {
            if (!controller.signal.aborted) {
              status = "error";
              error = e instanceof Error ? e.message : String(e);
            }
          });
          await new Promise<void>((resolve) => {
            void acting.then(() => resolve());
            controller.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          clearTimeout(timer);
          request.signal?.removeEventListener("abort", onAbort);
          events.push(...recorder.events);
          if (timedOut) {
            status = "timeout";
            events.push({
              ...base,
              id: nextId(),
              ts: Date.now(),
              type: "control",
              kind: "timeout",
              detail: `step exceeded ${request.timeoutMs} ms; agent killed`,
            });
          } else if (controller.signal.aborted) {
            status = "error";
            error = "step aborted";
          }
          if (status === "ok" || recorder.finalMessage)
            events.push({
              ...base,
              id: nextId(),
              ts: Date.now(),
              type: "message",
              role: "assistant",
              text: redact(recorder.finalMessage, secrets),
            });
          return {
            status,
            exitCode: status === "ok" ? 0 : null,
            finalMessage: redact(status === "timeout" ? "" : recorder.finalMessage, secrets),
            events,
            durationMs: Date.now() - started,
            usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
            error,
            seeded: recorder.seeded,
          };
        },
        async close() {},
      };
    },
  };
}
