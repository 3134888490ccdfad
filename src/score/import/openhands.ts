import { open } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../../core/errors.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { mapSdkEvent } from "./openhands-sdk.ts";
import { type Base, OpenHandsSink, parseArguments, STATES, tsOf } from "./openhands-sink.ts";
import { readJsonValues } from "./read-json-values.ts";
import { readRecords } from "./read-lines.ts";

/**
 * OpenHands event arrays → standard events (trajectory-formats.md §1.6, §1.12). The file is one JSON array of
 * events of either generation, told apart per element: V1 (software-agent-sdk) events have a `kind` and are
 * mapped by `openhands-sdk.ts`; V0 (classic OpenHands trajectory export) events are mapped here:
 * `{id, source, action | observation, args | extras, cause, tool_call_metadata, llm_metrics}`. An
 * observation's `cause` names the action it answers (→ `parent`); `run` observations carry
 * `extras.metadata.exit_code` (→ `command`); `edit`/`write` observations carry the path (→ `file_change`);
 * `agent_state_changed` (paused, awaiting confirmation, finished, error, …) and `user_rejected` become
 * `control` events; `condensation` is a compaction; usage is the delta of the cumulative `llm_metrics` (or,
 * without them, each `model_response.usage` once), so nothing is counted twice, and the tokens of the last
 * turn (`per_turn_token`) against `context_window` are a `context` event.
 *
 * The JSONL form (one V1 event per line) is read line by line, with line provenance.
 *
 * The array is streamed element by element (`stream-json`): memory holds one native event at a time (plus
 * the standard events produced). A JSON document has no useful line numbers: events keep `raw: {file}`, a
 * skipped element is reported with its 1-based position in the array as `line`, and `lines` counts the
 * elements read. Timestamps without a zone (OpenHands writes naive ISO times) are read as UTC. Terminal
 * input sent to a running process (`is_input`, e.g. `C-c`) and terminal resets are tool calls but not
 * `command` events; exit code -1 (the command was still running when OpenHands stopped waiting) is
 * `exitCode: null`, `timedOut: true`. Recall actions and observations (workspace context, microagents) are
 * internal and mapped to nothing.
 */

const HINT =
  "pass the conversation's events as one JSON array (a trajectory export, or its `events/*.json` joined)";

const V0_TOOLS: Record<string, string> = {
  run: "execute_bash",
  run_ipython: "execute_ipython_cell",
  read: "str_replace_editor",
  write: "str_replace_editor",
  edit: "str_replace_editor",
  browse: "browser",
  browse_interactive: "browser",
  delegate: "delegate",
  think: "think",
  finish: "finish",
  reject: "reject",
  call_tool_mcp: "mcp",
  mcp: "mcp",
};
/** V0 actions and observations that carry nothing for the trajectory (known, so not reported). */
const V0_IGNORED = new Set(["recall", "change_agent_state", "null", "system_info"]);
/** A finite number, else 0. */
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** V0 events (V1 ones are handed to `mapSdkEvent`), with the usage already counted. */
class ClassicMapper extends OpenHandsSink {
  private readonly responses = new Set<string>();
  private totals = { input: 0, output: 0, cost: 0 };

  /** One array element of either generation (`n`: its 1-based position). */
  element(e: Json, n: number): void {
    if ("kind" in e && typeof e.action !== "string") mapSdkEvent(this, e, n);
    else if (typeof e.action === "string") this.action(e, n);
    else if (typeof e.observation === "string") this.observation(e, n);
    else this.skip(n, "neither an action, an observation nor a typed (V1) event");
  }

