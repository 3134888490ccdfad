import { claudeShapedParser } from "./claude-code.ts";
import type { CliAgentDefinition } from "./cli-agent.ts";
import { writeConfigFile } from "./cli-agent.ts";
import { exitCodeInText } from "./trace-builder.ts";

/**
 * Qwen Code (`@qwen-code/qwen-code`, a Gemini CLI fork), headless (agent-clis.md §6): `qwen -p <prompt>
 * -o stream-json --yolo --auth-type openai`, the session id pre-assigned with `--session-id` and continued
 * with `--resume`. Its stream is Claude-Code-shaped; a shell result's text ends "Exit Code: N". The endpoint is
 * `OPENAI_BASE_URL` / `OPENAI_API_KEY` / `OPENAI_MODEL` (Chat Completions); usage statistics and telemetry
 * are off. Usage is cumulative over the session.
 */

const SHELL = new Set(["run_shell_command"]);
const WRITES = new Set(["write_file", "edit", "replace"]);

export const qwenCode: CliAgentDefinition = {
  name: "qwen-code",
  npmPackage: "@qwen-code/qwen-code",
  version: "0.24.4",
  bin: "qwen",
  defaultModel: "qwen3-coder-plus",
  endpointEnv: { baseUrl: "OPENAI_BASE_URL", apiKey: "OPENAI_API_KEY" },
  basePath: "/v1",
  preassignsSessionId: true,
  prepare({ home, endpoint }) {
    const settings = {
      security: { auth: { selectedType: "openai" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
    };
    writeConfigFile(home, ".qwen/settings.json", `${JSON.stringify(settings, null, 2)}\n`);
    return {
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
      OPENAI_MODEL: endpoint.model,
      ...(endpoint.baseUrl ? { OPENAI_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey ? { OPENAI_API_KEY: endpoint.apiKey } : {}),
    };
  },
  args: ({ prompt, sessionId, resume, model, extraArgs }) => [
    "-o",
    "stream-json",
    "--yolo",
    "--auth-type",
    "openai",
    "-m",
    model,
    ...(resume ? ["--resume", sessionId!] : sessionId ? ["--session-id", sessionId] : []),
    ...extraArgs,
    // `--prompt=<text>`: a prompt starting with a dash is not taken for an option.
    `--prompt=${prompt}`,
  ],
  parser() {
    const inner = claudeShapedParser(SHELL, WRITES, (text) => exitCodeInText(text));
    return {
      line: inner.line,
      finish(trace, context) {
        const out = inner.finish(trace, context);
        // Qwen reports tokens for the whole session and no cost.
        return { ...out, usage: { ...out.usage, cumulative: true, costCumulative: false } };
      },
    };
  },
};
