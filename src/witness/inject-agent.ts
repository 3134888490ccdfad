import { readFileSync } from "node:fs";
import path from "node:path";
import type { CodingAgentAdapter, StepOutcome } from "../agents/coding/adapter.ts";
import { sha256 } from "../core/ids.ts";
import { agentEnvironment } from "../fuzz/agent-env.ts";
import type { PreparedSource } from "../workspace/source.ts";
import { createWorkspace } from "../workspace/workspace.ts";
import { BUG_TYPES } from "./bug-types.ts";
import { enclosingFunction, listFunctions, parses } from "./functions.ts";
import type { BugCandidate, BugTypeId, ContextFunction, Span, TextEdit } from "./types.ts";

/**
 * The `inject` stage by a coding agent, as in WitnessGym (App. C "Buggy Code Injection", where Claude Code
 * injects): the agent gets the bug-type spec, the test's execution context and the replay command, edits one
 * isolated copy of the project, and its change becomes a {@link BugCandidate} when it is a real production
 * change inside one context function that still parses. Running the replay command (clean passes, buggy
 * fails) is the validate stage's job, as for the deterministic engine.
 */

/** Input of {@link injectWithAgent}. */
export interface AgentInjectionInput {
  /** The clean project (copied, never modified). */
  source: PreparedSource;
  type: BugTypeId;
  /** The test's execution context: the production functions it reaches (the only functions it may change). */
  context: readonly ContextFunction[];
  /** Shell command that replays the construction-time witness, e.g. `node --test test/parse.js`. */
  replayCommand: string;
  agent: CodingAgentAdapter;
  /** Time limit of the agent's step, ms. Default 600,000. */
  timeoutMs?: number;
  /** Where workspaces are created. Default the system temp directory. */
  baseDir?: string;
  signal?: AbortSignal;
}

/** What an injection attempt produced. */
export interface AgentInjection {
  /** The candidate, when the change was accepted. */
  candidate?: BugCandidate;
  /** "accepted", or why the change was rejected (no change, outside the context, does not parse, …). */
  reason: string;
  /** The agent's step outcome (status, final message, events, usage). */
  outcome: StepOutcome;
}

/** The injection prompt: the bug type to inject, where (the context functions), and how it will be checked. */
export function injectionPrompt(
  type: BugTypeId,
  context: readonly ContextFunction[],
  replayCommand: string,
): string {
  const spec = BUG_TYPES[type];
  const functions = context.map((f) => `- ${f.file}:${f.line} ${f.name}`).join("\n");
  return [
    `Inject one bug of type "${spec.title}" into this project, for a bug-finding benchmark.`,
    "",
    `Bug type: ${spec.description}`,
    `In JavaScript/TypeScript: ${spec.jsAnalogue}`,
    `A site must have: ${spec.required.join("; ")}.`,
    `Do not use: ${spec.forbidden.join("; ")}.`,
    `Expected effect when triggered: ${spec.runtimeEffect === "runtime_exception" ? "a runtime exception (e.g. a TypeError)" : spec.runtimeEffect === "assertion" ? "a wrong value (an assertion fails)" : "a wrong value or a runtime exception"}. Trigger: ${spec.trigger}`,
    "",
    "Change exactly one of these functions (the ones the test below executes), with a small, realistic edit:",
    functions,
    "",
    `This command must pass on the original code and fail on your change: ${replayCommand}`,
    "Rules: edit one production file only; do not touch tests, build files or configuration; keep the code",
    "syntactically valid; add no comments that reveal the bug; do not commit.",
  ].join("\n");
}

/**
 * Let a coding agent inject a bug of `type` into a copy of the project and turn its change into a candidate.
 * Never throws for agent failures: they are rejections with the agent's outcome attached.
 * @throws SetupError when the workspace cannot be created
 * Source: WitnessGym App. C (injection and its first two checks: a genuine production diff, consistent site).
 */
export async function injectWithAgent(input: AgentInjectionInput): Promise<AgentInjection> {
  const ws = await createWorkspace(input.source, { baseDir: input.baseDir });
  try {
    const session = await input.agent.startSession({ dir: ws.dir, env: agentEnvironment(ws.root, {}) });
    let outcome: StepOutcome;
    try {
      outcome = await session.runStep({
        stepId: "S01",
        prompt: injectionPrompt(input.type, input.context, input.replayCommand),
        timeoutMs: input.timeoutMs ?? 600_000,
        signal: input.signal,
      });
    } finally {
      await session.close();
    }
    if (outcome.status !== "ok")
      return { reason: `agent step ${outcome.status}${outcome.error ? `: ${outcome.error}` : ""}`, outcome };
    const changed = ws.captureStep().sinceBaseline;
    if (changed.length === 0) return { reason: "no change", outcome };
    if (changed.length > 1) return { reason: `changed ${changed.length} files (one expected)`, outcome };
    const delta = changed[0]!;
    if (delta.kind !== "modified")
      return { reason: `${delta.kind} ${delta.path} (a modification expected)`, outcome };
    const clean = ws.readBaseline(delta.path)?.toString("utf8");
    if (clean === undefined) return { reason: `${delta.path} has no baseline`, outcome };
    const buggy = readFileSync(path.join(ws.dir, delta.path), "utf8");
    const judged = diffToCandidate(input.type, delta.path, clean, buggy, input.context);
    return { ...judged, outcome };
  } finally {
    await ws.dispose();
  }
}

/**
 * Turn a changed file into a candidate: one splice (common prefix and suffix removed) that must change more
 * than whitespace, lie inside a context function (the innermost function around it), and parse.
 */
export function diffToCandidate(
  type: BugTypeId,
  file: string,
  clean: string,
  buggy: string,
  context: readonly ContextFunction[],
): { candidate?: BugCandidate; reason: string } {
  if (buggy.replace(/\s+/g, "") === clean.replace(/\s+/g, "")) return { reason: "formatting-only change" };
  if (!context.some((f) => f.file === file))
    return { reason: `${file} holds no function of the test's context` };
  let prefix = 0;
  const max = Math.min(clean.length, buggy.length);
  while (prefix < max && clean[prefix] === buggy[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && clean[clean.length - 1 - suffix] === buggy[buggy.length - 1 - suffix])
    suffix++;
  const span: Span = { start: prefix, end: clean.length - suffix };
  const text = buggy.slice(prefix, buggy.length - suffix);
  if (!parses(file, clean)) return { reason: `${file} is not JavaScript/TypeScript Gauntlet can parse` };
  if (!parses(file, buggy)) return { reason: "the changed file does not parse" };
  const fn = enclosingFunction(listFunctions(file, clean), span.start, span.end);
  const reached = fn && context.find((f) => f.id === fn.id);
  if (!fn || !reached)
    return {
      reason: `the change at ${file}:${lineOf(clean, span.start)} is outside the test's context functions`,
    };
  const edits: TextEdit[] = [{ file, start: span.start, end: span.end, text }];
  const shorten = (s: string) => {
    const one = s.replace(/\s+/g, " ").trim();
    return one.length <= 48 ? one : `${one.slice(0, 47)}…`;
  };
  return {
    reason: "accepted",
    candidate: {
      id: sha256([type, file, JSON.stringify(edits.map((e) => [e.start, e.end, e.text]))].join("\0")).slice(
        0,
        12,
      ),
      type,
      function: { id: fn.id, file, name: fn.name, line: fn.line },
      location: { file, line: lineOf(clean, span.start), span },
      edits,
      site: { start: span.start, end: span.start + text.length },
      summary: `agent edit: \`${shorten(clean.slice(span.start, span.end))}\` → \`${shorten(text)}\``,
    },
  };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
