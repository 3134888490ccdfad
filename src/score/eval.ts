import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { sha256 } from "../core/ids.ts";
import { readJsonl } from "../core/jsonl.ts";
import type { TrajectoryEvent } from "../core/trajectory.ts";
import { DEFECT_IDS, DEFECTS, type DefectId } from "./defects.ts";
import { classifyTool } from "./detect/tools.ts";
import type { ImportedTrajectory } from "./import/imported.ts";
import { type Scorecard, scoreWithFindings } from "./scorecard.ts";

/**
 * `gauntlet score eval`: the detectors measured against people (ProcCtrlBench App. B.1 annotation protocol).
 * A labels file holds, per trajectory file, a label for each of the 11 defects (present / absent / exempt /
 * n/a) with cited evidence, and exact event counts. Every file is imported and scored; per defect and
 * overall the result gives TP / FP / FN / TN, precision, recall and Cohen's κ at the warning band and at
 * "any counted instance", whether each true positive cites the labelled events, and the imported counts
 * against the labelled ones.
 *
 * Label semantics: `present` is a positive; `absent` and `exempt` are negatives (an exempt pattern is not a
 * defect, App. A); `n/a` (or `not_observable`) is left out. Held-out split: a file is held out when the first
 * byte of sha256(its labelled path) is divisible by 4, fixed before any detector was tuned on the labels.
 */

const Label = z.enum(["present", "absent", "exempt", "n/a", "not_observable"]);

/** Defect by its name (`Dead Step`) or id (`dead-step`), lower-cased. */
const BY_NAME = new Map(
  DEFECT_IDS.flatMap((id) => [
    [DEFECTS[id].name.toLowerCase(), id],
    [id, id],
  ]),
);

const Count = z.number().int().nonnegative().nullable().optional();

export const TrajectoryLabel = z
  .object({
    file: z.string().min(1).describe("Trajectory file, relative to the labels file's folder."),
    format: z.string().optional(),
    defects: z
      .record(
        z.string(),
        z.object({
          label: Label,
          evidence: z.string().default(""),
          confidence: z.string().optional(),
        }),
      )
      .superRefine((defects, ctx) => {
        for (const name of Object.keys(defects))
          if (!BY_NAME.has(name.toLowerCase()))
            ctx.addIssue({
              code: "custom",
              path: [name],
              message: `unknown defect "${name}": use one of ${DEFECT_IDS.map((id) => DEFECTS[id].name).join(", ")} (or their ids, e.g. dead-step)`,
            });
      })
      .describe(
        "Per defect name (`Ghost Context`, …) or id (`ghost-context`): the label and the events it rests on.",
      ),
    counts: z
      .object({
        tool_calls: Count,
        tool_results: Count,
        shell_commands: z
          .union([
            z.number().int().nonnegative(),
            z.object({ count: z.number().int().nonnegative() }).passthrough(),
          ])
          .nullable()
          .optional(),
        file_writes: Count,
        user_interrupts: Count,
      })
      .passthrough()
      .optional(),
  })
  .passthrough()
  .describe("Hand labels of one trajectory file (shared/data/trajectories/LABELS.md).");
export type TrajectoryLabel = z.infer<typeof TrajectoryLabel>;

/** Read a trajectory labels file. @throws InputError naming file, line and field */
export function readTrajectoryLabels(file: string): TrajectoryLabel[] {
  return readJsonl(file, TrajectoryLabel);
}

/**
 * True when `file` is a hand-labels file (its first line is a JSON object with `file` and `defects`): a
 * folder walk lists it as labels rather than as an unrecognised log.
 */
