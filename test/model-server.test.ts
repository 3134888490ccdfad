import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import { readConversation } from "../src/models/scripted-server/conversation.ts";
import { planCall } from "../src/models/scripted-server/dialect.ts";
import { loadModelScript, ModelScript } from "../src/models/scripted-server/script.ts";
import { type ScriptedModelServer, startScriptedModelServer } from "../src/models/scripted-server/server.ts";

const script = ModelScript.parse({
  steps: [
    {
      when: "make notes",
      do: [{ write: { path: "n.txt", content: "hi\n" } }, { shell: "exit 3" }],
      say: "Done.",
    },
  ],
});

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer({ script });
});
afterAll(() => server.close());

async function post(urlPath: string, body: unknown): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(`${server.url}${urlPath}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" };
}

/** JSON payloads of an SSE body's `data:` lines. */
const sseData = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)));

describe("scripted model server (issue 3 §5)", () => {
  it("Anthropic Messages: streams a tool_use for the next action, then the final text once every call has a result", async () => {
    const tools = [
      {
        name: "Write",
        input_schema: { properties: { file_path: {}, content: {} }, required: ["file_path", "content"] },
      },
      { name: "Bash", input_schema: { properties: { command: {}, description: {} }, required: ["command"] } },
    ];
    const first = await post("/v1/messages?beta=true", {
      model: "m",
      stream: true,
      tools,
      system: [{ type: "text", text: "Primary working directory: /w/repo" }],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "<system-reminder>x</system-reminder>" },
            { type: "text", text: "please make notes" },
          ],
        },
      ],
    });
    expect(first.type).toContain("text/event-stream");
    const events = sseData(first.text);
    expect(events.map((e) => e.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[1].content_block).toMatchObject({ type: "tool_use", name: "Write" });
    expect(JSON.parse(events[2].delta.partial_json)).toEqual({ file_path: "/w/repo/n.txt", content: "hi\n" });
    expect(events[4].delta.stop_reason).toBe("tool_use");

    const history = [
      { role: "user", content: "please make notes" },
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "Write", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "ok" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "b", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "b", content: "Exit code 3" }] },
    ];
    const last = await post("/v1/messages", { model: "m", tools, messages: history });
    expect(JSON.parse(last.text)).toMatchObject({
      stop_reason: "end_turn",
      content: [{ type: "text", text: "Done." }],
    });
  });

  it("OpenAI Responses: apply_patch as a custom tool call, exec_command for the shell", async () => {
    const tools = [
      {
        type: "function",
        name: "exec_command",
        parameters: { properties: { cmd: { type: "string" } }, required: ["cmd"] },
      },
      { type: "custom", name: "apply_patch" },
    ];
    const input = [
      {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "<environment_context><cwd>/w/r</cwd></environment_context>" }],
      },
      { type: "message", role: "user", content: [{ type: "input_text", text: "make notes" }] },
    ];
    const a = sseData((await post("/v1/responses", { model: "gpt", stream: true, tools, input })).text);
    expect(a.map((e) => e.type)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(a[2].item).toMatchObject({ type: "custom_tool_call", name: "apply_patch" });
    expect(a[2].item.input).toBe("*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch");
    const b = sseData(
      (
        await post("/v1/responses", {
          model: "gpt",
          stream: true,
          tools,
          input: [
            ...input,
            { type: "custom_tool_call", name: "apply_patch", call_id: "c", input: "…" },
            { type: "custom_tool_call_output", call_id: "c", output: "ok" },
          ],
        })
      ).text,
    );
    expect(b[2].item).toMatchObject({ type: "function_call", name: "exec_command" });
    expect(JSON.parse(b[2].item.arguments)).toEqual({ cmd: "exit 3" });
  });

  it("Chat Completions: tool_calls chunks, a finish_reason, a usage chunk and [DONE]", async () => {
    const res = await post("/v1/chat/completions", {
      model: "m",
      stream: true,
      tools: [
        {
          type: "function",
          function: { name: "bash", parameters: { properties: { command: { type: "string" } } } },
        },
      ],
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "make notes" },
      ],
    });
    expect(res.text.trim().endsWith("data: [DONE]")).toBe(true);
    const chunks = sseData(res.text);
    // No write tool offered: the write becomes a shell command.
    expect(chunks[0].choices[0].delta.tool_calls[0].function.name).toBe("bash");
    expect(JSON.parse(chunks[0].choices[0].delta.tool_calls[0].function.arguments).command).toBe(
      "printf %s 'hi\n' > 'n.txt'",
    );
    expect(chunks[1].choices[0].finish_reason).toBe("tool_calls");
    expect(chunks[2].usage.prompt_tokens).toBeGreaterThan(0);
  });

  it("Gemini: a functionCall part over SSE, and JSON side requests get a schema-shaped answer", async () => {
    const tools = [
      {
        functionDeclarations: [
          { name: "write_file", parametersJsonSchema: { properties: { file_path: {}, content: {} } } },
        ],
      },
    ];
    const res = await post("/v1beta/models/gemini-x:streamGenerateContent?alt=sse", {
      contents: [{ role: "user", parts: [{ text: "make notes" }] }],
      tools,
    });
    const [chunk] = sseData(res.text);
    expect(chunk.candidates[0].content.parts[0].functionCall).toEqual({
      name: "write_file",
      args: { file_path: "n.txt", content: "hi\n" },
    });
    const side = await post("/v1beta/models/flash:generateContent", {
      contents: [{ role: "user", parts: [{ text: "who speaks next?" }] }],
      generationConfig: {
        responseMimeType: "application/json",
        responseJsonSchema: {
          type: "object",
          properties: { next_speaker: { enum: ["user", "model"] }, reasoning: { type: "string" } },
          required: ["next_speaker", "reasoning"],
        },
      },
    });
    expect(JSON.parse(JSON.parse(side.text).candidates[0].content.parts[0].text)).toEqual({
      next_speaker: "user",
      reasoning: "",
    });
  });

  it("answers unmatched prompts and tool-less side requests with the fallback, unknown routes with 404", async () => {
    const res = await post("/v1/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "write a title" }],
    });
    expect(JSON.parse(res.text).choices[0].message.content).toBe(script.fallback);
    expect((await post("/v2/unknown", {})).status).toBe(404);
    expect(server.requests.at(-1)?.reply).toEqual({ kind: "text", text: script.fallback });
  });
});

describe("script and dialect", () => {
  it("maps actions onto each agent's own argument names and fills other required arguments", () => {
    const call = planCall(
      { edit: { path: "a.txt", old: "x", new: "y" } },
      [
        {
          name: "replace",
          kind: "function",
          properties: {
            file_path: {},
            old_string: {},
            new_string: {},
            instruction: { type: "string" },
            expected_replacements: { type: "number" },
          },
          required: ["file_path", "old_string", "new_string", "instruction", "expected_replacements"],
        },
      ],
      "/ws",
    );
    expect(call).toMatchObject({
      name: "replace",
      args: { file_path: "/ws/a.txt", old_string: "x", new_string: "y", expected_replacements: 0 },
    });
    expect(() => planCall({ edit: { path: "a", old: "x", new: "y" } }, [], undefined)).toThrow(
      /no edit tool/,
    );
  });

  it("reads the history of every API the same way", () => {
    const c = readConversation("openai-chat", {
      model: "m",
      messages: [
        { role: "user", content: "first" },
        { role: "assistant", tool_calls: [{ id: "1" }] },
        { role: "user", content: "second" },
        { role: "assistant", tool_calls: [{ id: "2" }, { id: "3" }] },
      ],
    });
    expect([c.prompt, c.promptCount, c.callsSincePrompt]).toEqual(["second", 2, 2]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own ${VAR} syntax
  it("loads a YAML script with ${VAR} expanded, and names the line of a bad field", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "script-"));
    const good = path.join(dir, "good.yaml");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own ${VAR} syntax
    writeFileSync(good, 'steps:\n  - when: "go"\n    do:\n      - read: "${SOME_DIR}/x"\n');
    expect(loadModelScript(good, { SOME_DIR: "/d" }).steps[0]!.do).toEqual([{ read: "/d/x" }]);
    const bad = path.join(dir, "bad.yaml");
    writeFileSync(bad, 'steps:\n  - when: "go"\n    do:\n      - delete: x\n');
    expect(() => loadModelScript(bad)).toThrow(InputError);
    try {
      loadModelScript(bad);
    } catch (error) {
      expect((error as InputError).message).toMatch(/bad\.yaml:4/);
    }
  });
});
