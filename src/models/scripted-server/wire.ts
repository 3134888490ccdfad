import { randomBytes } from "node:crypto";
import type { Conversation } from "./conversation.ts";
import type { Reply } from "./dialect.ts";

/**
 * Encoding a reply in each wire API, as a stream of server-sent events or one JSON body (agent-clis.md §8
 * "Minimal SSE replies each CLI accepted"). Usage figures are estimates (characters / 4), never zero, so
 * usage accounting downstream has something to add up.
 */

/** A response to write: SSE events (`event` name optional) or one JSON body. */
export type WireResponse = { sse: { event?: string; data: unknown }[] } | { json: unknown };

const id = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function replyText(reply: Reply): string {
  if (reply.kind === "text") return reply.text;
  return reply.call.input ?? JSON.stringify(reply.call.args ?? {});
}

function anthropic(conversation: Conversation, reply: Reply): WireResponse {
  const output = tokens(replyText(reply));
  const usage = { input_tokens: conversation.inputTokens, output_tokens: output };
  const block =
    reply.kind === "tool"
      ? { type: "tool_use", id: id("toolu_"), name: reply.call.name, input: reply.call.args ?? {} }
      : { type: "text", text: reply.text };
  const stop = reply.kind === "tool" ? "tool_use" : "end_turn";
  const message = { id: id("msg_"), type: "message", role: "assistant", model: conversation.model };
  if (!conversation.stream)
    return { json: { ...message, content: [block], stop_reason: stop, stop_sequence: null, usage } };
  const start = block.type === "tool_use" ? { ...block, input: {} } : { type: "text", text: "" };
  const delta =
    reply.kind === "tool"
      ? { type: "input_json_delta", partial_json: JSON.stringify(reply.call.args ?? {}) }
      : { type: "text_delta", text: reply.text };
  const ev = (event: string, data: Record<string, unknown>) => ({ event, data: { type: event, ...data } });
  return {
    sse: [
      ev("message_start", {
        message: {
          ...message,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      }),
      ev("content_block_start", { index: 0, content_block: start }),
      ev("content_block_delta", { index: 0, delta }),
      ev("content_block_stop", { index: 0 }),
      ev("message_delta", {
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: output },
      }),
      ev("message_stop", {}),
    ],
  };
}

function responses(conversation: Conversation, reply: Reply): WireResponse {
  const output = tokens(replyText(reply));
  const callId = id("call_");
  const item =
    reply.kind === "text"
      ? {
          type: "message",
          id: id("msg_"),
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: reply.text, annotations: [] }],
        }
      : reply.call.kind === "custom"
        ? {
            type: "custom_tool_call",
            id: id("ctc_"),
            call_id: callId,
            name: reply.call.name,
            input: reply.call.input ?? "",
            status: "completed",
          }
        : {
            type: "function_call",
            id: id("fc_"),
            call_id: callId,
            name: reply.call.name,
            arguments: JSON.stringify(reply.call.args ?? {}),
            status: "completed",
          };
  const usage = {
    input_tokens: conversation.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: conversation.inputTokens + output,
  };
  const response = {
    id: id("resp_"),
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: conversation.model,
  };
  const completed = { ...response, status: "completed", output: [item], usage };
  if (!conversation.stream) return { json: completed };
  const ev = (event: string, data: Record<string, unknown>) => ({ event, data: { type: event, ...data } });
  return {
    sse: [
      ev("response.created", { response: { ...response, status: "in_progress", output: [] } }),
      ev("response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress" } }),
      ev("response.output_item.done", { output_index: 0, item }),
      ev("response.completed", { response: completed }),
    ],
  };
}

function chat(conversation: Conversation, reply: Reply): WireResponse {
  const output = tokens(replyText(reply));
  const usage = {
    prompt_tokens: conversation.inputTokens,
    completion_tokens: output,
    total_tokens: conversation.inputTokens + output,
  };
  const base = { id: id("chatcmpl-"), created: Math.floor(Date.now() / 1000), model: conversation.model };
  const toolCall =
    reply.kind === "tool"
      ? {
          id: id("call_"),
          type: "function",
          function: {
            name: reply.call.name,
            arguments: reply.call.input ?? JSON.stringify(reply.call.args ?? {}),
          },
        }
      : undefined;
  const finish = reply.kind === "tool" ? "tool_calls" : "stop";
  if (!conversation.stream) {
    const message = toolCall
      ? { role: "assistant", content: null, tool_calls: [toolCall] }
      : { role: "assistant", content: reply.kind === "text" ? reply.text : "" };
    return {
      json: {
        ...base,
        object: "chat.completion",
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      },
    };
  }
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    data: { ...base, object: "chat.completion.chunk", choices, ...extra },
  });
  const delta = toolCall
    ? { role: "assistant", tool_calls: [{ index: 0, ...toolCall }] }
    : { role: "assistant", content: reply.kind === "text" ? reply.text : "" };
  return {
    sse: [
      chunk([{ index: 0, delta, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: finish }]),
      chunk([], { usage }),
      { data: "[DONE]" },
    ],
  };
}

function gemini(conversation: Conversation, reply: Reply): WireResponse {
  const output = tokens(replyText(reply));
  const part =
    reply.kind === "tool"
      ? { functionCall: { name: reply.call.name, args: reply.call.args ?? {} } }
      : { text: reply.text };
  const body = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: {
      promptTokenCount: conversation.inputTokens,
      candidatesTokenCount: output,
      totalTokenCount: conversation.inputTokens + output,
    },
    modelVersion: conversation.model,
  };
  return conversation.stream ? { sse: [{ data: body }] } : { json: body };
}

/** Encode `reply` for the conversation's wire API (streamed when the client asked for a stream). */
export function encodeReply(conversation: Conversation, reply: Reply): WireResponse {
  switch (conversation.api) {
    case "anthropic-messages":
      return anthropic(conversation, reply);
    case "openai-responses":
      return responses(conversation, reply);
    case "openai-chat":
      return chat(conversation, reply);
    case "gemini":
      return gemini(conversation, reply);
  }
}

/**
 * A JSON value matching a (simple) JSON schema, for side requests that demand structured output, e.g.
 * Gemini CLI's next-speaker check: enums take their first value, strings are empty, required properties only.
 */
export function sampleOf(schema: unknown): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const type = String([s.type].flat()[0] ?? "").toLowerCase();
  if (type === "object" || s.properties) {
    const props = (s.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(s.required) ? (s.required as string[]) : Object.keys(props);
    return Object.fromEntries(required.map((k) => [k, sampleOf(props[k])]));
  }
  if (type === "array") return [];
  if (type === "boolean") return false;
  if (type === "number" || type === "integer") return 0;
  return "";
}
