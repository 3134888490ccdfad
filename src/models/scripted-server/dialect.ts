import path from "node:path";
import type { Conversation, OfferedTool } from "./conversation.ts";
import type { ModelScript, ScriptAction, ScriptStep } from "./script.ts";

/**
 * Turning the script's agent-neutral actions into the tool calls each agent CLI understands
 * (agent-clis.md §8 "Tool argument shapes"). Nothing is hard-wired per CLI: the tool is picked from the
 * names the agent offers, and argument names from that tool's own JSON schema, so a CLI release that
 * renames `file_path` to `filePath` still works.
 */

/** A tool call for the model to make. */
export interface PlannedCall {
  name: string;
  kind: "function" | "custom";
  /** JSON arguments (function tools). */
  args?: Record<string, unknown>;
  /** Free-form input (custom tools such as Codex's `apply_patch`). */
  input?: string;
}

/** What the model answers to one request. */
export type Reply =
  | { kind: "tool"; call: PlannedCall; stepIndex: number; actionIndex: number }
  | { kind: "text"; text: string; stepIndex: number | null };

const TOOL_NAMES = {
  write: ["Write", "write_file", "write", "WriteFile", "create_file"],
  edit: ["Edit", "replace", "edit", "str_replace", "Replace"],
  shell: ["Bash", "run_shell_command", "bash", "exec_command", "shell", "Shell"],
  read: ["Read", "read_file", "read", "ReadFile", "view"],
} as const;

const ARG_NAMES = {
  path: ["file_path", "filePath", "absolute_path", "path", "file", "filename"],
  content: ["content", "contents", "text", "file_text"],
  old: ["old_string", "oldString", "old_str", "old_text"],
  new: ["new_string", "newString", "new_str", "new_text"],
  command: ["command", "cmd"],
} as const;

function findTool(tools: OfferedTool[], names: readonly string[]): OfferedTool | undefined {
  for (const name of names) {
    const tool = tools.find((t) => t.name === name && t.kind === "function");
    if (tool) return tool;
  }
  return undefined;
}

/** Arguments for `tool`: our values under the tool's own names, and a neutral filler for other required ones. */
function argsFor(
  tool: OfferedTool,
  values: Partial<Record<keyof typeof ARG_NAMES, string>>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const props = Object.keys(tool.properties);
  for (const [key, value] of Object.entries(values) as [keyof typeof ARG_NAMES, string][]) {
    const name = ARG_NAMES[key].find((n) => props.includes(n)) ?? ARG_NAMES[key][0];
    args[name] =
      key === "command" && tool.properties[name]?.type === "array" ? ["bash", "-lc", value] : value;
  }
  for (const name of tool.required) {
    if (name in args) continue;
    const type = [tool.properties[name]?.type].flat()[0];
    args[name] =
      type === "boolean"
        ? false
        : type === "number" || type === "integer"
          ? 0
          : type === "array"
            ? []
            : type === "object"
              ? {}
              : "scripted by gauntlet model-server";
  }
  return args;
}

/** The argument of a JSON `apply_patch` tool that takes the patch text (`patchText` in OpenCode, `input` in Codex). */
function patchArgName(tool: OfferedTool): string {
  const props = Object.keys(tool.properties);
  return (
    props.find((p) => /patch/i.test(p)) ?? props.find((p) => p === "input") ?? tool.required[0] ?? "input"
  );
}

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** Codex's `apply_patch` grammar: whole files added, or whole lines replaced. */
function patchText(
  action: { write: { path: string; content: string } } | { edit: { path: string; old: string; new: string } },
): string {
  const lines = (text: string, mark: string) =>
    text
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `${mark}${l}`)
      .join("\n");
  if ("write" in action)
    return `*** Begin Patch\n*** Add File: ${action.write.path}\n${lines(action.write.content, "+")}\n*** End Patch`;
  return `*** Begin Patch\n*** Update File: ${action.edit.path}\n@@\n${lines(action.edit.old, "-")}\n${lines(action.edit.new, "+")}\n*** End Patch`;
}

