import { arr as asArray, obj as asObject, str as asString, type Json } from "../../core/json-view.ts";

/**
 * One request to the scripted model server, reduced to what the script needs, whichever wire API it came
 * over (agent-clis.md §8: the server is stateless, so each request's progress is read from its history):
 * the latest user prompt, how many tool calls the model has made since it, the tools the agent offers, and
 * the agent's working directory when the request states it.
 */

/** Wire APIs the server speaks. */
export type WireApi = "anthropic-messages" | "openai-responses" | "openai-chat" | "gemini";

/** A tool the agent offers the model. */
export interface OfferedTool {
  name: string;
  /** `custom`: free-form text input (Codex's `apply_patch`); `function`: JSON arguments. */
  kind: "function" | "custom";
  /** JSON-schema properties of the arguments (name → schema), empty for custom tools. */
  properties: Record<string, { type?: string | string[] }>;
  /** Names of required arguments. */
  required: string[];
}

/** The parts of a request the script acts on. */
export interface Conversation {
  api: WireApi;
  /** Model name as requested. */
  model: string;
  /** Whether the client asked for a stream (SSE). */
  stream: boolean;
  tools: OfferedTool[];
  /** Text of the latest user prompt ("" when none). */
  prompt: string;
  /** User prompts in the request's history, the latest included (2 on the second step of a resumed session). */
  promptCount: number;
  /** Tool calls the model made after that prompt (the next action's index). */
  callsSincePrompt: number;
  /** The agent's working directory, when the request mentions it. */
  workspace?: string;
  /** The JSON schema the reply must match, when the client asks for structured output. */
  responseSchema?: { name?: string; schema: unknown };
  /** Rough size of the request in tokens (characters / 4), for usage figures. */
  inputTokens: number;
}

/**
 * Text a user typed, as opposed to context an agent injects into user turns (Claude Code's
 * `<system-reminder>`, Codex's `<environment_context>`, …), which always comes wrapped in a tag.
 */
function isPromptText(text: string): boolean {
  const t = text.trim();
  return t !== "" && !/^<[A-Za-z_-]+>/.test(t);
}

function schemaTool(name: string, schema: unknown, kind: OfferedTool["kind"] = "function"): OfferedTool {
  const s = asObject(schema);
  return {
    name,
    kind,
    properties: asObject(s.properties) as OfferedTool["properties"],
    required: asArray(s.required).map(asString),
  };
}

/** Where the agent works: the first absolute path the request gives as its working directory. */
function findWorkspace(text: string): string | undefined {
  const dir = String.raw`(\/[A-Za-z0-9._~+@%-][^\s"'\x60*<>]*)`;
  const patterns = [
    /<cwd>\s*(\/[^<\n]+?)\s*<\/cwd>/,
    new RegExp(String.raw`Workspace Directories:\**\s*-\s*${dir}`, "i"),
    new RegExp(String.raw`(?:primary )?working directory:\s*${dir}`, "i"),
    new RegExp(String.raw`currently working in the directory:?\s*${dir}`, "i"),
    new RegExp(String.raw`"cwd"\s*:\s*"${dir}"`),
  ];
  for (const p of patterns) {
    const m = p.exec(text);
    if (m) return m[1]!.replace(/[.,;:)]+$/, "");
  }
  return undefined;
}

function estimateTokens(body: unknown): number {
  return Math.max(1, Math.ceil(JSON.stringify(body).length / 4));
}

/** A request in Anthropic Messages form (`POST /v1/messages`). */
function fromAnthropic(body: Json): Omit<Conversation, "api" | "inputTokens" | "workspace"> {
  let prompt = "";
  let prompts = 0;
  let calls = 0;
  for (const message of asArray(body.messages).map(asObject)) {
    const content = message.content;
    const blocks = typeof content === "string" ? [{ type: "text", text: content }] : asArray(content);
    if (message.role === "user") {
      const texts = blocks
        .map(asObject)
        .filter((b) => b.type === "text")
        .map((b) => asString(b.text))
        .filter(isPromptText);
      if (texts.length) {
        prompt = texts.join("\n");
        prompts++;
        calls = 0;
      }
    } else if (message.role === "assistant") {
      calls += blocks.map(asObject).filter((b) => b.type === "tool_use").length;
    }
  }
  return {
    model: asString(body.model),
    stream: body.stream === true,
    tools: asArray(body.tools)
      .map(asObject)
      .filter((t) => asString(t.name))
      .map((t) => schemaTool(asString(t.name), t.input_schema)),
    prompt,
    promptCount: prompts,
    callsSincePrompt: calls,
  };
}

