import { existsSync, readdirSync } from "node:fs";
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

/**
 * OpenAI Codex CLI (`@openai/codex`), headless (agent-clis.md §3): `codex exec --json <prompt>`, resumed
 * with `codex exec --json resume <thread_id> <prompt>` (the thread id comes from the first event). The
 * endpoint is a `model_providers` entry in `$CODEX_HOME/config.toml` speaking the Responses API (Codex
 * 0.171 ignores `OPENAI_BASE_URL`); plugins, analytics and update checks are off. Codex runs with
 * `--dangerously-bypass-approvals-and-sandbox`: Gauntlet's own sandbox confines it (Codex's bwrap sandbox
 * cannot start inside ours, nor with CODEX_HOME under the temp dir). Usage is cumulative per thread.
 */

/** A TOML basic string. */
const toml = (s: string) => JSON.stringify(s);

/** Codex's display form of a command, `/bin/bash -lc '<cmd>'`, reduced to `<cmd>`. */
export function unwrapShell(command: string): string {
  const m = /^\S*(?:bash|sh|zsh) -l?c (['"])([\s\S]*)\1$/.exec(command.trim());
  if (!m) return /^\S*(?:bash|sh|zsh) -l?c (\S+)$/.exec(command.trim())?.[1] ?? command;
  return m[1] === "'" ? m[2]!.replaceAll("'\\''", "'") : m[2]!.replace(/\\(["\\$`])/g, "$1");
}

/** A tool call Codex's own guard refused (the `--json` stream omits these; the rollout file has them). */
export interface RejectedCall {
  callId: string;
  name: string;
  input: unknown;
  output: string;
  ts?: number;
}

/** The rollout file of a thread: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread_id>.jsonl`. */
function rolloutFile(codexHome: string, threadId: string): string | undefined {
  const walk = (dir: string, depth: number): string | undefined => {
    if (!existsSync(dir)) return undefined;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      // Dirent types come from lstat: a symlinked directory is not followed.
      if (entry.isDirectory() && depth < 3) {
        const found = walk(p, depth + 1);
        if (found) return found;
      } else if (entry.isFile() && entry.name.endsWith(`-${threadId}.jsonl`)) return p;
    }
    return undefined;
  };
  return walk(path.join(codexHome, "sessions"), 0);
}

/**
 * Tool calls of the thread's latest turn that Codex refused to run (output "… failed: … Rejected(…)", e.g.
 * `rm -f` under its command safety rules). They are real attempts by the agent, so they belong in the
 * trajectory even though the `--json` stream never shows them.
 */
export function codexRejectedCalls(codexHome: string, threadId: string | undefined): RejectedCall[] {
  const file = threadId ? rolloutFile(codexHome, threadId) : undefined;
  if (!file) return [];
  const lines = (readAgentFile(file) ?? "").split("\n").filter(Boolean);
  let turnStart = 0;
  const records = lines.map((l, i) => {
    try {
      const r = JSON.parse(l) as Json;
      if (r.type === "turn_context") turnStart = i;
      return r;
    } catch {
      return {} as Json;
    }
  });
  const calls = new Map<string, { name: string; input: unknown; ts?: number }>();
  const rejected: RejectedCall[] = [];
  for (const r of records.slice(turnStart)) {
    const p = obj(r.payload);
    const ts = Date.parse(str(r.timestamp)) || undefined;
    if (r.type !== "response_item") continue;
    if (p.type === "function_call" || p.type === "custom_tool_call") {
      let input: unknown = p.input ?? p.arguments;
      try {
        if (typeof p.arguments === "string") input = JSON.parse(p.arguments);
      } catch {
        // Kept as the raw string.
      }
      calls.set(str(p.call_id), { name: str(p.name), input, ts });
    }
    if (p.type === "function_call_output" || p.type === "custom_tool_call_output") {
      const output = typeof p.output === "string" ? p.output : JSON.stringify(p.output ?? "");
      const call = calls.get(str(p.call_id));
      if (call && /failed:.*rejected/is.test(output))
        rejected.push({
          callId: str(p.call_id),
          name: call.name,
          input: call.input,
          output,
          ts: ts ?? call.ts,
        });
    }
  }
  return rejected;
}

const KINDS: Record<string, "added" | "modified" | "deleted"> = {
  add: "added",
  update: "modified",
  delete: "deleted",
};

export const codex: CliAgentDefinition = {
  name: "codex",
  npmPackage: "@openai/codex",
  version: "0.171.0",
  bin: "codex",
  defaultModel: "gpt-5.5",
  endpointEnv: { baseUrl: "OPENAI_BASE_URL", apiKey: "OPENAI_API_KEY" },
  basePath: "/v1",
  preassignsSessionId: false,
  prepare({ home, endpoint }) {
    const lines = [
      `model = ${toml(endpoint.model)}`,
      'model_provider = "gauntlet"',
      "check_for_update_on_startup = false",
      "",
      "[model_providers.gauntlet]",
      'name = "Gauntlet endpoint"',
      `base_url = ${toml(endpoint.baseUrl ?? "https://api.openai.com/v1")}`,
      'env_key = "GAUNTLET_CODEX_API_KEY"',
      'wire_api = "responses"',
      "request_max_retries = 1",
      "stream_max_retries = 1",
      "",
      "[analytics]",
      "enabled = false",
      "",
      "[features]",
      "plugins = false",
      "",
    ];
    writeConfigFile(home, ".codex/config.toml", lines.join("\n"));
    return {
      CODEX_HOME: `${home}/.codex`,
      GAUNTLET_CODEX_API_KEY: endpoint.apiKey ?? "",
    };
  },
  args: ({ prompt, sessionId, resume, extraArgs }) => [
    "exec",
    "--json",
    "--skip-git-repo-check",
    "--dangerously-bypass-approvals-and-sandbox",
    ...extraArgs,
    ...(resume ? ["resume", sessionId!] : []),
    "--",
    prompt,
  ],
  parser() {
    return collectingParser((records, trace, context) => {
      const out: ParsedStep = emptyStep(true);
      const errors: string[] = [];
      for (const r of records) {
        if (r.type === "thread.started") out.sessionId = str(r.thread_id);
        if (r.type === "turn.completed") {
          out.completed = true;
          const u = obj(r.usage);
          out.usage = {
            inputTokens: Number(u.input_tokens ?? 0),
            outputTokens: Number(u.output_tokens ?? 0),
            costUsd: 0,
            cumulative: true,
          };
        }
        if (r.type === "turn.failed") errors.push(str(obj(r.error).message) || "the turn failed");
        if (r.type === "item.started") {
          const item = obj(r.item);
          if (item.type === "command_execution")
            trace.call(str(item.id), "command_execution", { command: unwrapShell(str(item.command)) });
        }
        if (r.type !== "item.completed") continue;
        const item = obj(r.item);
        const id = str(item.id);
        switch (item.type) {
          case "agent_message":
            trace.say(str(item.text));
            out.finalMessage = str(item.text);
            break;
          case "command_execution": {
            const command = unwrapShell(str(item.command));
            trace.call(id, "command_execution", { command });
            const exitCode = typeof item.exit_code === "number" ? item.exit_code : null;
            trace.result(id, str(item.aggregated_output), item.status === "failed" || (exitCode ?? 0) !== 0, {
              command: { line: command, exitCode },
            });
            break;
          }
          case "file_change": {
            const changes = arr(item.changes).map(obj);
            trace.call(id, "apply_patch", {
              changes: changes.map((c) => ({ path: trace.relative(str(c.path)), kind: str(c.kind) })),
            });
            trace.result(
              id,
              changes.map((c) => `${str(c.kind)} ${trace.relative(str(c.path))}`).join("\n"),
              item.status === "failed",
            );
            if (item.status !== "failed")
              for (const c of changes) trace.fileChange(str(c.path), KINDS[str(c.kind)] ?? "modified");
            break;
          }
          case "mcp_tool_call":
            trace.call(id, `${str(item.server)}.${str(item.tool)}`, item.arguments);
            trace.result(id, JSON.stringify(item.result ?? item.error ?? ""), item.status === "failed");
            break;
          case "web_search":
            trace.call(id, "web_search", { query: str(item.query) });
            trace.result(id, "", false);
            break;
          case "error":
            // Warnings such as "Model metadata … not found" arrive as error items; they do not end the turn.
            break;
        }
      }
      for (const call of codexRejectedCalls(
        path.join(context.home, ".codex"),
        out.sessionId ?? context.sessionId,
      )) {
        trace.call(call.callId, call.name, call.input, call.ts);
        trace.result(call.callId, call.output, true, { ts: call.ts });
        trace.control(
          "rejection",
          `codex refused to run ${call.name}: ${call.output.slice(0, 300)}`,
          call.ts,
          call.callId,
        );
      }
      if (!out.completed && errors.length) out.error = errors.join("; ");
      return out;
    });
  },
};
