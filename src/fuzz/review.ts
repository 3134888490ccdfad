import { existsSync, readFileSync } from "node:fs";
import { LineCounter, parseDocument, stringify } from "yaml";
import { z } from "zod";
import { InputError } from "../core/errors.ts";
import type { Finding, ReviewStatus } from "../core/finding.ts";

/**
 * Stage `review` (ABTest §4.4): a person confirms or rejects each finding in a YAML review file; precision
 * per agent = confirmed / reported. Decisions are stored as `reviews.jsonl` records (latest wins) and
 * applied to findings when reports are built; the oracles' evidence is never altered.
 */

export const ReviewDecision = z
  .object({
    id: z.string().min(1).describe("Finding id."),
    status: z.enum(["unreviewed", "confirmed", "rejected"]),
    reason: z.string().optional(),
    reviewer: z.string().optional(),
  })
  .describe("A review decision on one finding.");
export type ReviewDecision = z.infer<typeof ReviewDecision>;

const ReviewFileEntry = ReviewDecision.extend({
  agent: z.string().optional(),
  case: z.string().optional(),
  step: z.string().optional(),
  oracle: z.string().optional(),
  class: z.string().optional(),
  title: z.string().optional(),
}).passthrough();

const ReviewFile = z.object({ findings: z.array(ReviewFileEntry) }).passthrough();

/** A YAML review file listing findings for a person to decide (status: confirmed | rejected). */
export function renderReviewFile(runId: string, findings: readonly Finding[]): string {
  const header = [
    `# Gauntlet review file for run ${runId}.`,
    "# For each finding set status to confirmed (a true anomaly) or rejected (a false alarm) and give a reason,",
    `# then run: gauntlet fuzz review --run ${runId} --apply <this file>`,
  ].join("\n");
  const body = stringify({
    findings: findings.map((f) => ({
      id: f.id,
      agent: f.agent,
      case: f.caseId,
      step: f.stepId,
      oracle: f.oracle,
      class: f.class,
      title: f.title,
      status: f.review.status,
      reason: f.review.reason ?? "",
    })),
  });
  return `${header}\n${body}`;
}

/**
 * Parse a review file.
 * @throws InputError naming the file, line and field for bad YAML, a bad status, or an unknown finding id
 */
export function parseReviewFile(
  file: string,
  knownIds: ReadonlySet<string>,
  reviewer = "person",
): ReviewDecision[] {
  if (!existsSync(file))
    throw new InputError(
      { file },
      "review file not found",
      "create one with `gauntlet fuzz review --run <id>`",
    );
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, "utf8"), { lineCounter });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    throw new InputError(
      { file, line: lineCounter.linePos(e.pos[0]).line },
      `invalid YAML: ${e.message.split("\n")[0]!.replace(/:\s*$/, "")}`,
      "fix the YAML syntax",
    );
  }
  const lineOf = (p: (string | number)[]) => {
    const node = doc.getIn(p, true) as { range?: [number, number, number] } | undefined;
    return node?.range ? lineCounter.linePos(node.range[0]).line : undefined;
  };
  const value = doc.toJS();
  if (value === null || value === undefined)
    throw new InputError(
      { file },
      "the review file is empty",
      "create one with `gauntlet fuzz review --run <id>`",
    );
  const parsed = ReviewFile.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const last = issue.path.at(-1);
    throw new InputError(
      { file, line: lineOf(issue.path as (string | number)[]), field: issue.path.join(".") || undefined },
      issue.message,
      last === "status"
        ? "status must be unreviewed, confirmed or rejected"
        : "keep the layout the review file was generated with: findings: [{id, status, reason}]",
    );
  }
  const seen = new Map<string, number>();
  return parsed.data.findings.map((f, i) => {
    if (seen.has(f.id))
      throw new InputError(
        { file, line: lineOf(["findings", i, "id"]), field: `findings.${i}.id` },
        `finding "${f.id}" is listed twice (first as findings.${seen.get(f.id)})`,
        "keep one decision per finding",
      );
    seen.set(f.id, i);
    if (!knownIds.has(f.id))
      throw new InputError(
        { file, line: lineOf(["findings", i, "id"]), field: `findings.${i}.id` },
        `no finding with id "${f.id}" in this run`,
        "keep the ids the review file was generated with",
      );
    return { id: f.id, status: f.status, reason: f.reason || undefined, reviewer: f.reviewer ?? reviewer };
  });
}

/**
 * Findings with the latest decision for each applied (decisions in file order; later wins). An `unreviewed`
 * entry is no decision: it never resets an earlier one.
 */
export function applyReviews(findings: readonly Finding[], decisions: readonly ReviewDecision[]): Finding[] {
  const latest = new Map<string, ReviewDecision>();
  for (const d of decisions) if (d.status !== "unreviewed") latest.set(d.id, d);
  return findings.map((f) => {
    const d = latest.get(f.id);
    return d
      ? { ...f, review: { status: d.status as ReviewStatus, reason: d.reason, reviewer: d.reviewer } }
      : f;
  });
}

/** Precision = confirmed / reported (ABTest §4.4), plus how many were reviewed. */
export function precision(findings: readonly Finding[]): {
  reported: number;
  reviewed: number;
  confirmed: number;
  precision: number | null;
} {
  const reported = findings.length;
  const reviewed = findings.filter((f) => f.review.status !== "unreviewed").length;
  const confirmed = findings.filter((f) => f.review.status === "confirmed").length;
  return { reported, reviewed, confirmed, precision: reported ? confirmed / reported : null };
}
