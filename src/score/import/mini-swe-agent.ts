import path from "node:path";
import { InputError } from "../../core/errors.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import { contentText } from "./content-text.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { readJsonValues } from "./read-json-values.ts";
import { exitStatusControl } from "./swe-agent.ts";

/**
 * mini-swe-agent trajectories → standard events (trajectory-formats.md §1.8, §1.12): `<id>.traj.json`,
 * `{info, messages, trajectory_format, instance_id}` — or, as early releases and test runs save it, the bare
 * `messages` array.
 * - v1 (`mini-swe-agent-1`): `messages` are `{role, content}`; the action is the single fenced `bash` block
 *   of an assistant message (a `tool_call` named `bash`) and the next user message is its observation
 *   (`<returncode>N</returncode><output>…`: a `command` with that exit code, and the `tool_result`). An
 *   assistant message without exactly one block is a format error: the reply it gets becomes a
 *   `control: error`. A command killed for its time limit is `timedOut` with a `control: timeout`. The
 *   observation of the submitting command (`echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT …`) is the
 *   submission itself, without a return code: its `command` has `exitCode: null`.
 * - v2 (`mini-swe-agent-1.1`, from the format description, no real file checked): assistant `tool_calls`
 *   (or `extra.actions`), `role: "tool"` observations with `tool_call_id` and `{returncode, output}`
 *   content, and a final `role: "exit"` message with `extra.exit_status`.
 * The reasoning a provider returned (`extra.response.choices[0].message.reasoning`) is an assistant message
 * marked `reasoning`. Usage: each assistant message's `extra.response.usage` (tokens, and cost when the
 * provider reports it) once; without per-message cost, `info.model_stats.instance_cost` once at the end.
 * `info.exit_status` ends the trajectory as a `control` event (see {@link exitStatusControl}).
 *
 * Memory: `messages` is streamed element by element (`stream-json`); `info` (small) and `instance_id` (last
 * in the file) are read as they come. Events keep `raw: {file}`; a message that cannot be mapped is reported
 * with its 1-based position in `messages` as `line`, and `lines` counts the messages read.
 */

const ACTION = /```bash\s*\n(.*?)\n```/gs;
const RETURN_CODE = /^\s*<returncode>(-?\d+)<\/returncode>/;
const TIMED_OUT = /timed out and has been killed/;

interface Call {
  event: string;
  callId: string;
  command: string;
}

/** Return code and output of an observation: `<returncode>` text (v1) or `{returncode, output}` JSON (v2). */
function observationOf(text: string): { exitCode: number | null; output: string } {
  try {
    const o = obj(JSON.parse(text) as unknown);
    if ("returncode" in o)
      return { exitCode: typeof o.returncode === "number" ? o.returncode : null, output: str(o.output) };
  } catch {
    // v1 text.
  }
  const code = RETURN_CODE.exec(text);
  const output =
    /<output>\n?([\s\S]*?)<\/output>/.exec(text)?.[1] ?? (code ? text.slice(code[0].length) : text);
  return { exitCode: code ? Number(code[1]) : null, output };
}

class MiniMapper extends EventSink {
  readonly skipped: ImportedTrajectory["skipped"] = [];
  readonly models = new Set<string>();
  /** v2: calls by id, awaiting their `tool` message. */
  private readonly calls = new Map<string, Call>();
  /** v1: the one action of the last assistant message, awaiting the next user message. */
  private pending: Call | undefined;
  private formatError = false;
  /** Call ids that have their result. */
  private readonly answered = new Set<string>();
  perMessageCost = false;
  exited = false;

  message(m: Json, n: number): void {
    const role = str(m.role);
    const extra = obj(m.extra);
    const text = contentText(m.content);
    if (role === "system") {
      if (text.trim()) this.add({ type: "message", role: "system", text });
    } else if (role === "user") {
      if (this.pending) this.observe(this.pending, text);
      else if (this.formatError)
        this.add({ type: "control", kind: "error", detail: `format error: ${text.slice(0, 300)}` });
      else if (text.trim()) this.add({ type: "message", role: "user", text });
      this.pending = undefined;
      this.formatError = false;
    } else if (role === "assistant") {
      this.assistant(m, extra, text, n);
    } else if (role === "tool") {
      const callId = str(m.tool_call_id);
      const call = this.calls.get(callId) ?? { event: "", callId, command: "" };
      this.observe(call, text);
    } else if (role === "exit") {
      // The submission's answer: the last call no `tool` message answered gets the exit message as its result.
      const unanswered =
        this.pending ?? [...this.calls.values()].filter((c) => !this.answered.has(c.callId)).at(-1);
      if (unanswered && text.trim()) this.observe(unanswered, text);
      this.pending = undefined;
      const status = str(extra.exit_status);
      if (status)
        this.add({ type: "control", kind: exitStatusControl(status), detail: `exit_status ${status}` });
      this.exited = true;
    } else this.skipped.push({ line: n, reason: `message ${n}: unknown role "${role || "(none)"}"` });
  }