  /** A V0 action: a message, a tool call, a condensation. */
  private action(e: Json, n: number): void {
    const base = tsOf(e.timestamp) ? { ts: tsOf(e.timestamp) } : {};
    const action = str(e.action);
    const args = obj(e.args);
    const tcm = obj(e.tool_call_metadata);
    const response = obj(tcm.model_response);
    const native = String(e.id);
    if (str(response.model)) this.models.add(str(response.model));
    if (action === "message" || action === "system") {
      const text = str(args.content) || str(e.message);
      const role = action === "system" ? "system" : e.source === "user" ? "user" : "assistant";
      if (text.trim()) this.mainEvent.set(native, this.add({ ...base, type: "message", role, text }));
    } else if (action === "condensation") {
      this.mainEvent.set(native, this.add({ ...base, type: "context", compaction: true }));
    } else if (V0_IGNORED.has(action)) {
      // Internal bookkeeping.
    } else if (str(tcm.tool_call_id) || action in V0_TOOLS) {
      this.thought(str(args.thought), str(response.id), base);
      if (action === "finish" && str(args.final_thought) !== str(args.thought))
        this.thought(str(args.final_thought), "", base);
      const callId = str(tcm.tool_call_id) || `openhands-${native}`;
      const name = str(tcm.function_name) || V0_TOOLS[action] || action;
      const call = this.call(
        native,
        callId,
        name,
        v0Input(action, name, args, response, callId),
        isInput(args),
        base,
      );
      if (args.confirmation_state === "rejected")
        this.control("rejection", `${name} was rejected`, base, [call.event]);
    } else this.skip(n, `unknown action "${action}"`);
    this.usage(e, base);
  }

  /** A V0 observation: a tool outcome, an agent state, a rejection, an error. */
  private observation(e: Json, n: number): void {
    const base = tsOf(e.timestamp) ? { ts: tsOf(e.timestamp) } : {};
    const kind = str(e.observation);
    const extras = obj(e.extras);
    const content = str(e.content);
    const tcm = obj(e.tool_call_metadata);
    const cause = e.cause === undefined || e.cause === null ? "" : String(e.cause);
    const call = this.findCall(cause, str(tcm.tool_call_id));
    const causeParent = this.mainEvent.has(cause) ? [this.mainEvent.get(cause)!] : undefined;
    if (kind === "agent_state_changed") {
      const state = str(extras.agent_state);
      if (STATES[state]) this.control(STATES[state], `agent state ${state}`, base, causeParent);
      return;
    }
    if (V0_IGNORED.has(kind)) return;
    if (kind === "condense") {
      this.add({ ...base, type: "context", compaction: true }, undefined, causeParent);
      return;
    }
    const callId = call?.callId || str(tcm.tool_call_id);
    if (!callId) {
      if (kind === "error") this.control("error", content, base, causeParent);
      else this.skip(n, `"${kind}" observation with no action it answers`);
      return;
    }
    const metadata = obj(extras.metadata);
    const code = metadata.exit_code ?? extras.exit_code;
    const exitCode = typeof code === "number" ? code : null;
    const isError =
      kind === "error" || kind === "user_rejected" || e.success === false || (exitCode ?? 0) > 0;
    const result = this.outcome(
      call,
      callId,
      {
        output: content,
        isError,
        ...(kind === "run"
          ? { shell: { command: str(extras.command), exitCode, timedOut: exitCode === -1 } }
          : {}),
        ...(kind === "edit" || kind === "write" ? { edit: { command: kind, ...extras } } : {}),
      },
      base,
    );
    if (kind === "user_rejected") this.control("rejection", content, base, [result]);
  }

