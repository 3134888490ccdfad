import type { MessageEvent, ToolResultEvent } from "../../core/trajectory.ts";
import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { short } from "./duplicate-step.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { makeFinding, streaming } from "./finding.ts";
import { FileMap, shellSegments, writesOf } from "./paths.ts";
import { termHash } from "./terms.ts";
import { STOP, scanWordSpans } from "./tokens.ts";
import type { CallView } from "./view.ts";

/**
 * Wrapper Workflow (ProcCtrlBench App. A.3): pass-through structure without operational benefit. Three
 * kinds of wrapper:
 *
 * - relayed delegation: a sub-agent call (kind `delegate`) whose report the next assistant message
 *   passes on nearly verbatim — at least {@link RELAY_OVERLAP} of the report's distinctive tokens reappear
 *   and the message is at most {@link RELAY_LENGTH}× the report's length (reports under
 *   {@link MIN_REPORT_CHARS} characters are not judged);
 * - one-command script: a script file written whole (write tool) holding a single command, then run by
 *   exactly one shell call (a script run twice or more is reused, not a pass-through);
 * - bare shell re-wrapping: a shell call whose command is `bash -c "<one plain command>"` (also `sh`,
 *   `zsh`, `dash`), nesting the agent wrote itself; the harness's own `["bash","-lc", …]` argv is already
 *   unwrapped by the view.
 *
 * Raw score: the number of such wrappers (weight 1 each). Evidence: the delegation call, its result and
 * the relaying message; the write call and the run call; the shell call.
 *
 * Exemption (App. A.3: thin wrappers may enforce policy or standardise interfaces), kept in `exempted`
 * with the benefit found: a timeout, `set -e`/`pipefail`/`-e`, environment setup (`export`, `env`,
 * assignments, `source`, a login shell), retries, logging (`tee`, a redirect to a log), or a `cd` first.
 *
 * Complexity: O(n + total text) — one pass over the stream; state: the scripts written (a file map: each
 * with its write call's excerpt, its run count and first run), and the sub-agent reports awaiting the next
 * assistant message (their terms hashed; at most {@link MAX_PENDING}).
 */
export const wrapperWorkflow = streaming("wrapper-workflow", () => {
  const relayed: DefectInstance[] = [];
  const instances: DefectInstance[] = [];
  const exempted: ExemptedInstance[] = [];
  const record = (instance: DefectInstance, reason: string | undefined) => {
    if (reason) exempted.push({ ...instance, reason });
    else instances.push(instance);
  };
  // Delegations whose report awaits the next assistant message (bounded: see MAX_PENDING).
  const pending: Delegation[] = [];
  const scripts = new FileMap<Script>();
  return {
    push(at, e, c) {
      if (e.type === "message" && e.role === "assistant") relay(at, e);
      if (e.type !== "tool_call" || !c) return;
      if (c.kind === "delegate" && c.result) delegation(c, c.result);
      if (c.kind === "shell") {
        const segments = shellSegments(c.commandText);
        const nested = nestedShell(segments);
        if (nested)
          record(
            {
              events: [c.call.id],
              note: `${c.call.id} wraps one plain command in a nested shell: \`${short(c.commandText)}\``,
              weight: 1,
              excerpts: [excerptOf(c.call)],
            },
            nested.reason,
          );
        // Runs matter only for scripts written before.
        for (const words of scripts.size ? segments : []) {
          const target = scriptRun(words);
          const s = target ? scripts.get(target) : undefined;
          if (s && !s.runs++) s.run = { id: c.call.id, excerpt: excerptOf(c.call) };
        }
      }
      if (c.failed) return;
      const written = c.kind === "write" ? scriptContent(c) : undefined;
      if (scripts.size) for (const path of writesOf(c)) scripts.delete(path);
      if (written !== undefined && c.paths[0]) {
        const one = singleCommand(written);
        if (one)
          scripts.set(c.paths[0], {
            write: { id: c.call.id, excerpt: excerptOf(c.call) },
            path: c.paths[0],
            runs: 0,
            ...one,
          });
      }
    },
    finish() {
      for (const { value: s } of scripts.entries()) {
        const run = s.run;
        if (s.runs !== 1 || !run) continue;
        record(
          {
            events: [s.write.id, run.id],
            note: `${s.write.id} wrote ${s.path} holding one command (\`${short(s.command)}\`), run once by ${run.id}`,
            weight: 1,
            excerpts: [s.write.excerpt, run.excerpt],
          },
          s.reason,
        );
      }
      return makeFinding("wrapper-workflow", [...relayed, ...instances], exempted);
    },
  };

  /** A delegation with a report long and distinctive enough to judge: pending until the next assistant message. */
  function delegation(c: CallView, result: ToolResultEvent): void {
    const report = result.output;
    if (report.length < MIN_REPORT_CHARS) return;
    const tokens = termSet(report);
    if (tokens.size < 10) return;
    if (pending.length >= MAX_PENDING) pending.shift();
    pending.push({
      resultAt: c.resultAt,
      events: [c.call.id, result.id],
      excerpts: [excerptOf(c.call), excerptOf(result)],
      length: report.length,
      tokens,
    });
  }

  /** The assistant message at `at` is the next one after every pending report that came back before it. */
  function relay(at: number, next: MessageEvent): void {
    if (!pending.some((d) => d.resultAt < at)) return;
    const due = pending.filter((d) => d.resultAt < at).sort((a, b) => a.resultAt - b.resultAt);
    const kept = pending.filter((d) => d.resultAt >= at);
    pending.length = 0;
    pending.push(...kept);
    let said: Set<number> | undefined;
    for (const d of due) {
      if (next.text.length > RELAY_LENGTH * d.length) continue;
      said ??= termSet(next.text);
      let shared = 0;
      for (const t of d.tokens) if (said.has(t)) shared++;
      const overlap = shared / d.tokens.size;
      if (overlap >= RELAY_OVERLAP)
        relayed.push({
          events: [...d.events, next.id],
          note: `${next.id} relays the report of sub-agent call ${d.events[0]} (${Math.round(overlap * 100)}% of its terms, ${next.text.length} vs ${d.length} characters)`,
          weight: 1,
          excerpts: [...d.excerpts, excerptOf(next)],
        });
    }
  }
});

