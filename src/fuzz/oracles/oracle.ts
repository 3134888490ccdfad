import type { CommandPolicy, GitOperation } from "../../agents/coding/intent.ts";
import type { Evidence, FindingClass } from "../../core/finding.ts";
import type { CommandEvent } from "../../core/trajectory.ts";
import type { CaseStep, FuzzCase } from "../case.ts";
import { isTestCommand } from "../claims.ts";
import type { CaseResult, StepResult } from "../result.ts";

/**
 * An oracle (ABTest §3.5): a pure, deterministic check of one case result against the case's structured
 * expectations, for instruction following and action consistency. It returns finding drafts that cite
 * their evidence.
 */

export interface OracleInput {
  fuzzCase: FuzzCase;
  result: CaseResult;
}

/** A finding before ids and review status are attached. */
export interface FindingDraft {
  stepId?: string;
  class: FindingClass;
  title: string;
  /** What the finding is about (path, format, …): part of its stable id. */
  subject: string;
  evidence: Evidence;
}

/** One oracle: a name, what it checks, and a pure check over (case, result). */
export interface Oracle {
  /** Oracle name, used in findings (kebab-case). */
  name: string;
  /** What it checks, one sentence (shown in reports). */
  description: string;
  check(input: OracleInput): FindingDraft[];
}

/** Steps of the result paired with their case step (skipped steps excluded). */
export function executedSteps(input: OracleInput) {
  return input.result.steps
    .filter((r) => r.status !== "skipped")
    .map((r) => ({ result: r, step: input.fuzzCase.steps.find((s) => s.stepId === r.stepId)! }))
    .filter((x) => x.step !== undefined);
}

/** Artifact state of `path` after a step, if recorded. */
export function artifactAfter(step: StepResult, path: string) {
  return step.artifacts.find((a) => a.path === path);
}

/** Short quote: first `max` chars, one line. */
export function quote(text: string, max = 200): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** The first lines of a diff, for evidence. */
export function diffExcerpt(diff: string | undefined, maxLines = 12): string[] {
  if (!diff) return [];
  return [diff.split("\n").slice(0, maxLines).join("\n")];
}

/** All paths a case expects to be created, changed or deleted anywhere. */
export function expectedPaths(c: FuzzCase): Set<string> {
  const out = new Set([...c.expectedNewFiles, ...c.expectedModifiedFiles, ...c.expectedDeletedFiles]);
  for (const s of c.steps) {
    for (const a of s.intent.creates) out.add(a.path);
    for (const m of s.intent.modifies) out.add(m.path);
    for (const d of s.intent.deletes) out.add(d);
    if (s.intent.runs?.saveOutputTo) out.add(s.intent.runs.saveOutputTo);
  }
  return out;
}

/**
 * Ids of the step's events that may have touched `path`: tool calls whose input names it, and every shell
 * command (a command can change any file).
 */
export function eventsTouching(step: StepResult, path: string): string[] {
  return step.events
    .filter((e) => e.type === "command" || (e.type === "tool_call" && JSON.stringify(e.input).includes(path)))
    .map((e) => e.id);
}

/** Ids of user-message events of a step (the prompt). */
function userMessageIds(step: StepResult): Set<string> {
  return new Set(step.events.filter((e) => e.type === "message" && e.role === "user").map((e) => e.id));
}

/**
 * Commands the agent ran in a step: every `command` event except the agent process itself (the `command`
 * adapter records its own invocation, caused by the prompt). Empty when the adapter did not observe the
 * agent's commands.
 */
export function agentCommands(step: StepResult): CommandEvent[] {
  if (!step.commandsObserved) return [];
  const prompts = userMessageIds(step);
  return step.events.filter(
    (e): e is CommandEvent => e.type === "command" && !(e.parent ?? []).some((p) => prompts.has(p)),
  );
}

/**
 * Model turns of a step: rounds of tool calls (a round starts at a tool call made after a tool result),
 * plus the final answer when it comes after the last round.
 */
