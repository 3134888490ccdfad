import type { Evidence, FindingClass } from "../../core/finding.ts";
import type { FuzzCase } from "../case.ts";
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