export function isTrajectoryLabelsFile(file: string): boolean {
  if (!file.endsWith(".jsonl")) return false;
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const first = buffer.subarray(0, n).toString("utf8").split("\n")[0] ?? "";
    const v = JSON.parse(first) as Record<string, unknown>;
    return typeof v.file === "string" && typeof v.defects === "object" && v.defects !== null;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** True when a labelled file belongs to the held-out split (see the module doc). */
export function isHeldOutFile(labelledPath: string): boolean {
  return Number.parseInt(sha256(labelledPath).slice(0, 2), 16) % 4 === 0;
}

/** Counts compared with the labels (LABELS.md "counts"). */
export const COUNT_KEYS = [
  "tool_calls",
  "tool_results",
  "shell_commands",
  "file_writes",
  "user_interrupts",
] as const;
export type CountKey = (typeof COUNT_KEYS)[number];

/**
 * Event counts of an imported trajectory, as LABELS.md counts them: tool calls (not OpenHands' `finish`),
 * tool results, shell commands (calls of shell tools — Bash, shell, exec_command, run_shell_command,
 * terminal —, or command events when a format has no shell tool), file writes (file changes that add or
 * modify, derived shell writes included) and user interrupts.
 */
export function countEvents(events: readonly TrajectoryEvent[]): Record<CountKey, number> {
  let calls = 0;
  let results = 0;
  let commands = 0;
  let shellCalls = 0;
  let writes = 0;
  let interrupts = 0;
  for (const e of events) {
    if (e.type === "tool_call") {
      // OpenHands' `finish` is the harness's end-of-run action, not a tool use (LABELS.md leaves it out).
      if (e.name === "finish") continue;
      calls++;
      if (classifyTool(e.name, e.input) === "shell") shellCalls++;
    } else if (e.type === "tool_result") results++;
    else if (e.type === "command") commands++;
    else if (e.type === "file_change" && e.kind !== "deleted") writes++;
    else if (e.type === "control" && e.kind === "interrupt") interrupts++;
  }
  return {
    tool_calls: calls,
    tool_results: results,
    shell_commands: shellCalls || commands,
    file_writes: writes,
    user_interrupts: interrupts,
  };
}

/**
 * Event references cited in a label's evidence: `L<n>` (a JSONL line) and `M<i>` / `S<i>` / `E<i>` (an
 * index in a JSON document's messages, steps or events), with ranges (`M4-M8`, `S5–S7`, `E20->E22`)
 * expanded up to 60 wide. Lines come back as `L<n>`, indexes as `#<i>`.
 */
export function citedRefs(evidence: string): Set<string> {
  const out = new Set<string>();
  const re = /\b([LMSE])(\d{1,6})(?:\s*(?:-|–|->|→|\.\.)\s*\1?(\d{1,6}))?\b/g;
  for (const m of evidence.matchAll(re)) {
    const kind = m[1] === "L" ? "L" : "#";
    const a = Number(m[2]);
    const b = m[3] !== undefined ? Number(m[3]) : a;
    if (b >= a && b - a <= 60) for (let i = a; i <= b; i++) out.add(`${kind}${i}`);
    else out.add(`${kind}${a}`);
  }
  return out;
}

/** The references of an event in its native log (`L<line>`, `#<index>`). */
function refsOf(e: TrajectoryEvent | undefined): string[] {
  const raw = e?.raw;
  if (!raw) return [];
  return [raw.line ? `L${raw.line}` : "", raw.index !== undefined ? `#${raw.index}` : ""].filter(Boolean);
}

/** Confusion counts of a binary detector against labels. */
export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/** Precision, recall and Cohen's κ of a confusion table (null where undefined: no predicted / actual positives). */
export function agreementStats(c: Confusion): {
  precision: number | null;
  recall: number | null;
  kappa: number | null;
} {
  const n = c.tp + c.fp + c.fn + c.tn;
  const po = n ? (c.tp + c.tn) / n : 0;
  const pe = n ? ((c.tp + c.fp) * (c.tp + c.fn) + (c.fn + c.tn) * (c.fp + c.tn)) / (n * n) : 0;
  return {
    precision: c.tp + c.fp ? c.tp / (c.tp + c.fp) : null,
    recall: c.tp + c.fn ? c.tp / (c.tp + c.fn) : null,
    kappa: n && pe < 1 ? (po - pe) / (1 - pe) : null,
  };
}

/** One (file, defect) judgement. */
export interface DefectJudgement {
  defect: DefectId;
  label: "present" | "absent" | "exempt";
  /** The scorecard's band reached warning or error. */
  atWarning: boolean;
  /** At least one counted instance. */
  anyInstance: boolean;
  band: Scorecard["findings"][number]["band"];
  instances: number;
  exempted: number;
  /** For a labelled-present defect the detector found: does some instance cite a labelled event? null when the label cites none. */
  citesLabelled: boolean | null;
  evidence: string;
  /** The events of the strongest instances, as native references. */
  foundRefs: string[];
}

/** Evaluation of one labelled file. */
export interface FileEvaluation {
  file: string;
  split: "dev" | "heldout";
  /** Absent when the file could not be imported. */
  error?: string;
  trajectories: number;
  judgements: DefectJudgement[];
  counts: { key: CountKey; labelled: number; imported: number }[];
}

/** Evaluate one labelled file from its imported trajectories (pure: no I/O). */
export function evaluateFile(
  label: TrajectoryLabel,
  trajectories: readonly ImportedTrajectory[],
): FileEvaluation {
  const split = isHeldOutFile(label.file) ? "heldout" : "dev";
  const events = trajectories.flatMap((t) => t.events);
  const scored = trajectories.map((t) => scoreWithFindings(t));
  const cards = scored.map((x) => x.card);
  const raws = scored.map((x) => x.raw);
  const byId = new Map(events.map((e) => [e.id, e]));
  const judgements: DefectJudgement[] = [];
  for (const [name, l] of Object.entries(label.defects)) {
    const defect = BY_NAME.get(name.toLowerCase());
    if (!defect || l.label === "n/a" || l.label === "not_observable") continue;
    const findings = cards.flatMap((c) => c.findings.filter((f) => f.defect === defect));
    const raw = raws.flatMap((r) => r.filter((f) => f.defect === defect));
    const instances = raw.flatMap((f) => f.instances);
    const rank = { none: 0, warning: 1, error: 2 } as const;
    const band = findings.reduce<DefectJudgement["band"]>(
      (b, f) => (rank[f.band] > rank[b] ? f.band : b),
      "none",
    );
    const cited = citedRefs(l.evidence);
    const found = instances.flatMap((i) => i.events.flatMap((id) => refsOf(byId.get(id))));
    judgements.push({
      defect,
      label: l.label,
      atWarning: band !== "none",
      anyInstance: instances.length > 0,
      band,
      instances: instances.length,
      exempted: raw.reduce((s, f) => s + (f.exemptedCount ?? f.exempted.length), 0),
      citesLabelled:
        l.label === "present" && instances.length > 0 && cited.size > 0
          ? found.some((r) => cited.has(r))
          : null,
      evidence: l.evidence,
      foundRefs: [...new Set(found)].slice(0, 12),
    });
  }
  const imported = countEvents(events);
  const counts: FileEvaluation["counts"] = [];
  for (const key of COUNT_KEYS) {
    const v = label.counts?.[key];
    const labelled = typeof v === "number" ? v : v && typeof v === "object" ? v.count : undefined;
    if (labelled !== undefined && labelled !== null) counts.push({ key, labelled, imported: imported[key] });
  }
  return { file: label.file, split, trajectories: trajectories.length, judgements, counts };
}

/** Per-defect and overall confusion tables at both thresholds, over a set of file evaluations. */
export interface EvalSummary {
  files: number;
  perDefect: {
    defect: DefectId;
    labelled: number;
    warning: Confusion;
    any: Confusion;
    /** True positives (any instance) that cite a labelled event / that could be checked. */
    cited: { yes: number; checked: number };
    /** The same for true positives at the warning band. */
    citedAtWarning: { yes: number; checked: number };
  }[];
  overall: {
    warning: Confusion;
    any: Confusion;
    cited: { yes: number; checked: number };
    citedAtWarning: { yes: number; checked: number };
  };
  counts: { key: CountKey; exact: number; files: number }[];
}

/** Sum file evaluations into per-defect and overall tables. */
export function summarise(evals: readonly FileEvaluation[]): EvalSummary {
  const empty = (): Confusion => ({ tp: 0, fp: 0, fn: 0, tn: 0 });
  const add = (c: Confusion, predicted: boolean, actual: boolean) => {
    if (predicted && actual) c.tp++;
    else if (predicted) c.fp++;
    else if (actual) c.fn++;
    else c.tn++;
  };
  const perDefect = DEFECT_IDS.map((defect) => {
    const row = {
      defect,
      labelled: 0,
      warning: empty(),
      any: empty(),
      cited: { yes: 0, checked: 0 },
      citedAtWarning: { yes: 0, checked: 0 },
    };
    for (const e of evals)
      for (const j of e.judgements.filter((x) => x.defect === defect)) {
        row.labelled++;
        const actual = j.label === "present";
        add(row.warning, j.atWarning, actual);
        add(row.any, j.anyInstance, actual);
        if (j.citesLabelled !== null) {
          row.cited.checked++;
          if (j.citesLabelled) row.cited.yes++;
          if (j.atWarning) {
            row.citedAtWarning.checked++;
            if (j.citesLabelled) row.citedAtWarning.yes++;
          }
        }
      }
    return row;
  });
  const total = (k: "warning" | "any"): Confusion =>
    perDefect.reduce(
      (s, r) => ({ tp: s.tp + r[k].tp, fp: s.fp + r[k].fp, fn: s.fn + r[k].fn, tn: s.tn + r[k].tn }),
      empty(),
    );
  const counts = COUNT_KEYS.map((key) => {
    const rows = evals.flatMap((e) => e.counts.filter((c) => c.key === key));
    return { key, exact: rows.filter((c) => c.labelled === c.imported).length, files: rows.length };
  });
  return {
    files: evals.length,
    perDefect,
    overall: {
      warning: total("warning"),
      any: total("any"),
      cited: sumCited(perDefect.map((r) => r.cited)),
      citedAtWarning: sumCited(perDefect.map((r) => r.citedAtWarning)),
    },
    counts,
  };
}

function sumCited(rows: readonly { yes: number; checked: number }[]): { yes: number; checked: number } {
  return rows.reduce((s, r) => ({ yes: s.yes + r.yes, checked: s.checked + r.checked }), {
    yes: 0,
    checked: 0,
  });
}

/** Where a labelled file lives: relative to the labels file's folder unless `root` is given. */
export function labelledPath(labelsFile: string, label: TrajectoryLabel, root?: string): string {
  return path.resolve(root ?? path.dirname(labelsFile), label.file);
}
