import { z } from "zod";
import { InputError, type InputLocation, isErrnoCode } from "../../core/errors.ts";
import { firstIssue } from "../../core/validate.ts";
import { DEFECT_IDS, type DefectId } from "../defects.ts";
import { readJsonLines } from "../import/read-lines.ts";

/**
 * The labels file of `gauntlet score calibrate --labels <file>`: JSONL, one trajectory's annotations per line
 * (ProcCtrlBench B.1: presence / absence per defect, exemptions counted as absent). Two line shapes:
 *
 *   {"trajectory": "<path or id>", "defect": "<defect id>", "label": 0|1, "score"?: <raw score>}
 *   {"trajectory": "<path or id>", "labels": {"<defect id>": 0|1, ...}, "scores"?: {"<defect id>": <raw score>}}
 *
 * This module only parses; the CLI fills a missing score by running the defect's detector on the trajectory.
 */

/** One label: a trajectory, a defect, the annotators' verdict and, if given, the detector's raw score. */
export interface LabelRecord {
  /** Trajectory path or id, as written in the file. */
  trajectory: string;
  defect: DefectId;
  /** 1 defect present, 0 absent. */
  label: 0 | 1;
  /** Raw score (defect's unit, ≥ 0) when the file gives one. */
  score?: number;
  /** 1-based line of the file the label came from, for later error messages. */
  line: number;
}

const SHAPES_HINT =
  'write each line as {"trajectory": "<path or id>", "defect": "<id>", "label": 0|1, "score"?: <number>} or ' +
  '{"trajectory": "<path or id>", "labels": {"<id>": 0|1}, "scores"?: {"<id>": <number>}}';
const IDS_HINT = `use one of the defect ids: ${DEFECT_IDS.join(", ")}`;

const Label = z.union([z.literal(0), z.literal(1)], {
  error: (issue) =>
    issue.input === undefined ? "missing: give 0 or 1" : "must be 0 (no defect) or 1 (defect)",
});
const Score = z.number({ error: "must be a number (the detector's raw score)" }).nonnegative("must be ≥ 0");
const Defect = z.enum(DEFECT_IDS, {
  error: (issue) =>
    issue.input === undefined
      ? "missing: give a defect id"
      : `unknown defect id ${JSON.stringify(issue.input)}`,
});
const Trajectory = z
  .string({ error: "must be the trajectory's path or id (a string)" })
  .min(1, "must not be empty (the trajectory's path or id)");

const PerDefectLine = z.object({
  trajectory: Trajectory,
  defect: Defect,
  label: Label,
  score: Score.optional(),
});
const PerTrajectoryLine = z
  .object({
    trajectory: Trajectory,
    labels: z.record(z.string(), Label, { error: "must be an object of defect id → 0 | 1" }),
    scores: z.record(z.string(), Score, { error: "must be an object of defect id → raw score" }).optional(),
  })
  .superRefine((value, ctx) => {
    if (Object.keys(value.labels).length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["labels"],
        message: "is empty: give at least one defect id → 0 | 1",
      });
    for (const field of ["labels", "scores"] as const)
      for (const key of Object.keys(value[field] ?? {}))
        if (!(DEFECT_IDS as readonly string[]).includes(key))
          ctx.addIssue({
            code: "custom",
            path: [field, key],
            message: `unknown defect id ${JSON.stringify(key)}`,
          });
    for (const key of Object.keys(value.scores ?? {}))
      if (!(key in value.labels))
        ctx.addIssue({
          code: "custom",
          path: ["scores", key],
          message: "has a score but no label in `labels`",
        });
  });

/**
 * Parse one decoded line of a labels file into its labels (one for the first shape, one per defect for the
 * second, in the order written).
 *
 * @param value the line's decoded JSON
 * @param where file and line, for errors
 * @throws InputError naming file:line, the offending field and how to fix it
 */
export function parseLabelLine(value: unknown, where: { file?: string; line: number }): LabelRecord[] {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InputError(where, "not a JSON object", SHAPES_HINT);
  if ("labels" in value && "defect" in value)
    throw new InputError(
      { ...where, field: "defect" },
      "a line has either defect + label or labels, not both",
      SHAPES_HINT,
    );
  if ("labels" in value) {
    const line = check(PerTrajectoryLine, value, where);
    return Object.entries(line.labels).map(([defect, label]) => ({
      trajectory: line.trajectory,
      defect: defect as DefectId,
      label,
      ...(line.scores?.[defect] !== undefined ? { score: line.scores[defect] } : {}),
      line: where.line,
    }));
  }
  const line = check(PerDefectLine, value, where);
  return [
    {
      trajectory: line.trajectory,
      defect: line.defect,
      label: line.label,
      ...(line.score !== undefined ? { score: line.score } : {}),
      line: where.line,
    },
  ];
}

/**
 * Stream the labels of a JSONL labels file, line by line (memory does not grow with the file). Blank lines
 * are skipped. A trajectory may be labelled for a defect only once in the file.
 *
 * @param file path of the labels file, as the user gave it
 * @throws InputError naming the file when it is missing or a directory, and file:line plus the field for a
 *   line that is not JSON, has the wrong shape, an unknown defect id, a label other than 0 | 1, a negative or
 *   non-numeric score, or repeats a (trajectory, defect) pair
 */
export async function* streamLabels(file: string): AsyncGenerator<LabelRecord> {
  const seen = new Map<string, number>();
  try {
    for await (const decoded of readJsonLines(file)) {
      const where = { file, line: decoded.line };
      if ("error" in decoded)
        throw new InputError(where, decoded.error, `${SHAPES_HINT}; fix or delete that line`);
      for (const record of parseLabelLine(decoded.record, where)) {
        const key = JSON.stringify([record.trajectory, record.defect]);
        const earlier = seen.get(key);
        if (earlier !== undefined)
          throw new InputError(
            { ...where, field: "labels" in decoded.record ? `labels.${record.defect}` : "defect" },
            `trajectory ${JSON.stringify(record.trajectory)} is already labelled for ${record.defect} on line ${earlier}`,
            "keep one label per trajectory and defect (adjudicate disagreements before calibrating)",
          );
        seen.set(key, record.line);
        yield record;
      }
    }
  } catch (error) {
    if (isErrnoCode(error, "ENOENT"))
      throw new InputError({ file }, "file not found", "check the --labels path");
    if (isErrnoCode(error, "EISDIR"))
      throw new InputError(
        { file },
        "is a directory, not a JSONL file",
        "give the path of a .jsonl labels file",
      );
    throw error;
  }
}

/**
 * All labels of a labels file, in file order ({@link streamLabels} collected). An empty file gives [].
 * @throws InputError as {@link streamLabels}
 */
export async function readLabels(file: string): Promise<LabelRecord[]> {
  const out: LabelRecord[] = [];
  for await (const record of streamLabels(file)) out.push(record);
  return out;
}

/** Validate with `schema`, throwing an InputError at the first issue with a hint suited to the field. */
function check<T extends z.ZodType>(schema: T, value: unknown, where: InputLocation): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = firstIssue(result.error.issues);
  const field = issue.path.map(String).join(".");
  const unknownId = /unknown defect id/.test(issue.message);
  throw new InputError(
    { ...where, field: field || undefined },
    issue.message,
    unknownId ? IDS_HINT : SHAPES_HINT,
  );
}
