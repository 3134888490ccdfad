import { obj, str } from "../../core/json-view.ts";
import { type CliAgentDefinition, collectingParser, emptyStep, type ParsedStep } from "./cli-agent.ts";

/**
 * OpenCode (`opencode-ai`), headless (agent-clis.md §5): `opencode run --format json <prompt>`, resumed with
 * `--session <ses_…>` (the id comes from any event; it cannot be chosen up front). The endpoint is an
 * `@ai-sdk/openai-compatible` provider in `OPENCODE_CONFIG_CONTENT` (Chat Completions), with every tool
 * allowed, sharing and auto-update off, and the model catalogue fetch, auto-update and LSP downloads
 * disabled. The stream carries exit codes (`metadata.exit`) and diffs (`metadata.diff`); tokens and cost are
 * per model call and are summed.
 */

const SHELL = new Set(["bash"]);
const WRITES = new Set(["write", "edit", "multiedit"]);
const PATCH_KINDS: Record<string, "added" | "modified" | "deleted"> = {
  add: "added",
  update: "modified",
  delete: "deleted",
  move: "modified",
};

export const opencode: CliAgentDefinition = {
  name: "opencode",
  npmPackage: "opencode-ai",
  version: "1.18.33",
  bin: "opencode",
  defaultModel: "gpt-5.5",
  endpointEnv: { baseUrl: "OPENAI_BASE_URL", apiKey: "OPENAI_API_KEY" },
  basePath: "/v1",
  preassignsSessionId: false,
  prepare({ endpoint }) {
    const config = {
      $schema: "https://opencode.ai/config.json",
      model: `gauntlet/${endpoint.model}`,
      small_model: `gauntlet/${endpoint.model}`,
      autoupdate: false,
      share: "disabled",
      permission: { edit: "allow", bash: "allow", webfetch: "allow" },
      provider: {
        gauntlet: {
          npm: "@ai-sdk/openai-compatible",
          name: "Gauntlet endpoint",
          options: {
            baseURL: endpoint.baseUrl ?? "https://api.openai.com/v1",
            apiKey: "{env:GAUNTLET_OPENCODE_API_KEY}",
          },
          models: { [endpoint.model]: { name: endpoint.model, tool_call: true } },
        },
      },
    };
    return {
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
      GAUNTLET_OPENCODE_API_KEY: endpoint.apiKey ?? "",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    };
  },
  args: ({ prompt, sessionId, resume, extraArgs }) => [
    "run",
    "--format",
    "json",
    ...(resume ? ["--session", sessionId!] : []),
    ...extraArgs,
    "--",
    // `opencode run` joins its message arguments with spaces but wraps any argument holding a space in
    // quotes; split on spaces, the prompt reaches the model exactly as written.
    ...prompt.split(" "),
  ],
  parser() {
    return collectingParser((records, trace) => {
      const out: ParsedStep = emptyStep(false);
      for (const r of records) {
        const ts = typeof r.timestamp === "number" ? r.timestamp : undefined;
        if (str(r.sessionID)) out.sessionId = str(r.sessionID);
        const part = obj(r.part);
        if (r.type === "text") {
          trace.say(str(part.text), ts);
          out.finalMessage = str(part.text);
        }
        if (r.type === "tool_use") {
          const state = obj(part.state);
          const input = obj(state.input);
          const name = str(part.tool);
          const id = str(part.callID);
          const time = obj(state.time);
          trace.call(id, name, input, typeof time.start === "number" ? time.start : ts);
          const meta = obj(state.metadata);
          const isError = state.status === "error";
          const output = str(state.output) || str(state.error);
          trace.result(id, output, isError, {
            ts: typeof time.end === "number" ? time.end : ts,
            ...(SHELL.has(name)
              ? {
                  command: {
                    line: str(input.command),
                    exitCode: typeof meta.exit === "number" ? meta.exit : null,
                  },
                }
              : {}),
            ...(WRITES.has(name) && str(input.filePath)
              ? {
                  file: {
                    path: str(input.filePath),
                    kind: meta.exists === false ? ("added" as const) : ("modified" as const),
                  },
                }
              : {}),
          });
          // apply_patch (offered to GPT-style models instead of write/edit) lists the files it touched.
          if (!isError)
            for (const f of Array.isArray(meta.files) ? meta.files.map(obj) : [])
              if (str(f.filePath))
                trace.fileChange(str(f.filePath), PATCH_KINDS[str(f.type)] ?? "modified", ts);
        }
        if (r.type === "step_finish") {
          const tokens = obj(part.tokens);
          out.usage.inputTokens += Number(tokens.input ?? 0) + Number(obj(tokens.cache).read ?? 0);
          out.usage.outputTokens += Number(tokens.output ?? 0) + Number(tokens.reasoning ?? 0);
          out.usage.costUsd += Number(part.cost ?? 0);
          if (part.reason !== "tool-calls") out.completed = true;
        }
        if (r.type === "error") {
          const error = obj(r.error);
          out.error = str(obj(error.data).message) || str(error.name) || "the agent reported an error";
        }
      }
      return out;
    });
  },
};