/** A request in OpenAI Responses form (`POST /v1/responses`; Codex). */
function fromResponses(body: Json): Omit<Conversation, "api" | "inputTokens" | "workspace"> {
  let prompt = "";
  let prompts = 0;
  let calls = 0;
  const input =
    typeof body.input === "string" ? [{ role: "user", content: body.input }] : asArray(body.input);
  for (const item of input.map(asObject)) {
    const type = asString(item.type) || "message";
    if (type === "message" && item.role === "user") {
      const content = item.content;
      const texts = (typeof content === "string" ? [content] : asArray(content).map((c) => asObject(c).text))
        .map(asString)
        .filter(isPromptText);
      if (texts.length) {
        prompt = texts.join("\n");
        prompts++;
        calls = 0;
      }
    } else if (type === "function_call" || type === "custom_tool_call" || type === "local_shell_call") {
      calls++;
    }
  }
  return {
    model: asString(body.model),
    stream: body.stream === true,
    tools: asArray(body.tools)
      .map(asObject)
      .filter((t) => asString(t.name))
      .map((t) =>
        t.type === "custom"
          ? schemaTool(asString(t.name), {}, "custom")
          : schemaTool(asString(t.name), t.parameters),
      ),
    prompt,
    promptCount: prompts,
    callsSincePrompt: calls,
  };
}

/** A request in OpenAI Chat Completions form (`POST /v1/chat/completions`; OpenCode, Qwen Code). */
function fromChat(body: Json): Omit<Conversation, "api" | "inputTokens" | "workspace"> {
  let prompt = "";
  let prompts = 0;
  let calls = 0;
  for (const message of asArray(body.messages).map(asObject)) {
    if (message.role === "user") {
      const content = message.content;
      const texts = (typeof content === "string" ? [content] : asArray(content).map((c) => asObject(c).text))
        .map(asString)
        .filter(isPromptText);
      if (texts.length) {
        prompt = texts.join("\n");
        prompts++;
        calls = 0;
      }
    } else if (message.role === "assistant") {
      calls += asArray(message.tool_calls).length;
    }
  }
  return {
    model: asString(body.model),
    stream: body.stream === true,
    tools: asArray(body.tools)
      .map(asObject)
      .map((t) => asObject(t.function))
      .filter((f) => asString(f.name))
      .map((f) => schemaTool(asString(f.name), f.parameters)),
    prompt,
    promptCount: prompts,
    callsSincePrompt: calls,
  };
}

/** A request in Gemini form (`POST /v1beta/models/<m>:streamGenerateContent`; Gemini CLI). */
function fromGemini(
  body: Json,
  model: string,
  stream: boolean,
): Omit<Conversation, "api" | "inputTokens" | "workspace"> {
  let prompt = "";
  let prompts = 0;
  let calls = 0;
  for (const content of asArray(body.contents).map(asObject)) {
    const parts = asArray(content.parts).map(asObject);
    if (content.role === "user" || content.role === undefined) {
      const texts = parts.map((p) => asString(p.text)).filter(isPromptText);
      if (texts.length && !parts.some((p) => p.functionResponse)) {
        prompt = texts.join("\n");
        prompts++;
        calls = 0;
      }
    } else if (content.role === "model") {
      calls += parts.filter((p) => p.functionCall).length;
    }
  }
  const tools = asArray(body.tools)
    .flatMap((t) => asArray(asObject(t).functionDeclarations))
    .map(asObject)
    .filter((f) => asString(f.name))
    .map((f) => schemaTool(asString(f.name), f.parametersJsonSchema ?? f.parameters));
  return { model, stream, tools, prompt, promptCount: prompts, callsSincePrompt: calls };
}

/**
 * Read a request body of the given API.
 * @param api which wire API the request came over (from its URL)
 * @param body the decoded JSON body
 * @param model for Gemini, the model named in the URL
 * @param stream for Gemini, whether the URL asked for a stream
 */
export function readConversation(api: WireApi, body: unknown, model = "", stream = false): Conversation {
  const b = asObject(body);
  const core =
    api === "anthropic-messages"
      ? fromAnthropic(b)
      : api === "openai-responses"
        ? fromResponses(b)
        : api === "openai-chat"
          ? fromChat(b)
          : fromGemini(b, model, stream);
  const workspace = findWorkspace(JSON.stringify(body).replaceAll("\\n", "\n"));
  const responseSchema = structuredOutputOf(b);
  return {
    api,
    ...core,
    ...(workspace ? { workspace } : {}),
    ...(responseSchema ? { responseSchema } : {}),
    inputTokens: estimateTokens(body),
  };
}

/**
 * The schema of a structured-output request: Chat Completions `response_format.json_schema`, Responses
 * `text.format`, Gemini `generationConfig.responseJsonSchema`.
 */
function structuredOutputOf(b: Json): Conversation["responseSchema"] {
  const format = asObject(b.response_format);
  if (format.type === "json_schema") {
    const js = asObject(format.json_schema);
    return { name: asString(js.name) || undefined, schema: js.schema };
  }
  const text = asObject(asObject(b.text).format);
  if (text.type === "json_schema") return { name: asString(text.name) || undefined, schema: text.schema };
  const config = asObject(b.generationConfig);
  if (config.responseMimeType === "application/json")
    return { schema: config.responseJsonSchema ?? config.responseSchema };
  return undefined;
}
