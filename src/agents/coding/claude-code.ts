import { arr, type Json, obj, str } from "../../core/json-view.ts";
import {
  type CliAgentDefinition,
  collectingParser,
  emptyStep,
  type ParsedStep,
  type StreamParser,
  writeConfigFile,
} from "./cli-agent.ts";
import { exitCodeInText } from "./trace-builder.ts";

/**
 * Claude Code (`@anthropic-ai/claude-code`), headless (agent-clis.md §2): `claude -p <prompt>
 * --output-format stream-json --verbose --permission-mode bypassPermissions`, the session id pre-assigned
 * with `--session-id` and continued with `--resume`. Its stream has tool calls and results but no exit
 * codes: they are read from the result text ("Exit code 3"). The endpoint is `ANTHROPIC_BASE_URL` (Anthropic
 * Messages API); `IS_SANDBOX=1` lets bypass mode run as root; non-essential traffic, telemetry and the
 * auto-updater are switched off.
 */

/** Tool names that run shell commands, and that write files, in Claude Code's tool set. */
const SHELL = new Set(["Bash"]);
const WRITES = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** Text of a tool_result's content (a string or a list of text blocks). */
export function toolResultText(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map((b) => str(obj(b).text))
    .filter(Boolean)
    .join("\n");
}

/**
 * Parser for Claude-Code-shaped stream-json (also used by Qwen Code, a fork with the same shape).
 * @param shell tool names whose results are shell commands
 * @param writes tool names that write a file named by `file_path`
 * @param exitCode exit code of a shell tool's result text (null when it does not say)
 */
export function claudeShapedParser(
  shell: ReadonlySet<string>,
  writes: ReadonlySet<string>,
  exitCode: (text: string, isError: boolean) => number | null,
): StreamParser {
  return collectingParser((records, trace) => {
    const calls = new Map<string, { name: string; input: Json }>();
    const out: ParsedStep = emptyStep(false);
    for (const r of records) {
      const ts = Date.parse(str(r.timestamp)) || undefined;
      if (str(r.session_id)) out.sessionId = str(r.session_id);
      if (r.type === "system" && r.subtype === "init" && str(r.model)) out.model = str(r.model);
      if (r.type === "assistant") {
        // Subagent turns (parent_tool_use_id set) are part of the trajectory too.
        for (const block of arr(obj(r.message).content).map(obj)) {
          if (block.type === "text") trace.say(str(block.text), ts);
          if (block.type === "tool_use") {
            calls.set(str(block.id), { name: str(block.name), input: obj(block.input) });
            trace.call(str(block.id), str(block.name), block.input, ts);
          }
        }
      }
      if (r.type === "user") {
        for (const block of arr(obj(r.message).content).map(obj)) {
          if (block.type !== "tool_result") continue;
          const id = str(block.tool_use_id);
          const call = calls.get(id);
          const text = toolResultText(block.content);
          const isError = block.is_error === true;
          const structured = obj(r.tool_use_result);
          trace.result(id, text, isError, {
            ts,
            ...(call && shell.has(call.name)
              ? {
                  command: {
                    line: str(call.input.command),
                    exitCode: exitCode(text, isError),
                  },
                }
              : {}),
            ...(call && writes.has(call.name) && str(call.input.file_path)
              ? {
                  file: {
                    path: str(call.input.file_path),
                    kind:
                      structured.type === "create" || /\bcreated\b/i.test(text.split("\n")[0] ?? "")
                        ? ("added" as const)
                        : ("modified" as const),
                  },
                }
              : {}),
          });
        }
      }
      if (r.type === "result") {
        out.completed = true;
        out.finalMessage = str(r.result);
        if (r.is_error === true) out.error = str(r.result) || str(r.subtype) || "the agent reported an error";
        const u = obj(r.usage);
        out.usage = {
          inputTokens:
            Number(u.input_tokens ?? 0) +
            Number(u.cache_read_input_tokens ?? 0) +
            Number(u.cache_creation_input_tokens ?? 0),
          outputTokens: Number(u.output_tokens ?? 0),
          costUsd: Number(r.total_cost_usd ?? 0),
          cumulative: false,
          costCumulative: true,
        };
      }
    }
    return out;
  });
}

/** Claude Code reports a failed command as an error result "Exit code N\n…"; success carries no code. */
function claudeExitCode(text: string, isError: boolean): number | null {
  const code = exitCodeInText(text.split("\n")[0] ?? "");
  return code ?? (isError ? null : 0);
}

export const claudeCode: CliAgentDefinition = {
  name: "claude-code",
  npmPackage: "@anthropic-ai/claude-code",
  version: "2.1.332",
  bin: "claude",
  defaultModel: "claude-sonnet-4-5",
  endpointEnv: { baseUrl: "ANTHROPIC_BASE_URL", apiKey: "ANTHROPIC_API_KEY" },
  basePath: "",
  preassignsSessionId: true,
  prepare({ home, endpoint }) {
    writeConfigFile(home, ".claude/settings.json", `${JSON.stringify({ autoUpdates: false }, null, 2)}\n`);
    return {
      CLAUDE_CONFIG_DIR: `${home}/.claude`,
      IS_SANDBOX: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      ...(endpoint.baseUrl ? { ANTHROPIC_BASE_URL: endpoint.baseUrl } : {}),
      ...(endpoint.apiKey ? { ANTHROPIC_API_KEY: endpoint.apiKey } : {}),
    };
  },
  args: ({ prompt, sessionId, resume, model, extraArgs }) => [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--model",
    model,
    "--permission-mode",
    "bypassPermissions",
    ...(resume ? ["--resume", sessionId!] : sessionId ? ["--session-id", sessionId] : []),
    ...extraArgs,
    // After `--`, a prompt starting with a dash is not taken for an option.
    "--",
    prompt,
  ],
  parser: () => claudeShapedParser(SHELL, WRITES, claudeExitCode),
};