  /** Usage: the delta of cumulative `llm_metrics`, else each model response's usage once. */
  private usage(e: Json, base: Base): void {
    const metrics = obj(e.llm_metrics);
    const total = obj(metrics.accumulated_token_usage);
    const response = obj(obj(e.tool_call_metadata).model_response);
    const rid = str(response.id);
    const model = str(response.model) ? { model: str(response.model) } : {};
    if (Object.keys(total).length || typeof metrics.accumulated_cost === "number") {
      if (rid) this.responses.add(rid);
      const now = {
        input: num(total.prompt_tokens),
        output: num(total.completion_tokens),
        cost: num(metrics.accumulated_cost),
      };
      const d = {
        input: Math.max(0, now.input - this.totals.input),
        output: Math.max(0, now.output - this.totals.output),
        cost: Math.max(0, now.cost - this.totals.cost),
      };
      if (!d.input && !d.output && !d.cost) return;
      this.totals = {
        input: Math.max(now.input, this.totals.input),
        output: Math.max(now.output, this.totals.output),
        cost: Math.max(now.cost, this.totals.cost),
      };
      this.add({
        ...base,
        type: "usage",
        inputTokens: d.input,
        outputTokens: d.output,
        costUsd: d.cost,
        ...model,
      });
      const window = num(total.context_window);
      if (window > 0 && num(total.per_turn_token) > 0)
        this.add({ ...base, type: "context", tokens: num(total.per_turn_token), window });
    } else if (rid && !this.responses.has(rid) && Object.keys(obj(response.usage)).length) {
      this.responses.add(rid);
      const usage = obj(response.usage);
      this.totals.input += num(usage.prompt_tokens);
      this.totals.output += num(usage.completion_tokens);
      this.add({
        ...base,
        type: "usage",
        inputTokens: num(usage.prompt_tokens),
        outputTokens: num(usage.completion_tokens),
        ...model,
      });
    }
  }
}

/** True when a V0 `run` action sends input to a running process rather than a command line. */
function isInput(args: Json): boolean {
  return args.is_input === true || args.is_input === "true";
}

/**
 * A V0 tool call's input: the arguments the model sent (from `model_response`), else the action's `args`
 * without its `thought`, with the editor sub-command restored so a read is not taken for an edit.
 */
function v0Input(action: string, name: string, args: Json, response: Json, callId: string): unknown {
  for (const choice of arr(response.choices))
    for (const tc of arr(obj(obj(choice).message).tool_calls).map(obj))
      if (str(tc.id) === callId) return parseArguments(str(obj(tc.function).arguments));
  const { thought: _thought, ...input } = args;
  if (/editor/.test(name) && !("command" in input))
    return { command: action === "read" ? "view" : action === "write" ? "create" : "str_replace", ...input };
  return input;
}

/**
 * Import one OpenHands event array (V0 or V1 events, told apart per element).
 * @throws InputError naming the file when it is not a valid JSON document or its top level is not an array
 * @throws the file system's error for an unreadable file
 */
export async function importOpenHands(file: string): Promise<ImportedTrajectory> {
  const mapper = new ClassicMapper(file);
  let lines = 0;
  if (await startsWith(file, "{")) {
    // The JSONL form (V1 events one per line, as the SDK's event log or a `jq -c '.[]'` of an array).
    const read = { lines: 0 };
    for await (const { line, record } of readRecords(file, mapper.skipped, read)) {
      mapper.atLine = line;
      mapper.element(record as Json, line);
    }
    return result(file, mapper, read.lines);
  }
  const elements = readJsonValues(file, (p) => p.length === 1 && typeof p[0] === "number", file, HINT);
  for await (const { path: p, value } of elements) {
    lines = (p[0] as number) + 1;
    mapper.at = p[0] as number;
    if (value && typeof value === "object" && !Array.isArray(value)) mapper.element(value as Json, lines);
    else mapper.skip(lines, "not a JSON object");
  }
  if (!lines && !(await startsWith(file, "[")))
    throw new InputError({ file }, "not an OpenHands event array (the top level is not an array)", HINT);
  return result(file, mapper, lines);
}

function result(file: string, mapper: ClassicMapper, lines: number): ImportedTrajectory {
  return {
    id: path.basename(file),
    format: "openhands-events",
    file,
    agent: "openhands",
    models: [...mapper.models],
    events: mapper.events,
    skipped: mapper.skipped,
    lines,
  };
}

/** True when the first non-blank character of a file is `char` (reads 1 KiB). */
async function startsWith(file: string, char: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    return buffer.subarray(0, bytesRead).toString("utf8").trimStart().startsWith(char);
  } finally {
    await handle.close();
  }
}
