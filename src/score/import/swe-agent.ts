import path from "node:path";
import { exitCodeInText } from "../../agents/coding/trace-builder.ts";
import { InputError } from "../../core/errors.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import type { ControlEvent } from "../../core/trajectory.ts";
import { contentText } from "./content-text.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { readJsonValues } from "./read-json-values.ts";

/**
 * SWE-agent `.traj` → standard events (trajectory-formats.md §1.7, §1.12). One JSON document per instance:
 * `trajectory[]` (one step each: `thought`, `action` command string, `observation`, `state`,
 * `execution_time` in seconds), `history[]` (the conversation, with `tool_calls` in function-calling
 * mode), `info` (`exit_status`, `model_stats` totals) and `replay_config` (model, problem statement id).
 *
 * Each step becomes the thought (assistant message), a tool call named for the interface command (`open`,
 * `edit`, `create`, `find_file`, `submit`, … — the commands the system prompt documents, or the function
 * name in function-calling mode) or `bash` for any other command line, and its observation as the result.
 * `bash` steps are also `command` events: the log records no exit code, so it is read from the observation
 * text when one is printed, else null; a command cancelled for taking too long is `timedOut` with a
 * `control: timeout`. `create`, `edit`, `insert` and `str_replace_editor` writes are `file_change`s (the
 * path from the arguments, or the open file of the step's `state`), unless the observation shows the edit
 * was refused. `info.exit_status` ends the trajectory as a `control` event (see {@link exitStatusControl});
 * `info.model_stats` is one `usage` event (instance totals, so nothing is counted twice).
 *
 * Memory: the big arrays are streamed element by element (`stream-json`) in two passes over the file — the
 * first reads `history` (only the opening system/task messages and the function calls are kept), `info`
 * and `replay_config`, which come after `trajectory` in the file; the second streams `trajectory`. The file
 * is thus read twice, but never held whole. Events keep `raw: {file}` (no lines in a JSON document); a step
 * that cannot be mapped is reported with its 1-based position in `trajectory` as `line`, and `lines` counts
 * the steps read.
 */

/** SWE-agent interface commands (classic ACI and tool bundles) that are not shell command lines. */
const ACI = new Set([
  "open",
  "goto",
  "scroll_up",
  "scroll_down",
  "create",
  "edit",
  "insert",
  "append",
  "search_dir",
  "search_file",
  "find_file",
  "filemap",
  "submit",
  "str_replace_editor",
  "view_image",
  "exit_forfeit",
]);
const WRITES = new Set(["create", "edit", "insert", "append", "str_replace_editor"]);
const REFUSED_EDIT =
  /Your proposed edit has introduced new syntax error|No replacement was performed|^Error:|^Invalid `path`/m;
const TIMED_OUT = /was cancelled because it took more than \d+ seconds|^EXECUTION TIMED OUT/m;

/**
 * The control signal an agent-harness `exit_status` (SWE-agent `info.exit_status`, mini-swe-agent
 * `info.exit_status`) ends a run with: a plain submission hands the result back (`handoff`); a status naming
 * a cost, context, step or time limit (`submitted (exit_cost)`, `exit_context`, `LimitsExceeded`,
 * `exit_command_timeout`, …) is `timeout`; anything else (`exit_format`, `FormatError`, `exit_error`,
 * `exit_environment_error`, `exit_forfeit`, …) is `error`. Source: trajectory-formats.md §1.7, §1.8.
 */
export function exitStatusControl(status: string): ControlEvent["kind"] {
  const s = status.toLowerCase();
  if (/cost|context|limit|exceeded|timeout|execution_time/.test(s)) return "timeout";
  return s === "submitted" ? "handoff" : "error";
}

interface FunctionCall {
  id: string;
  name: string;
  args: unknown;
}

