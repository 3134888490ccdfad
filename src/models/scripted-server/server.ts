import { appendFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Conversation, readConversation, type WireApi } from "./conversation.ts";
import { planReply, type Reply } from "./dialect.ts";
import type { ModelScript } from "./script.ts";
import { encodeReply, sampleOf, type WireResponse } from "./wire.ts";

/**
 * `gauntlet model-server` (issue 3 §5): a scripted model on 127.0.0.1 that speaks the wire APIs coding-agent
 * CLIs use — Anthropic Messages (`POST …/messages`), OpenAI Responses (`POST …/responses`), OpenAI Chat
 * Completions (`POST …/chat/completions`) and Gemini (`POST …/models/<m>:streamGenerateContent` /
 * `:generateContent`) — streaming SSE when the client asks. Stateless: each reply is decided from the
 * request's own history (see dialect.ts), so any number of agents and resumed sessions can share it.
 * It never reads or logs API keys.
 */

/** One request as the server saw it (the `--log` JSONL). */
export interface ServedRequest {
  ts: number;
  api: WireApi;
  path: string;
  model: string;
  userAgent: string;
  prompt: string;
  /** User prompts in the request's history (see Conversation.promptCount). */
  promptCount: number;
  callsSincePrompt: number;
  workspace?: string;
  tools: string[];
  reply: { kind: "tool"; name: string; args?: unknown; input?: string } | { kind: "text"; text: string };
  step: number | null;
}

export interface ScriptedModelServerOptions {
  script: ModelScript;
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  host?: string;
  /** Append one JSON line per request here. */
  logFile?: string;
  /** Also put each request's whole body in the log (large: agents send their full system prompt and tools). */
  logBodies?: boolean;
  /** Called for every served request (after it is answered). */
  onRequest?: (request: ServedRequest) => void;
}

export interface ScriptedModelServer {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash, no `/v1`). */
  url: string;
  port: number;
  /** Requests served so far, in order. */
  requests: ServedRequest[];
  close(): Promise<void>;
}

/** Which API a request path belongs to, and for Gemini the model and streaming mode from the URL. */
function route(
  method: string,
  pathname: string,
): { api: WireApi; model?: string; stream?: boolean } | "count" | "models" | null {
  if (method === "GET" && /\/models\/?$/.test(pathname)) return "models";
  if (method !== "POST") return null;
  if (/\/messages\/count_tokens$/.test(pathname)) return "count";
  if (/\/messages$/.test(pathname)) return { api: "anthropic-messages" };
  if (/\/responses$/.test(pathname)) return { api: "openai-responses" };
  if (/\/chat\/completions$/.test(pathname)) return { api: "openai-chat" };
  const g = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(pathname);
  if (g) return { api: "gemini", model: decodeURIComponent(g[1]!), stream: g[2] === "streamGenerateContent" };
  return null;
}

function write(res: http.ServerResponse, response: WireResponse): void {
  if ("json" in response) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(response.json));
    return;
  }
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const { event, data } of response.sse)
    res.write(
      `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`,
    );
  res.end();
}

function summary(reply: Reply): ServedRequest["reply"] {
  return reply.kind === "tool"
    ? {
        kind: "tool",
        name: reply.call.name,
        ...(reply.call.args ? { args: reply.call.args } : {}),
        ...(reply.call.input ? { input: reply.call.input } : {}),
      }
    : { kind: "text", text: reply.text };
}

/**
 * A structured-output request offering no tools (a model role's call, or a side request such as Gemini
 * CLI's next-speaker check) gets the script's reply for that schema name, else a schema-shaped object.
 */
function structuredReply(script: ModelScript, conversation: Conversation): WireResponse | null {
  const wanted = conversation.responseSchema;
  if (!wanted || conversation.tools.length) return null;
  const scripted = wanted.name !== undefined ? script.structured[wanted.name] : undefined;
  const text = JSON.stringify(scripted ?? sampleOf(wanted.schema));
  return encodeReply(conversation, { kind: "text", text, stepIndex: null });
}

/**
 * Start the server.
 * @throws Error when the port cannot be bound (e.g. EADDRINUSE)
 */
export async function startScriptedModelServer(
  options: ScriptedModelServerOptions,
): Promise<ScriptedModelServer> {
  const requests: ServedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", () => res.destroy());
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const where = route(req.method ?? "GET", url.pathname);
      if (where === null) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { message: `gauntlet model-server: no route for ${req.method} ${url.pathname}` },
          }),
        );
        return;
      }
      if (where === "models") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            object: "list",
            data: [{ id: "scripted", object: "model", owned_by: "gauntlet" }],
          }),
        );
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
      } catch {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ error: { message: "gauntlet model-server: the request body is not JSON" } }),
        );
        return;
      }
      if (where === "count") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: Math.ceil(JSON.stringify(body).length / 4) }));
        return;
      }
      const conversation = readConversation(where.api, body, where.model, where.stream);
      const reply = planReply(options.script, conversation);
      const side = structuredReply(options.script, conversation);
      write(res, side ?? encodeReply(conversation, reply));
      const served: ServedRequest = {
        ts: Date.now(),
        api: where.api,
        path: url.pathname,
        model: conversation.model,
        userAgent: String(req.headers["user-agent"] ?? ""),
        prompt: conversation.prompt.slice(0, 500),
        promptCount: conversation.promptCount,
        callsSincePrompt: conversation.callsSincePrompt,
        ...(conversation.workspace ? { workspace: conversation.workspace } : {}),
        tools: conversation.tools.map((t) => t.name),
        reply: side ? { kind: "text", text: "(structured side reply)" } : summary(reply),
        step: reply.stepIndex,
      };
      requests.push(served);
      if (options.logFile)
        appendFileSync(
          options.logFile,
          `${JSON.stringify(options.logBodies ? { ...served, body } : served)}\n`,
        );
      options.onRequest?.(served);
    });
  });
  // An Upgrade (Codex tries a Responses WebSocket first with some providers) is refused, so clients fall back to SSE.
  server.on("upgrade", (_req, socket) => socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"));
  server.on("clientError", (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
