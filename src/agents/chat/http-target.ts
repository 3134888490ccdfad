import { type ChatReply, type ChatTarget, TargetError } from "./target.ts";

/**
 * HTTP chat targets (issue 5 §1): an OpenAI-compatible `/chat/completions` endpoint, for which Gauntlet
 * keeps the conversation history and sends it whole each turn, and a generic JSON bot whose request and
 * reply shapes are given as templates.
 */

/** Options shared by HTTP targets. */
export interface HttpTargetOptions {
  /** Display name (default: the URL's host). */
  name?: string;
  /** Extra request headers (e.g. `Authorization`). Values are sent as given; keep secrets in env vars. */
  headers?: Record<string, string>;
  /** Time limit per turn, ms (default 60,000). */
  timeoutMs?: number;
}

async function postJson(
  target: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const e = error as Error;
    throw new TargetError(
      target,
      e.name === "TimeoutError" ? `no reply within ${timeoutMs} ms` : `cannot reach ${url} (${e.message})`,
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw new TargetError(target, `HTTP ${response.status} from ${url}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new TargetError(target, `reply from ${url} is not JSON: ${text.slice(0, 200)}`);
  }
}

/**
 * An OpenAI-compatible chat-completions endpoint as a chat target. Gauntlet keeps the history (system
 * prompt if given, then every user turn and reply) and sends it each turn; `reset()` clears it.
 * @param baseUrl e.g. `http://127.0.0.1:8000/v1` (`/chat/completions` is appended)
 */
export function openAiChatTarget(
  baseUrl: string,
  options: HttpTargetOptions & { model?: string; system?: string } = {},
): ChatTarget {
  const url = `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const name = options.name ?? `http:${new URL(url).host}`;
  let history: { role: "system" | "user" | "assistant"; content: string }[] = [];
  const start = () => (options.system ? [{ role: "system" as const, content: options.system }] : []);
  history = start();
  return {
    name,
    async reset() {
      history = start();
    },
    async send(text: string): Promise<ChatReply> {
      const started = performance.now();
      const messages = [...history, { role: "user" as const, content: text }];
      const reply = (await postJson(
        name,
        url,
        { model: options.model ?? "default", messages },
        options.headers ?? {},
        options.timeoutMs ?? 60_000,
      )) as { choices?: { message?: { content?: unknown } }[] };
      const content = reply.choices?.[0]?.message?.content;
      if (typeof content !== "string" && content !== null)
        throw new TargetError(name, "reply has no choices[0].message.content");
      const answer = content ?? "";
      history = [...messages, { role: "assistant", content: answer }];
      return { text: answer, ms: performance.now() - started };
    },
    async close() {},
  };
}

/**
 * A custom JSON bot as a chat target. `request` is a JSON template whose string values may hold
 * `{{message}}` (the user turn) and `{{session}}` (a fresh id per conversation); `replyPath` is the dotted
 * path of the reply text in the response (e.g. `data.reply` or `messages.0.text`).
 * @example jsonChatTarget("http://127.0.0.1:9000/chat", {request: {q: "{{message}}", sid: "{{session}}"}, replyPath: "answer"})
 */
export function jsonChatTarget(
  url: string,
  mapping: { request: unknown; replyPath: string },
  options: HttpTargetOptions = {},
): ChatTarget {
  const name = options.name ?? `http:${new URL(url).host}`;
  let session = newSession();
  return {
    name,
    async reset() {
      session = newSession();
    },
    async send(text: string): Promise<ChatReply> {
      const started = performance.now();
      const body = fill(mapping.request, { message: text, session });
      const reply = await postJson(name, url, body, options.headers ?? {}, options.timeoutMs ?? 60_000);
      const value = at(reply, mapping.replyPath);
      if (typeof value !== "string")
        throw new TargetError(name, `reply has no text at "${mapping.replyPath}"`);
      return { text: value, ms: performance.now() - started };
    },
    async close() {},
  };
}

function newSession(): string {
  return `gauntlet-${crypto.randomUUID()}`;
}

/** The template with `{{name}}` replaced in every string value (keys untouched). */
function fill(template: unknown, values: Record<string, string>): unknown {
  if (typeof template === "string")
    return template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => values[k] ?? m);
  if (Array.isArray(template)) return template.map((x) => fill(x, values));
  if (template && typeof template === "object")
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, values)]));
  return template;
}

/** The value at a dotted path (`a.b.0.c`), or undefined. */
function at(value: unknown, dotted: string): unknown {
  let v = value;
  for (const key of dotted.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