/**
 * The tool call that carries out `action` with the tools the agent offers.
 * Relative paths are made absolute against the agent's working directory when the request states it
 * (Gemini CLI and OpenCode want absolute paths), except inside patches, which stay relative.
 * @throws Error naming the action when the agent offers no tool that can do it
 */
export function planCall(
  action: ScriptAction,
  tools: OfferedTool[],
  workspace: string | undefined,
): PlannedCall {
  const abs = (p: string) => (workspace && !path.isAbsolute(p) ? path.join(workspace, p) : p);
  if ("call" in action) {
    const offered = tools.find((t) => t.name === action.call.name);
    return { name: action.call.name, kind: offered?.kind ?? "function", args: action.call.args };
  }
  const patch = tools.find((t) => t.name === "apply_patch");
  const shell = findTool(tools, TOOL_NAMES.shell);
  const viaShell = (command: string): PlannedCall => {
    if (!shell) throw new Error(`the agent offers no shell tool to run: ${command}`);
    return { name: shell.name, kind: "function", args: argsFor(shell, { command }) };
  };
  const viaPatch = (a: Parameters<typeof patchText>[0]): PlannedCall =>
    patch!.kind === "custom"
      ? { name: patch!.name, kind: "custom", input: patchText(a) }
      : { name: patch!.name, kind: "function", args: { [patchArgName(patch!)]: patchText(a) } };
  if ("write" in action) {
    const tool = findTool(tools, TOOL_NAMES.write);
    if (tool)
      return {
        name: tool.name,
        kind: "function",
        args: argsFor(tool, { path: abs(action.write.path), content: action.write.content }),
      };
    if (patch) return viaPatch(action);
    return viaShell(`printf %s ${shellQuote(action.write.content)} > ${shellQuote(action.write.path)}`);
  }
  if ("edit" in action) {
    const tool = findTool(tools, TOOL_NAMES.edit);
    if (tool)
      return {
        name: tool.name,
        kind: "function",
        args: argsFor(tool, { path: abs(action.edit.path), old: action.edit.old, new: action.edit.new }),
      };
    if (patch) return viaPatch(action);
    throw new Error(`the agent offers no edit tool for: edit ${action.edit.path}`);
  }
  if ("shell" in action) return viaShell(action.shell);
  const tool = findTool(tools, TOOL_NAMES.read);
  if (tool) return { name: tool.name, kind: "function", args: argsFor(tool, { path: abs(action.read) }) };
  return viaShell(`cat ${shellQuote(action.read)}`);
}

/** The script step for a prompt: the first whose `when` matches, else null. */
export function matchStep(script: ModelScript, prompt: string): { step: ScriptStep; index: number } | null {
  const index = script.steps.findIndex((s) => new RegExp(s.when, "i").test(prompt));
  return index < 0 ? null : { step: script.steps[index]!, index };
}

/**
 * The model's reply to a request: the next scripted tool call of the step matching the latest prompt, or,
 * once each has been made, the step's final answer. Requests offering no tools (titles, summaries) and
 * prompts no step matches get the script's fallback text.
 */
export function planReply(script: ModelScript, conversation: Conversation): Reply {
  const matched = conversation.tools.length > 0 ? matchStep(script, conversation.prompt) : null;
  if (!matched) return { kind: "text", text: script.fallback, stepIndex: null };
  const action = matched.step.do[conversation.callsSincePrompt];
  if (!action) return { kind: "text", text: matched.step.say, stepIndex: matched.index };
  try {
    return {
      kind: "tool",
      call: planCall(action, conversation.tools, conversation.workspace),
      stepIndex: matched.index,
      actionIndex: conversation.callsSincePrompt,
    };
  } catch (error) {
    return {
      kind: "text",
      text: `[gauntlet model-server] cannot script this action: ${(error as Error).message}`,
      stepIndex: matched.index,
    };
  }
}
