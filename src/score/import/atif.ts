import path from "node:path";
import { exitCodeInText } from "../../agents/coding/trace-builder.ts";
import { InputError } from "../../core/errors.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import { ControlEvent } from "../../core/trajectory.ts";
import { EventSink } from "./event-sink.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { readJsonValues } from "./read-json-values.ts";

/**
 * Harbor / Terminal-Bench ATIF trajectories → standard events (trajectory-formats.md §1.9): one
 * `trajectory.json` document (`schema_version` "ATIF-v1.x", `session_id`, `agent`, `steps[]`,
 * `final_metrics`). Steps stream one at a time (a step holds at most one LLM call, but `steps[]` can be long
 * and carry token-id arrays), so memory does not grow with the file.
 *
 * - `user` / `system` / `agent` steps → `message` events (user / system / assistant); a user message
 *   "[Request interrupted by user…" → `control: interrupt`.
 * - `tool_calls[]` → `tool_call`; `observation.results[]` → `tool_result` paired by `source_call_id`. A
 *   result without `source_call_id` answers the step's next unanswered call (Terminus-2 writes its
 *   `mark_task_complete` results that way). ATIF keeps no error flag: a result is an error when its
 *   `extra.is_error` (or Claude Code's `extra.tool_result_metadata.raw_tool_result.is_error`) is true, its
 *   text opens with `<tool_use_error>`, the call was rejected, or a shell call's exit code is not 0.
 * - shell calls (`Bash`, `bash_command`, `shell`, …) that were not rejected → also `command`, the exit code
 *   from `extra.exit_code`, else from the output text ("Exit code N"), else 0 (ATIF records no exit status);
 *   Terminus-2 `keystrokes` count as the command line. File writes (`Write`, `Edit`, `write_file`, …) →
 *   `file_change` (`added` when Claude Code's result says the file was created).
 * - `subagent_trajectory_ref[]` → `control: handoff` per referenced session; a system step with
 *   `extra.context_management.type` "compaction" → `context` with `compaction: true`; a system step with
 *   `extra.control` (written by `exportAtif`, atif-export.ts) → that `control` event, as is a result's
 *   `extra.control` (else a rejection is read from Claude Code's text "The user doesn't want to proceed…").
 * - step `metrics` → `usage` (prompt tokens include cached ones; per step, never cumulative) and `context`
 *   (prompt tokens = context in use). What `final_metrics` totals hold beyond the steps' sums (a cost only
 *   totalled, or the tokens of sub-agent trajectories that Terminus-2 adds to its parent's totals) → one more
 *   `usage` event with the remainder, so the totals match and nothing is counted twice.
 *
 * Every event carries `step` = the ATIF `step_id`; `raw.line` is absent (a document has no lines). What
 * cannot be mapped goes to `skipped` with `line` = the 1-based index of the step in `steps[]` (the reason
 * says so). An agent step's `reasoning_content` → an assistant `message` with `reasoning: true`, before its
 * text. Tool definitions, token ids and logprobs are not mapped.
 */

const SHELL = new Set([
  "Bash",
  "command_execution",
  "bash",
  "bash_command",
  "shell",
  "exec_command",
  "local_shell",
  "run_shell_command",
  "execute_bash",
]);
const WRITES = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "write_file", "replace", "edit"]);

/** Text of an ATIF message or result content: a string, or content parts with `text`; anything else as JSON. */
function atifText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof p === "string" ? p : str(obj(p).text)))
      .filter(Boolean)
      .join("\n");
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

/** The command line of a shell call's arguments (`command` as text or argv, `cmd`, Terminus `keystrokes`). */
function commandOf(args: Json): string {
  const command = args.command ?? args.cmd;
  if (Array.isArray(command)) {
    const argv = command.map(String);
    return /(?:^|\/)(?:bash|sh|zsh)$/.test(argv[0] ?? "") && /^-l?c$/.test(argv[1] ?? "") && argv.length === 3
      ? argv[2]!
      : argv.join(" ");
  }
  return (str(command) || str(args.keystrokes)).replace(/\n$/, "");
}

/** Exit code of a shell call: recorded by the exporter, else "Exit code N" in the output's first line. */
function exitCodeOf(result: Json, output: string): number | null {
  const recorded = obj(result.extra).exit_code;
  if (typeof recorded === "number" || recorded === null) return recorded;
  return (
    exitCodeInText(output.split("\n")[0] ?? "") ??
    exitCodeInText(/^Exit Code: *-?\d+/m.exec(output)?.[0] ?? "")
  );
}

