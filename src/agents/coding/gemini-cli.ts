import { readdirSync } from "node:fs";
import path from "node:path";
import { readAgentFile } from "../../core/agent-file.ts";
import { arr, type Json, obj, str } from "../../core/json-view.ts";
import {
  type CliAgentDefinition,
  collectingParser,
  emptyStep,
  type ParsedStep,
  writeConfigFile,
} from "./cli-agent.ts";
import { exitCodeInText } from "./trace-builder.ts";

/**
 * Gemini CLI (`@google/gemini-cli`), headless (agent-clis.md §4): `gemini -p <prompt> -o stream-json
 * --approval-mode yolo --skip-trust`, the session id pre-assigned with `--session-id` and continued with
 * `--resume`. The stream lacks exit codes (it says `success` for `exit 3`), so they are read from the session
 * file `~/.gemini/tmp/<project>/chats/session-*.jsonl` ("Exit Code: 3"). The endpoint is
 * `GOOGLE_GEMINI_BASE_URL` with auth type `gemini-api-key` (the base URL alone selects "gateway", which
 * headless mode rejects); usage statistics, telemetry and auto-update are off.
 */

const SHELL = new Set(["run_shell_command"]);
const WRITES = new Set(["write_file", "replace", "edit"]);

/** Tool outputs by call id, from every Gemini CLI session file under `home` naming `sessionId`. */
export function geminiSessionOutputs(home: string, sessionId: string | undefined): Map<string, string> {
  const outputs = new Map<string, string>();
  const root = path.join(home, ".gemini", "tmp");
  if (!sessionId) return outputs;
  // The agent wrote these directories: list only real directories (no symlinks), read only regular files.
  const dirsIn = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch {
      return [];
    }
  };
  const filesIn = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name);
    } catch {
      return [];
    }
  };
  for (const project of dirsIn(root)) {
    const chats = path.join(root, project, "chats");
    if (!dirsIn(path.join(root, project)).includes("chats")) continue;
    for (const file of filesIn(chats).filter((f) => f.endsWith(".jsonl"))) {
      const text = readAgentFile(path.join(chats, file));
      if (!text?.includes(sessionId)) continue;
      for (const line of text.split("\n")) {
        if (!line.includes("functionResponse")) continue;
        let record: Json;
        try {
          record = JSON.parse(line);
        } catch {
          continue;
        }
        const parts = [...arr(record.content), ...arr(record.toolCalls).flatMap((c) => arr(obj(c).result))];
        for (const part of parts.map(obj)) {
          const response = obj(part.functionResponse);
          const output = str(obj(response.response).output);
          if (str(response.id) && output) outputs.set(str(response.id), output);
        }
      }
    }
  }
  return outputs;
}

export const geminiCli: CliAgentDefinition = {
  name: "gemini-cli",
  npmPackage: "@google/gemini-cli",
  version: "0.61.0",
  bin: "gemini",
  defaultModel: "gemini-2.5-flash",
  endpointEnv: { baseUrl: "GOOGLE_GEMINI_BASE_URL", apiKey: "GEMINI_API_KEY" },
  basePath: "",
  preassignsSessionId: true,
  prepare({ home, endpoint }) {
    const settings = {
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    };
    writeConfigFile(home, ".gemini/settings.json", `${JSON.stringify(settings, null, 2)}\n`);
    return {
      ...(endpoint.baseUrl ? { GOOGLE_GEMINI_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey ? { GEMINI_API_KEY: endpoint.apiKey } : {}),
    };
  },
  args: ({ prompt, sessionId, resume, model, extraArgs }) => [
    "-o",
    "stream-json",
    "--approval-mode",
    "yolo",
    "--skip-trust",
    "-m",
    model,
    ...(resume ? ["--resume", sessionId!] : sessionId ? ["--session-id", sessionId] : []),
    ...extraArgs,
    // `--prompt=<text>`: a prompt starting with a dash is not taken for an option.
    `--prompt=${prompt}`,
  ],
  parser() {
    return collectingParser((records, trace, context) => {
      const out: ParsedStep = emptyStep(false);
      const sessionId = str(records.find((r) => r.type === "init")?.session_id) || context.sessionId;
      if (sessionId) out.sessionId = sessionId;
      const fromSession = geminiSessionOutputs(context.home, sessionId);
      const calls = new Map<string, { name: string; input: Json; ts?: number }>();
      let text = "";
      const flush = () => {
        if (text) trace.say(text);
        if (text) out.finalMessage = text;
        text = "";
      };
      for (const r of records) {
        const ts = Date.parse(str(r.timestamp)) || undefined;
        if (r.type === "init" && str(r.model)) out.model = str(r.model);
        if (r.type === "message" && r.role === "assistant") {
          text += str(r.content);
          continue;
        }
        flush();
        if (r.type === "tool_use") {
          const input = obj(r.parameters);
          calls.set(str(r.tool_id), { name: str(r.tool_name), input, ts });
          trace.call(str(r.tool_id), str(r.tool_name), input, ts);
        }
        if (r.type === "tool_result") {
          const id = str(r.tool_id);
          const call = calls.get(id);
          const isError = r.status === "error";
          const output = str(r.output) || str(obj(r.error).message);
          const full = fromSession.get(id) ?? "";
          trace.result(id, output, isError, {
            ts,
            ...(call && SHELL.has(call.name)
              ? { command: { line: str(call.input.command), exitCode: exitCodeInText(full) } }
              : {}),
            ...(call && WRITES.has(call.name) && str(call.input.file_path)
              ? {
                  file: {
                    path: str(call.input.file_path),
                    kind: /created/i.test(full) ? ("added" as const) : ("modified" as const),
                  },
                }
              : {}),
          });
        }
        if (r.type === "error" && r.severity === "error") out.error = str(r.message);
        if (r.type === "result") {
          out.completed = r.status === "success";
          if (r.status !== "success")
            out.error = str(obj(r.error).message) || `result status ${str(r.status)}`;
          const stats = obj(r.stats);
          out.usage = {
            inputTokens: Number(stats.input_tokens ?? 0),
            outputTokens: Number(stats.output_tokens ?? 0),
            costUsd: 0,
            cumulative: false,
          };
        }
      }
      flush();
      return out;
    });
  },
};