/** What the first pass keeps: bounded by the number of steps, not the size of their texts. */
interface Header {
  prelude: { role: "system" | "user"; text: string }[];
  calls: FunctionCall[];
  commands: Set<string>;
  info: Json;
  model?: string;
  instanceId?: string;
  /** The document has a step, a history message or `info`. */
  isTrajectory: boolean;
}

/** A JSON value that may be stored as JSON text (`state`, `replay_config`, tool arguments). */
function decoded(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const HINT = "pass a SWE-agent `.traj` file (one JSON document)";

/** First pass: everything but the steps (see the module comment). */
async function readHeader(file: string): Promise<Header> {
  const header: Header = { prelude: [], calls: [], commands: new Set(ACI), info: {}, isTrajectory: false };
  let conversationStarted = false;
  const wanted = (p: readonly (string | number)[]) =>
    (p.length === 1 && (p[0] === "info" || p[0] === "replay_config")) ||
    (p.length === 2 && p[0] === "history") ||
    (p.length === 2 && p[0] === "trajectory" && p[1] === 0);
  for await (const { path: p, value } of readJsonValues(file, wanted, file, HINT)) {
    header.isTrajectory = true;
    if (p[0] === "info") header.info = obj(value);
    if (p[0] === "replay_config") {
      const config = obj(decoded(value));
      const model = obj(obj(config.agent).model);
      if (str(model.name)) header.model = str(model.name);
      if (str(obj(config.problem_statement).id)) header.instanceId = str(obj(config.problem_statement).id);
    }
    if (p[0] !== "history") continue;
    const m = obj(value);
    if (m.is_demo === true) continue;
    const role = str(m.role);
    if (role === "assistant") conversationStarted = true;
    if (!conversationStarted && (role === "system" || role === "user") && contentText(m.content).trim())
      header.prelude.push({ role, text: contentText(m.content) });
    if (role === "system")
      for (const match of contentText(m.content).matchAll(/^(\w+):\n\s+docstring:/gm))
        header.commands.add(match[1]!);
    const call = obj(arr(m.tool_calls)[0]);
    const fn = obj(call.function);
    if (role === "assistant" && str(fn.name)) {
      header.calls.push({ id: str(call.id), name: str(fn.name), args: decoded(fn.arguments) });
      header.commands.add(str(fn.name));
    }
  }
  return header;
}

/**
 * Import one SWE-agent `.traj` file.
 * @throws InputError naming the file when it is not a valid JSON document or not a SWE-agent trajectory
 * @throws the file system's error for an unreadable file
 */
export async function importSweAgent(file: string): Promise<ImportedTrajectory> {
  const header = await readHeader(file);
  const sink = new EventSink(file);
  const add = sink.add.bind(sink);
  const skipped: ImportedTrajectory["skipped"] = [];
  let lines = 0;
  let nextCall = 0;
  if (!header.isTrajectory)
    throw new InputError({ file }, "not a SWE-agent trajectory (no `trajectory`, `history` or `info`)", HINT);

  for (const m of header.prelude) add({ type: "message", role: m.role, text: m.text });
  const steps = readJsonValues(file, (p) => p.length === 2 && p[0] === "trajectory", file, HINT);
  for await (const { path: p, value } of steps) {
    const n = (p[1] as number) + 1;
    lines = n;
    sink.at = p[1] as number;
    const s = obj(value);
    if (!Object.keys(s).length) {
      skipped.push({ line: n, reason: `trajectory step ${n}: not a JSON object` });
      continue;
    }
    const action = str(s.action).trim();
    const observation = str(s.observation);
    const state = obj(decoded(s.state));
    const thought = str(s.thought) || (action ? "" : str(s.response));
    if (thought.trim()) add({ type: "message", role: "assistant", text: thought });
    if (!action) {
      add({
        type: "control",
        kind: "error",
        detail: `step ${n} has no action: ${observation.slice(0, 300)}`,
      });
      continue;
    }
    const word = /^\S+/.exec(action)?.[0] ?? "";
    const candidate = header.calls[nextCall];
    const fc =
      candidate && (candidate.name === word || str(obj(candidate.args).command).trim() === action)
        ? candidate
        : undefined;
    if (fc) nextCall++;
    const name = fc?.name ?? (header.commands.has(word) ? word : "bash");
    const callId = fc?.id || `swe-agent-step-${n}`;
    const target = writeTarget(name, action, fc?.args, str(state.open_file));
    const named = target?.path ?? (name === "open" ? unquote(action.split(/\s+/)[1]) : "");
    const input = fc
      ? fc.args
      : name === "bash"
        ? { command: action }
        : { command: action, ...(named ? { path: named } : {}) };
    const call = add({ type: "tool_call", callId, name, input });
    const timedOut = TIMED_OUT.test(observation);
    const exitCode = name === "bash" && !timedOut ? exitCodeInText(observation) : null;
    const refused = WRITES.has(name) && REFUSED_EDIT.test(observation);
    if (name === "bash") {
      const seconds = typeof s.execution_time === "number" ? s.execution_time : 0;
      add(
        {
          type: "command",
          command: str(obj(fc?.args).command) || action,
          exitCode,
          durationMs: Math.round(seconds * 1000),
          ...(timedOut ? { timedOut } : {}),
          stdout: observation,
        },
        undefined,
        [call],
      );
    }
    const isError = timedOut || refused || (exitCode ?? 0) !== 0;
    const result = add({ type: "tool_result", callId, output: observation, isError }, undefined, [call]);
    if (timedOut)
      add({ type: "control", kind: "timeout", detail: observation.slice(0, 300) }, undefined, [result]);
    if (target && !isError)
      add(
        { type: "file_change", path: relative(target.path, str(state.working_dir)), kind: target.kind },
        undefined,
        [result],
      );
  }
  const status = str(header.info.exit_status);
  if (status) add({ type: "control", kind: exitStatusControl(status), detail: `exit_status ${status}` });
  const stats = obj(header.info.model_stats);
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  const sent = num(stats.tokens_sent);
  const received = num(stats.tokens_received);
  const cost = num(stats.instance_cost);
  if (sent > 0 || received > 0 || cost > 0)
    add({
      type: "usage",
      inputTokens: sent,
      outputTokens: received,
      costUsd: cost,
      ...(header.model ? { model: header.model } : {}),
    });
  return {
    id: path.basename(file),
    format: "swe-agent-traj",
    file,
    agent: "swe-agent",
    models: header.model ? [header.model] : [],
    ...(header.instanceId ? { instanceId: header.instanceId } : {}),
    events: sink.events,
    skipped,
    lines,
  };
}

/** The file a writing step targets and how: from its arguments, its command text, or the open file. */
function writeTarget(
  name: string,
  action: string,
  args: unknown,
  openFile: string,
): { path: string; kind: "added" | "modified" } | undefined {
  if (!WRITES.has(name)) return undefined;
  const a = obj(args);
  const words = action.split(/\s+/);
  if (name === "str_replace_editor") {
    const sub = str(a.command) || (words[1] ?? "");
    const file = str(a.path) || (words[2] ?? "");
    if (!["create", "str_replace", "insert", "undo_edit"].includes(sub) || !file) return undefined;
    return { path: file, kind: sub === "create" ? "added" : "modified" };
  }
  if (name === "create") {
    const file = str(a.filename) || str(a.path) || unquote(words[1]);
    return file ? { path: file, kind: "added" } : undefined;
  }
  const file = str(a.path) || openFile;
  return file && file !== "n/a" ? { path: file, kind: "modified" } : undefined;
}

/** A command argument without its surrounding quotes. */
function unquote(word: string | undefined): string {
  return (word ?? "").replace(/^["']|["']$/g, "");
}

/** A path relative to the working directory when it lies under it. */
function relative(file: string, cwd: string): string {
  return cwd && path.isAbsolute(file) && file.startsWith(`${cwd}/`) ? path.relative(cwd, file) : file;
}
