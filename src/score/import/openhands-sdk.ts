import { type Json, obj, str } from "../../core/json-view.ts";
import { type OpenHandsSink, parseArguments, STATES, textOf, tsOf } from "./openhands-sink.ts";

/**
 * OpenHands V1 (software-agent-sdk) events → standard events (trajectory-formats.md §1.6): typed events told
 * apart by `kind`. `ActionEvent` / `ObservationEvent` pair by `action_id` and `tool_call_id` (terminal
 * observations carry `exit_code`; file-editor observations the path and `prev_exist`); `MessageEvent`,
 * `SystemPromptEvent`, `AgentErrorEvent` and `UserRejectObservation` (a failed result), `Condensation`
 * (compaction), `PauseEvent` (interrupt), `ConversationStateUpdateEvent` (agent states) and
 * `ConversationErrorEvent` (error). V1 exports carry no model name or usage (those live in
 * `base_state.json`).
 */

/** Event kinds that carry nothing for the trajectory (known, so not reported). */
const IGNORED = new Set([
  "CondensationRequest",
  "CondensationSummaryEvent",
  "LLMCompletionLogEvent",
  "TokenEvent",
]);
const SHELL = new Set(["terminal", "execute_bash", "bash"]);

/**
 * Map one V1 event (`n`: its 1-based position in the array) into `sink`; an unknown kind is reported as
 * skipped.
 */
export function mapSdkEvent(sink: OpenHandsSink, e: Json, n: number): void {
  const base = tsOf(e.timestamp) ? { ts: tsOf(e.timestamp) } : {};
  const kind = str(e.kind);
  const native = str(e.id);
  if (kind === "SystemPromptEvent") {
    const text = textOf(obj(e.system_prompt).text ?? e.system_prompt);
    if (text.trim()) sink.add({ ...base, type: "message", role: "system", text });
  } else if (kind === "MessageEvent") {
    const m = obj(e.llm_message);
    const role = ["user", "assistant", "system"].includes(str(m.role))
      ? (str(m.role) as "user" | "assistant" | "system")
      : e.source === "user"
        ? "user"
        : "assistant";
    const text = textOf(m.content);
    if (text.trim()) sink.mainEvent.set(native, sink.add({ ...base, type: "message", role, text }));
  } else if (kind === "ActionEvent") {
    sink.thought(textOf(e.thought), str(e.llm_response_id), base);
    const action = obj(e.action);
    const toolCall = obj(e.tool_call);
    const name = str(e.tool_name) || str(toolCall.name);
    const { kind: _kind, ...input } = action;
    sink.call(
      native,
      str(e.tool_call_id) || str(toolCall.id) || `openhands-${native}`,
      name,
      Object.keys(action).length ? input : parseArguments(str(toolCall.arguments)),
      action.is_input === true || action.reset === true,
      base,
    );
  } else if (kind === "ObservationEvent") {
    const call = sink.findCall(str(e.action_id), str(e.tool_call_id));
    const o = obj(e.observation);
    const shell = /Terminal|ExecuteBash/.test(str(o.kind)) || (call ? SHELL.has(call.name) : false);
    const code = o.exit_code ?? obj(o.metadata).exit_code;
    const exitCode = typeof code === "number" ? code : null;
    sink.outcome(
      call,
      str(e.tool_call_id) || call?.callId || `openhands-${native}`,
      {
        output: textOf(o.content),
        isError: o.is_error === true || (exitCode ?? 0) > 0,
        ...(shell
          ? {
              shell: { command: str(o.command), exitCode, timedOut: o.timeout === true || exitCode === -1 },
            }
          : {}),
        ...(/FileEditor/.test(str(o.kind)) ? { edit: o } : {}),
      },
      base,
    );
  } else if (kind === "AgentErrorEvent" || kind === "UserRejectObservation") {
    const call = sink.findCall(str(e.action_id), str(e.tool_call_id));
    const detail = str(e.error) || str(e.rejection_reason) || kind;
    const callId = str(e.tool_call_id) || call?.callId;
    const result = callId ? sink.outcome(call, callId, { output: detail, isError: true }, base) : undefined;
    if (kind === "UserRejectObservation")
      sink.control("rejection", detail, base, result ? [result] : undefined);
    else if (!result) sink.control("error", detail, base);
  } else if (kind === "Condensation") {
    sink.add({ ...base, type: "context", compaction: true });
  } else if (kind === "PauseEvent") {
    sink.control("interrupt", "paused by the user", base);
  } else if (kind === "ConversationStateUpdateEvent") {
    const state = str(e.value).toLowerCase();
    if (["agent_status", "execution_status"].includes(str(e.key)) && STATES[state])
      sink.control(STATES[state], `agent state ${state}`, base);
  } else if (kind === "ConversationErrorEvent") {
    sink.control("error", [str(e.code), str(e.detail)].filter(Boolean).join(": "), base);
  } else if (!IGNORED.has(kind)) sink.skip(n, `unknown event kind "${kind || "(none)"}"`);
}