/** A judged sub-agent report awaiting the next assistant message. */
interface Delegation {
  resultAt: number;
  /** The delegation call and its result. */
  events: string[];
  excerpts: Excerpt[];
  /** The report's length. */
  length: number;
  /** Its distinctive terms, hashed. */
  tokens: Set<number>;
}

/** A script file written whole holding one command, with how often it was run since. */
interface Script {
  write: { id: string; excerpt: Excerpt };
  path: string;
  command: string;
  reason?: string;
  runs: number;
  run?: { id: string; excerpt: Excerpt };
}

/**
 * Reports kept waiting for the next assistant message at most: past this many, the oldest is dropped
 * unjudged (a log would need this many sub-agent reports with no assistant message in between).
 */
const MAX_PENDING = 256;

const STOP_HASHES = new Set([...STOP].map(termHash));

/** The distinctive tokens of a text ({@link distinctiveTokens}, uncapped), hashed. */
function termSet(text: string): Set<number> {
  const out = new Set<number>();
  scanWordSpans(text, (i, j) => {
    const h = termHash(text.slice(i, j));
    if (!STOP_HASHES.has(h)) out.add(h);
    return true;
  });
  return out;
}

/** Share of a sub-agent report's distinctive tokens the next assistant message must repeat to relay it. */
export const RELAY_OVERLAP = 0.8;

/** A relaying message is at most this many times the report's length. */
export const RELAY_LENGTH = 1.5;

/** Reports shorter than this are not judged: passing on a one-liner is no wrapper. */
export const MIN_REPORT_CHARS = 200;

/** The text a write call puts in its file, when the input carries it. */
function scriptContent(c: CallView): string | undefined {
  const o = c.call.input && typeof c.call.input === "object" ? (c.call.input as Record<string, unknown>) : {};
  const content = o.content ?? o.file_text ?? o.contents ?? o.text;
  return typeof content === "string" ? content : undefined;
}

/** What a thin wrapper adds that is an operational benefit (App. A.3), or undefined. */
function benefit(text: string): string | undefined {
  if (/\btimeout\s+-?\S*\d/.test(text)) return "adds a timeout";
  if (/^\s*set\s+-[a-z]*[eu]|\bset\s+-o\s+(errexit|pipefail|nounset)|\$ErrorActionPreference/m.test(text))
    return "enforces fail-fast (set -e / pipefail)";
  if (/\b(retry|retries|until)\b/i.test(text)) return "retries";
  if (/(^|\|)\s*tee\b|>>?\s*\S+\.(log|out|txt)\b|\bStart-Transcript\b/m.test(text)) return "logs its output";
  if (/^\s*(export\s+\w+=|env\s|\w+=\S*(\s|$)|source\s|\.\s+\S)/m.test(text))
    return "sets up the environment";
  if (/^\s*(cd|pushd|Set-Location)\s/im.test(text)) return "changes directory first";
  return undefined;
}