  private assistant(m: Json, extra: Json, text: string, n: number): void {
    const response = obj(extra.response);
    const ts = typeof response.created === "number" ? { ts: response.created * 1000 } : {};
    const model = str(response.model);
    if (model) this.models.add(model);
    const structured = arr(m.tool_calls).length || arr(extra.actions).length;
    const blocks = structured ? [] : [...text.matchAll(ACTION)].map((match) => match[1] ?? "");
    const said = blocks.length === 1 ? text.replace(ACTION, "").trim() : text.trim();
    const reasoning = str(obj(obj(arr(response.choices)[0]).message).reasoning);
    if (reasoning.trim())
      this.add({ ...ts, type: "message", role: "assistant", text: reasoning, reasoning: true });
    if (said) this.add({ ...ts, type: "message", role: "assistant", text: said });
    const call = (callId: string, name: string, input: unknown, command: string): Call => {
      const c = { event: this.add({ ...ts, type: "tool_call", callId, name, input }), callId, command };
      this.calls.set(callId, c);
      return c;
    };
    if (arr(m.tool_calls).length)
      for (const tc of arr(m.tool_calls).map(obj)) {
        const fn = obj(tc.function);
        let input: unknown = str(fn.arguments);
        try {
          input = JSON.parse(str(fn.arguments)) as unknown;
        } catch {
          // Arguments as given.
        }
        call(str(tc.id) || `mini-${n}`, str(fn.name) || "bash", input, str(obj(input).command));
      }
    else if (arr(extra.actions).length)
      arr(extra.actions).forEach((a, j) => {
        const command = str(obj(a).command);
        call(str(obj(a).tool_call_id) || `mini-${n}-${j + 1}`, "bash", { command }, command);
      });
    else if (blocks.length === 1)
      this.pending = call(`mini-${n}`, "bash", { command: blocks[0] }, blocks[0]!);
    else this.formatError = true;
    const usage = obj(response.usage);
    const cost =
      typeof usage.cost === "number" ? usage.cost : typeof extra.cost === "number" ? extra.cost : undefined;
    if (cost !== undefined) this.perMessageCost = true;
    if (Object.keys(usage).length || cost !== undefined)
      this.add({
        ...ts,
        type: "usage",
        ...(typeof usage.prompt_tokens === "number" ? { inputTokens: usage.prompt_tokens } : {}),
        ...(typeof usage.completion_tokens === "number" ? { outputTokens: usage.completion_tokens } : {}),
        ...(cost !== undefined ? { costUsd: cost } : {}),
        ...(model ? { model } : {}),
      });
  }

  /** A command's observation: the command event, its result, and a timeout when it was killed. */
  private observe(call: Call, text: string): void {
    this.answered.add(call.callId);
    const parent = call.event ? [call.event] : undefined;
    const timedOut = TIMED_OUT.test(text) && !RETURN_CODE.test(text);
    const { exitCode, output } = observationOf(text);
    if (call.command)
      this.add(
        {
          type: "command",
          command: call.command,
          exitCode: timedOut ? null : exitCode,
          durationMs: 0,
          ...(timedOut ? { timedOut } : {}),
          stdout: output,
        },
        undefined,
        parent,
      );
    const isError = timedOut || (exitCode ?? 0) !== 0;
    const result = this.add(
      { type: "tool_result", callId: call.callId, output: text, isError },
      undefined,
      parent,
    );
    if (timedOut)
      this.add({ type: "control", kind: "timeout", detail: text.slice(0, 300) }, undefined, [result]);
  }
}

/**
 * Import one mini-swe-agent trajectory (`.traj.json`, v1 or v2).
 * @throws InputError naming the file when it is not a valid JSON document or not a mini-swe-agent trajectory
 * @throws the file system's error for an unreadable file
 */
export async function importMiniSweAgent(file: string): Promise<ImportedTrajectory> {
  const mapper = new MiniMapper(file);
  let info: Json = {};
  let instanceId: string | undefined;
  let lines = 0;
  const parts = readJsonValues(
    file,
    // The document, or (early releases and test runs) the bare `messages` array.
    (p) =>
      typeof p[0] === "number"
        ? p.length === 1
        : (p.length === 1 && p[0] !== "messages") || (p.length === 2 && p[0] === "messages"),
    file,
    "pass a mini-swe-agent `<instance>.traj.json` file (one JSON document)",
  );
  for await (const { path: p, value } of parts) {
    if (p[0] === "info") info = obj(value);
    else if (p[0] === "instance_id" && str(value)) instanceId = str(value);
    const index = typeof p[0] === "number" ? p[0] : p[0] === "messages" ? (p[1] as number) : undefined;
    if (index === undefined) continue;
    lines = index + 1;
    const m = obj(value);
    mapper.at = index;
    if (Object.keys(m).length) mapper.message(m, lines);
    else mapper.skipped.push({ line: lines, reason: `message ${lines}: not a JSON object` });
  }
  if (!lines && !("exit_status" in info))
    throw new InputError(
      { file },
      "not a mini-swe-agent trajectory (no `messages` and no `info`)",
      "pass a mini-swe-agent `<instance>.traj.json` file",
    );
  const status = str(info.exit_status);
  if (status && !mapper.exited)
    mapper.add({ type: "control", kind: exitStatusControl(status), detail: `exit_status ${status}` });
  const cost = obj(info.model_stats).instance_cost;
  if (!mapper.perMessageCost && typeof cost === "number" && cost > 0)
    mapper.add({ type: "usage", costUsd: cost });
  const model = str(obj(obj(info.config).model).model_name);
  if (model) mapper.models.add(model);
  return {
    id: instanceId ?? path.basename(file),
    format: "mini-swe-agent",
    file,
    agent: "mini-swe-agent",
    models: [...mapper.models],
    ...(instanceId ? { instanceId } : {}),
    events: mapper.events,
    skipped: mapper.skipped,
    lines,
  };
}