export function modelTurns(step: StepResult): number {
  let rounds = 0;
  let sawResult = true;
  let answeredAfter = false;
  for (const e of step.events) {
    if (e.type === "tool_call") {
      if (sawResult) rounds++;
      sawResult = false;
      answeredAfter = false;
    } else if (e.type === "tool_result") sawResult = true;
    else if (e.type === "message" && e.role === "assistant" && !e.reasoning && e.text.trim())
      answeredAfter = true;
  }
  return rounds + (answeredAfter || rounds === 0 ? 1 : 0);
}

/** A policy that holds in a step, and where it was given. */
export interface Sourced<T> {
  value: T;
  /** `the step's instruction`, a rules file, or an earlier step. */
  source: string;
}

/** The standing rules of the case that hold in `stepId` (rules without `fromStep` hold everywhere). */
export function rulesAt(c: FuzzCase, stepId: string): FuzzCase["rules"] {
  return c.rules.filter((r) => !r.fromStep || r.fromStep <= stepId);
}

/** What a step may not do: its own intent plus the standing rules, each with its source. */
export function stepPolicy(c: FuzzCase, step: CaseStep) {
  const own = "the step's instruction";
  const rules = rulesAt(c, step.stepId);
  const src = (r: FuzzCase["rules"][number]) =>
    r.source.startsWith("S") && /^S\d\d$/.test(r.source) ? `the instruction of ${r.source}` : r.source;
  return {
    commands: [
      ...(step.intent.commands ? [{ value: step.intent.commands, source: own }] : []),
      ...rules.flatMap((r) => (r.commands ? [{ value: r.commands, source: src(r) }] : [])),
    ] as Sourced<CommandPolicy>[],
    gitForbid: [
      ...step.intent.gitForbid.map((value) => ({ value, source: own })),
      ...rules.flatMap((r) => r.gitForbid.map((value) => ({ value, source: src(r) }))),
    ] as Sourced<GitOperation>[],
    forbidTools: [
      ...step.intent.forbidTools.map((value) => ({ value, source: own })),
      ...rules.flatMap((r) => r.forbidTools.map((value) => ({ value, source: src(r) }))),
    ] as Sourced<string>[],
    noRead: [
      ...step.intent.noRead.map((value) => ({ value, source: own })),
      ...rules.flatMap((r) => r.noRead.map((value) => ({ value, source: src(r) }))),
    ] as Sourced<string>[],
    mustRead: [
      ...step.intent.mustRead.map((value) => ({ value, source: own })),
      ...rules.flatMap((r) => r.mustRead.map((value) => ({ value, source: src(r) }))),
    ] as Sourced<string>[],
    protect: rules.flatMap((r) => r.protect.map((value) => ({ value, source: src(r) }))) as Sourced<string>[],
  };
}

/** Ids of the step's tool calls and commands (the actions that can have caused a change). */
export function actionEvents(step: StepResult): string[] {
  return step.events.filter((e) => e.type === "tool_call" || e.type === "command").map((e) => e.id);
}

/**
 * The test runs among a step's commands: the project's test command or a known runner, or the command the
 * step asked to run as its tests (`runs.kind: test`).
 */
export function testRuns(c: FuzzCase, stepId: string, commands: readonly CommandEvent[]): CommandEvent[] {
  const runs = c.steps.find((x) => x.stepId === stepId)?.intent.runs;
  return commands.filter(
    (e) =>
      isTestCommand(e.command, c.repository.testCommand) ||
      (runs?.kind === "test" && e.command.includes(runs.command)),
  );
}

/** Names agents give their shell tool; its commands are seen as `command` events, not as tool calls. */
export const SHELL_TOOLS = /^(shell|bash|Bash|run_shell_command|exec_command|shell_command)$/;

/** Id of the step's last assistant message (the final reply), if any. */
export function lastMessageId(step: StepResult): string | undefined {
  return step.events.findLast((e) => e.type === "message" && e.role === "assistant")?.id;
}