/**
 * A script holding one command: after dropping blank lines, comments and the shebang, and joining `\`
 * continuations, exactly one line that is not a policy line (`set`, `cd`, `export`, assignments,
 * `source`), with no control flow. Returns the command and the benefit the policy lines add, if any.
 */
function singleCommand(content: string): { command: string; reason?: string } | undefined {
  const lines = content
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^(#|\/\/|REM\s|::|@echo\s+off)/i.test(l));
  const policy =
    /^(set\s|cd\s|pushd\s|export\s|source\s|\.\s|\w+=\S*$|\$ErrorActionPreference|Set-Location\s)/i;
  const commands = lines.filter((l) => !policy.test(l));
  const command = commands[0];
  if (commands.length !== 1 || !command || command.length > 300) return undefined;
  if (/^(if|for|while|until|case|function|def|class|try|import|from)\b|[{}]\s*$|<<\s*['"]?\w/.test(command))
    return undefined;
  const reason = benefit(lines.join("\n"));
  return reason ? { command, reason } : { command };
}

/**
 * `bash -c "<one plain command>"` nesting in a command line (its {@link shellSegments}), or undefined. A
 * plain command is one simple command with no pipes, lists or redirections; the wrapper's benefit, if any,
 * is the exemption reason.
 */
function nestedShell(segments: string[][]): { reason?: string } | undefined {
  const at = segments.findIndex((words) => shellIndex(words) >= 0);
  const words = segments[at];
  if (!words) return undefined;
  const i = shellIndex(words);
  const flag = words[i + 1] ?? "";
  const script = words[i + 2] ?? "";
  const inner = shellSegments(script);
  if (inner.length !== 1 || /[<>]|\$\(|`/.test(script) || words.length > i + 3) return undefined;
  const prefix = words.slice(0, i);
  if (prefix.some((w) => !/^(timeout|env|nice|time|sudo|exec|nohup|\w+=.*|-?\d+[smh]?|-\S+)$/.test(w)))
    return undefined; // `xargs sh -c`, `find -exec sh -c`: the shell is needed
  const others = segments.filter((_, k) => k !== at).map((w) => w.join(" "));
  if (others.some((o) => !/^(cd|pushd|export|set|source|tee)\b/.test(o))) return undefined;
  const outer = [prefix.join(" "), ...others].join("\n");
  const reason =
    benefit(outer) ??
    benefit(script) ??
    (/e/.test(flag.replace(/c/, "")) ? "enforces fail-fast (set -e / pipefail)" : undefined) ??
    (/l/.test(flag) ? "sets up the environment (login shell)" : undefined);
  return reason ? { reason } : {};
}

/** Programs that run a script file given as their first operand. */
const INTERPRETER =
  /^(ba|z|da|k)?sh$|^(python[\d.]*|py|node|deno|bun|tsx|ts-node|ruby|perl|php|pwsh|powershell(\.exe)?|source|\.|&)$/i;

/** The script a simple command runs: the program itself when it is a path, or an interpreter's operand. */
function scriptRun(words: string[]): string | undefined {
  const program = words[0] ?? "";
  if (/[/\\]|\.(sh|py|js|mjs|ts|rb|pl|ps1|bat|cmd)$/i.test(program)) return program;
  if (!INTERPRETER.test(program)) return undefined;
  const operand = words.slice(1).find((w) => !w.startsWith("-"));
  return operand && /[./\\]/.test(operand) ? operand : undefined;
}

/** Position of a `sh`-family program followed by a `-c` flag in a simple command, or -1. */
function shellIndex(words: string[]): number {
  for (let i = 0; i + 2 < words.length; i++)
    if (
      /^(\/usr)?(\/bin\/)?(ba|z|da|k)?sh$/.test(words[i] ?? "") &&
      /^-[a-z]*c[a-z]*$/.test(words[i + 1] ?? "")
    )
      return i;
  return -1;
}
