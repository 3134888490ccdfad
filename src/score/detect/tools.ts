/**
 * What a tool does, from its name and input, across agents (ProcCtrlBench §3.2 standardisation): Claude
 * Code's `Read`, Gemini CLI's `read_file`, OpenHands' `str_replace_editor view` and SWE-agent's `open` are
 * all reads. Unknown tools are `other`; detectors treat `other` conservatively.
 */

/** Tool families the detectors reason about. */
export type ToolKind =
  | "read"
  | "write"
  | "edit"
  | "search"
  | "list"
  | "shell"
  | "fetch"
  | "plan"
  | "delegate"
  | "ask"
  | "other";

const BY_NAME: [RegExp, ToolKind][] = [
  [
    /^(bash|shell|local_shell|exec_command|run_shell_command|execute_bash|run_command|terminal|cmd|execute_command|shell_command|container\.exec|bash_command|send_keys|keystrokes)$/,
    "shell",
  ],
  [
    /^(read|read_file|readfile|view|view_file|open|open_file|cat|read_many_files|notebookread|fileread|fileeditor_view)$/,
    "read",
  ],
  [/^(write|write_file|create|create_file|writefile|write_to_file)$/, "write"],
  [
    /^(edit|multiedit|multi_edit|replace|apply_patch|edit_file|notebookedit|str_replace|insert|patch|search_replace|fileedit)$/,
    "edit",
  ],
  [
    /^(grep|glob|search|search_file|search_dir|find_file|search_file_content|codebase_search|file_search|ripgrep|rg|find)$/,
    "search",
  ],
  [/^(ls|list|list_dir|list_directory|listdir|list_files|tree)$/, "list"],
  [/^(webfetch|web_fetch|fetch|websearch|web_search|google_web_search|browser|browse)$/, "fetch"],
  [
    /^(todowrite|todo_write|update_plan|write_todos|exitplanmode|enterplanmode|think|plan|task_tracker|todoread|taskcreate|taskupdate|tasklist|taskget|todo)$/,
    "plan",
  ],
  [/^(task|agent|subagent|spawn_agent|delegate|dispatch_agent|run_subagent)$/, "delegate"],
  [/^(askuserquestion|ask_user|ask_followup_question|ask|request_user_input)$/, "ask"],
];

/** Kinds already worked out, by lower-cased tool name (a trajectory uses a handful of tools, many times). */
const byName = new Map<string, ToolKind>();

/**
 * Classify a tool call.
 * @param name tool name as the agent named it (any case)
 * @param input tool arguments; `str_replace_editor`-style tools are split by their `command` argument
 */
export function classifyTool(name: string, input: unknown): ToolKind {
  const n = name.toLowerCase().replace(/^mcp__[^_]+__/, "");
  const o = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  if (/str_replace_editor|str_replace_based_edit_tool|file_editor|^editor$/.test(n)) {
    const cmd = String(o.command ?? "");
    if (cmd === "view") return "read";
    if (cmd === "create") return "write";
    return "edit";
  }
  const known = byName.get(n);
  if (known) return known;
  const kind = BY_NAME.find(([re]) => re.test(n))?.[1] ?? "other";
  if (byName.size < 10_000) byName.set(n, kind);
  return kind;
}

/** Argument names tools use for the file or folder they act on. */
export const PATH_KEYS = [
  "file_path",
  "filePath",
  "path",
  "absolute_path",
  "notebook_path",
  "file",
  "filename",
  "target_file",
  "dir_path",
  "directory",
];

/**
 * Paths a tool call names in its input: the usual path arguments, `paths` arrays, and the files of an
 * `apply_patch` body (`*** Update File: x`). Shell commands are not parsed for paths.
 */
export function inputPaths(name: string, input: unknown): string[] {
  const out: string[] = [];
  if (typeof input === "string") {
    if (/apply_patch|patch/i.test(name)) out.push(...patchPaths(input));
    return out;
  }
  if (!input || typeof input !== "object") return out;
  const o = input as Record<string, unknown>;
  for (const key of PATH_KEYS) if (typeof o[key] === "string" && o[key]) out.push(o[key] as string);
  if (Array.isArray(o.paths)) for (const p of o.paths) if (typeof p === "string") out.push(p);
  for (const key of ["input", "patch", "patchText"])
    if (typeof o[key] === "string") out.push(...patchPaths(o[key] as string));
  return out;
}

function patchPaths(body: string): string[] {
  const out: string[] = [];
  for (const m of body.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm))
    if (m[1]) out.push(m[1].trim());
  return out;
}