class AtifMapper extends EventSink {
  readonly models = new Set<string>();
  readonly skipped: ImportedTrajectory["skipped"] = [];
  readonly calls = new Map<string, { id: string; name: string; args: Json }>();
  /** Sums of the steps' metrics: prompt and completion tokens, USD. */
  readonly stepTotals = { input: 0, output: 0, cost: 0 };

  /** One element of `steps[]` (`index` is 1-based). */
  step(s: Json, index: number): void {
    const source = str(s.source);
    const ts = Date.parse(str(s.timestamp)) || undefined;
    const base = { ...(ts ? { ts } : {}), step: String(s.step_id ?? index) };
    const text = atifText(s.message);
    const extra = obj(s.extra);
    if (str(s.model_name)) this.models.add(str(s.model_name));
    if (source === "user") {
      if (/^\[Request interrupted by user/.test(text.trim()))
        this.add({ ...base, type: "control", kind: "interrupt", detail: text.trim() });
      else if (text.trim()) this.add({ ...base, type: "message", role: "user", text });
    } else if (source === "system") {
      const control = obj(extra.control);
      const management = obj(extra.context_management);
      const kind = ControlEvent.shape.kind.safeParse(control.kind);
      if (kind.success)
        this.add({
          ...base,
          type: "control",
          kind: kind.data,
          ...(str(control.detail) ? { detail: str(control.detail) } : {}),
        });
      else if (text.trim()) this.add({ ...base, type: "message", role: "system", text });
      if (str(management.type) === "compaction") {
        const tokens = Number(management.tokens_before);
        this.add({
          ...base,
          type: "context",
          compaction: true,
          ...(Number.isFinite(tokens) ? { tokens } : {}),
        });
      }
    } else if (source === "agent") {
      const reasoning = atifText(s.reasoning_content);
      if (reasoning.trim())
        this.add({ ...base, type: "message", role: "assistant", text: reasoning, reasoning: true });
      if (text.trim()) this.add({ ...base, type: "message", role: "assistant", text });
    } else {
      this.skipped.push({
        line: index,
        reason: `step ${index} of steps[]: unknown source "${source || "(none)"}"`,
      });
      return;
    }
    const unanswered: string[] = [];
    for (const c of arr(s.tool_calls).map(obj)) {
      const callId = str(c.tool_call_id);
      const name = str(c.function_name);
      let input: unknown = c.arguments ?? {};
      if (typeof input === "string")
        try {
          input = JSON.parse(input);
        } catch {
          // Kept as text.
        }
      const id = this.add({ ...base, type: "tool_call", callId, name, input });
      this.calls.set(callId, { id, name, args: obj(input) });
      unanswered.push(callId);
    }
    for (const [k, r] of arr(obj(s.observation).results).map(obj).entries())
      this.result(r, base, unanswered, `step ${index} of steps[], result ${k + 1}`, index);
    this.metrics(obj(s.metrics), base, str(s.model_name));
  }

  /** One `observation.results[]` element. */
  private result(
    r: Json,
    base: { ts?: number; step: string },
    unanswered: string[],
    where: string,
    index: number,
  ): void {
    const refs = arr(r.subagent_trajectory_ref).map(obj);
    for (const ref of refs) {
      const where = str(ref.trajectory_path) ? ` (${str(ref.trajectory_path)})` : "";
      this.add({
        ...base,
        type: "control",
        kind: "handoff",
        detail: `subagent ${str(ref.session_id)}${where}`,
      });
    }
    const callId = str(r.source_call_id) || unanswered[0];
    if (!callId) {
      if (!refs.length)
        this.skipped.push({
          line: index,
          reason: `${where}: no source_call_id and no call of the step to answer`,
        });
      return;
    }
    const at = unanswered.indexOf(callId);
    if (at >= 0) unanswered.splice(at, 1);
    const call = this.calls.get(callId);
    const output = atifText(r.content);
    const extra = obj(r.extra);
    const flagged =
      extra.is_error === true || obj(obj(extra.tool_result_metadata).raw_tool_result).is_error === true;
    const parent = call ? [call.id] : undefined;
    const control = ControlEvent.shape.kind.safeParse(obj(extra.control).kind);
    const rejected = control.success
      ? control.data === "rejection"
      : /^The user doesn't want to proceed/.test(output) || /tool use was rejected/i.test(output);
    let isError = flagged || rejected || /^<tool_use_error>/.test(output);
    if (call && SHELL.has(call.name) && !rejected) {
      // An exit code the log does not record stays unknown (null), never an invented success.
      const exitCode = exitCodeOf(r, output) ?? null;
      isError ||= exitCode !== null && exitCode !== 0;
      this.add(
        { ...base, type: "command", command: commandOf(call.args), exitCode, durationMs: 0, stdout: output },
        undefined,
        parent,
      );
    }
    const result = this.add({ ...base, type: "tool_result", callId, output, isError }, undefined, parent);
    const detail = control.success ? str(obj(extra.control).detail) : output.slice(0, 300);
    if (control.success || rejected)
      this.add(
        {
          ...base,
          type: "control",
          kind: control.success ? control.data : "rejection",
          ...(detail ? { detail } : {}),
        },
        undefined,
        [result],
      );
    const target = call ? str(call.args.file_path) || str(call.args.path) : "";
    if (call && WRITES.has(call.name) && !isError && target) {
      const created =
        obj(obj(extra.tool_result_metadata).tool_use_result).type === "create" ||
        /^File created successfully/.test(output);
      this.add(
        { ...base, type: "file_change", path: target, kind: created ? "added" : "modified" },
        undefined,
        [result],
      );
    }
  }

  /** A step's `metrics`: usage and the context size of its LLM call. */
  private metrics(m: Json, base: { ts?: number; step: string }, model: string): void {
    const input = typeof m.prompt_tokens === "number" ? m.prompt_tokens : undefined;
    const output = typeof m.completion_tokens === "number" ? m.completion_tokens : undefined;
    const cost = typeof m.cost_usd === "number" ? m.cost_usd : undefined;
    if (input === undefined && output === undefined && cost === undefined) return;
    this.stepTotals.input += input ?? 0;
    this.stepTotals.output += output ?? 0;
    this.stepTotals.cost += cost ?? 0;
    this.add({
      ...base,
      type: "usage",
      ...(input !== undefined ? { inputTokens: input } : {}),
      ...(output !== undefined ? { outputTokens: output } : {}),
      ...(cost !== undefined ? { costUsd: cost } : {}),
      ...(model ? { model } : {}),
    });
    if (input !== undefined) this.add({ ...base, type: "context", tokens: input });
  }

  /** `final_metrics` totals beyond what the steps carried (a sub-agent's tokens, or a cost only totalled). */
  finalMetrics(f: Json): void {
    const rest = (total: unknown, steps: number) =>
      typeof total === "number" && total - steps > 1e-9 ? total - steps : undefined;
    const input = rest(f.total_prompt_tokens, this.stepTotals.input);
    const output = rest(f.total_completion_tokens, this.stepTotals.output);
    const cost = rest(f.total_cost_usd, this.stepTotals.cost);
    if (input === undefined && output === undefined && cost === undefined) return;
    this.add({
      type: "usage",
      ...(input !== undefined ? { inputTokens: input } : {}),
      ...(output !== undefined ? { outputTokens: output } : {}),
      ...(cost !== undefined ? { costUsd: cost } : {}),
    });
  }
}

/**
 * Import one ATIF `trajectory.json` (trajectory-formats.md §1.9). `lines` counts the steps read.
 * @throws InputError naming the file when it is not valid JSON or not an ATIF document (no `steps[]`, or a
 *   `schema_version` that is not "ATIF-…")
 * @throws the file system's error for an unreadable file
 */
export async function importAtif(file: string): Promise<ImportedTrajectory> {
  const mapper = new AtifMapper(file);
  const root: Json = {};
  let steps = 0;
  let sawSteps = false;
  const hint =
    'an ATIF trajectory is one JSON object with "schema_version": "ATIF-v1.x", "agent" and "steps"';
  for await (const { path: p, value } of readJsonValues(
    file,
    (p) => (p.length === 2 && p[0] === "steps") || (p.length === 1 && p[0] !== "steps"),
    file,
    hint,
  )) {
    if (p[0] === "steps") {
      sawSteps = true;
      steps++;
      const s = obj(value);
      mapper.at = typeof s.step_id === "number" && s.step_id >= 0 ? s.step_id : steps;
      if (value === s) mapper.step(s, steps);
      else mapper.skipped.push({ line: steps, reason: `step ${steps} of steps[]: not an object` });
    } else if (typeof p[0] === "string") {
      root[p[0]] = value;
      if (p[0] === "agent" && str(obj(value).model_name)) mapper.models.add(str(obj(value).model_name));
    } else break;
  }
  const version = str(root.schema_version);
  if ((!sawSteps && !Array.isArray(root.steps)) || (version && !version.startsWith("ATIF")))
    throw new InputError({ file }, "not an ATIF trajectory", hint);
  mapper.finalMetrics(obj(root.final_metrics));
  const agent = obj(root.agent);
  return {
    id: str(root.session_id) || path.basename(file),
    format: "atif",
    file,
    agent: str(agent.name) || "atif",
    models: [...mapper.models],
    events: mapper.events,
    skipped: mapper.skipped,
    lines: steps,
  };
}
