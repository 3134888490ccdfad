import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Command, Option } from "commander";
import { InputError } from "../core/errors.ts";
import { makeDirectory } from "../core/paths.ts";
import { textTable } from "../report/tables.ts";
import { type CalibrationReport, fitCalibration } from "../score/calibrate/fit.ts";
import { readLabels } from "../score/calibrate/labels.ts";
import { type CalibrationModel, parseCalibrationModel } from "../score/calibrate/model.ts";
import type { CalibrationSample } from "../score/calibrate/samples.ts";
import { GROUP_KEYS, type GroupKey } from "../score/compare.ts";
import { detectDefects } from "../score/detect/index.ts";
import { FORMATS } from "../score/import/detect.ts";
import { importTrajectories } from "../score/import/index.ts";
import { scoreLogs } from "../score/pipeline.ts";
import { renderScoreText } from "../score/report.ts";
import { DEFAULT_ETA } from "../score/scorecard.ts";
import { positiveInt } from "./flags.ts";
import { registerScoreEval } from "./score-eval.ts";

/**
 * `gauntlet score …`: process-level scorecards of agent trajectories (ProcCtrlBench), offline, on the logs
 * people already have; `score export --atif` converts any of them to ATIF; `score calibrate --labels`
 * fits the risk calibration from labelled trajectories.
 */

function etaFlag(v: string): number {
  const n = Number(v);
  if (!/^\s*[\d.]+\s*$/.test(v) || !(n >= 0 && n <= 1))
    throw new InputError(
      { field: "--eta" },
      `expected a number from 0 to 1, got "${v}"`,
      "η weighs process quality against control preservation",
    );
  return n;
}

/** Read a calibration file written by `gauntlet score calibrate`. @throws InputError naming the file */
export function readCalibrationFile(file: string): CalibrationModel {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as { code?: string }).code) throw error;
    throw new InputError({ file }, "is not JSON", "give the file `gauntlet score calibrate --out` wrote");
  }
  return parseCalibrationModel(value, { file });
}

/**
 * Labels of a labels file as calibration samples: a label without a score gets the detector's raw score on
 * the trajectory file it names (resolved against the labels file's folder), each file imported once.
 * @throws InputError naming the labels file and line when a trajectory cannot be found or holds several
 */
async function labelledSamples(file: string): Promise<CalibrationSample[]> {
  const labels = await readLabels(file);
  const scores = new Map<string, Map<string, number>>();
  const samples: CalibrationSample[] = [];
  for (const l of labels) {
    let score = l.score;
    if (score === undefined) {
      const key = path.resolve(path.dirname(file), l.trajectory);
      let found = scores.get(key);
      if (!found) {
        found = await scoresOf(key, { file, line: l.line, field: "trajectory" });
        scores.set(key, found);
      }
      score = found.get(l.defect) ?? 0;
    }
    samples.push({ defect: l.defect, score, label: l.label, trajectory: l.trajectory });
  }
  return samples;
}

/**
 * Raw detector scores of the trajectory a label names: a log file, or `<file>#<id>` for one trajectory of a
 * file holding several (the form score tables print).
 * @throws InputError naming the labels file and line when the trajectory cannot be read
 */
async function scoresOf(
  target: string,
  where: { file: string; line: number; field: string },
): Promise<Map<string, number>> {
  const hash = target.lastIndexOf("#");
  const [logFile, id] =
    !existsSync(target) && hash > 0 ? [target.slice(0, hash), target.slice(hash + 1)] : [target, undefined];
  if (!existsSync(logFile) || !statSync(logFile).isFile())
    throw new InputError(
      where,
      `no score given and no trajectory file ${logFile}`,
      "give a score, or a log file path relative to the labels file (file#id for one of several)",
    );
  let trajectories: Awaited<ReturnType<typeof importTrajectories>>;
  try {
    trajectories = await importTrajectories(logFile);
  } catch (error) {
    if (error instanceof InputError) throw new InputError(where, error.message, error.hint);
    throw error;
  }
  const t = id === undefined ? trajectories : trajectories.filter((x) => x.id === id);
  if (t.length !== 1)
    throw new InputError(
      where,
      id === undefined
        ? `${logFile} holds ${trajectories.length} trajectories`
        : `${logFile} holds no trajectory "${id}"`,
      `name one as <file>#<id>; ids: ${trajectories
        .slice(0, 5)
        .map((x) => x.id)
        .join(", ")}`,
    );
  return new Map(detectDefects((t[0] as (typeof t)[number]).events).map((f) => [f.defect, f.score]));
}

function renderCalibrationReport(report: CalibrationReport): string {
  const f = (x: number) => x.toFixed(3);
  type Row = CalibrationReport["overall"];
  const cells = (g: Row) => [
    f(g.calibrated.ece),
    f(g.priors.ece),
    f(g.thresholding.ece),
    f(g.calibrated.brier),
    f(g.priors.brier),
    f(g.thresholding.brier),
  ];
  const rows = [
    [
      "defect",
      "n",
      "positives",
      "method",
      "used",
      "ECE calibrated",
      "ECE priors",
      "ECE thresholding",
      "Brier calibrated",
      "Brier priors",
      "Brier thresholding",
    ],
    ...report.defects.map((d) => [
      d.defect,
      String(d.n),
      String(d.positives),
      d.method,
      d.used ? "yes" : "no: priors",
      ...cells(d),
    ]),
    ...report.categories.map((c) => [
      `(${c.category})`,
      String(c.n),
      String(c.positives),
      "",
      "",
      ...cells(c),
    ]),
    ["(all)", String(report.overall.n), String(report.overall.positives), "", "", ...cells(report.overall)],
  ];
  return `${textTable(rows)}\n\n${report.folds}-fold cross-fitted (seed ${report.seed}): every figure is on samples held out of the fit. ECE over ${report.eceBins} equal-width bins; priors are the uncalibrated defaults; thresholding reads none/warning/error as risk 0/0.5/1. A defect's calibration is used only where its Brier score beats the priors' ("calibrated" then shows the priors for the others).`;
}

export function registerScoreCommands(program: Command): void {
  const score = program
    .command("score")
    .description(
      "score agent trajectories: 11 process defects, control preservation, scorecards per trajectory and group",
    )
    .argument(
      "[paths...]",
      "agent log files or folders (e.g. ~/.claude/projects, a Gauntlet run's results.jsonl)",
    )
    .addOption(
      new Option("--format <format>", "read every file as this format instead of detecting it").choices([
        ...FORMATS,
      ]),
    )
    .addOption(
      new Option("--group-by <key>", "compare groups of trajectories by")
        .choices([...GROUP_KEYS])
        .default("agent"),
    )
    .option(
      "--eta <n>",
      "weight of process quality against control preservation in the summary score",
      etaFlag,
      DEFAULT_ETA,
    )
    .option(
      "--calibration <file>",
      "risk calibration from `gauntlet score calibrate` (default: shipped priors)",
    )
    .option(
      "--out <dir>",
      "write score.json, score.md, score.html and scorecards.jsonl here",
      "gauntlet-report/score",
    )
    .option("--json", "print the JSON report on stdout instead of tables")
    .addOption(
      new Option(
        "--fail-on <band>",
        "exit 1 when any finding reaches this band (otherwise exit 3 when some file was skipped: not an agent log, or unreadable)",
      )
        .choices(["warning", "error", "never"])
        .default("never"),
    )
    .action(async (paths: string[], flags) => {
      if (!paths.length)
        throw new InputError(
          { field: "paths" },
          "no logs given",
          "e.g. gauntlet score ~/.claude/projects  (or a file, or several)",
        );
      const calibration = flags.calibration ? readCalibrationFile(flags.calibration) : undefined;
      const tty = process.stderr.isTTY && !process.env.CI;
      const report = await scoreLogs({
        inputs: paths,
        ...(flags.format ? { format: flags.format } : {}),
        groupBy: flags.groupBy as GroupKey,
        eta: flags.eta,
        ...(calibration ? { calibration, calibrationName: flags.calibration } : {}),
        outDir: flags.out,
        onFile: (e) => {
          const line = `[${e.done}/${e.total}] ${path.basename(e.file)}: ${e.error ? `not imported (${e.error})` : `${e.trajectories} ${e.trajectories === 1 ? "trajectory" : "trajectories"}`}`;
          if (tty) process.stderr.write(`\r\x1b[K${line}${e.done === e.total ? "\n" : ""}`);
          else if (e.error || e.total <= 50 || e.done % 50 === 0 || e.done === e.total)
            process.stderr.write(`${line}\n`);
        },
      });
      const unrecognised = report.unrecognised ?? [];
      const partial = report.scorecards.filter((c) =>
        c.trajectory.skipped.some((x) => /truncated|cut off|not valid JSON/i.test(x.reason)),
      );
      if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        process.stdout.write(`${renderScoreText(report)}\n`);
        if (unrecognised.length)
          process.stdout.write(
            `\n${unrecognised.length} file(s) in the folders are not agent logs and were left out:\n${unrecognised
              .slice(0, 20)
              .map((f) => `  ${f}\n`)
              .join("")}${unrecognised.length > 20 ? `  … and ${unrecognised.length - 20} more\n` : ""}`,
          );
        if (report.duplicates?.length)
          process.stdout.write(
            `\n${report.duplicates.length} file(s) hold a trajectory already scored from another file, scored once: ${report.duplicates
              .slice(0, 5)
              .map((d) => `${d.file} (= ${d.sameAs})`)
              .join(", ")}${report.duplicates.length > 5 ? ", …" : ""}\n`,
          );
        if (report.labelFiles?.length)
          process.stdout.write(
            `\nhand-label files (not logs; measure with gauntlet score eval --labels): ${report.labelFiles.join(", ")}\n`,
          );
        process.stdout.write(`\nreport: ${path.join(flags.out, "score.html")} (also score.md, score.json)\n`);
      }
      const rank = { warning: 1, error: 2, never: 3 } as const;
      const threshold = rank[flags.failOn as keyof typeof rank];
      if (
        report.scorecards.some((c) => c.findings.some((f) => f.band !== "none" && rank[f.band] >= threshold))
      )
        process.exitCode = 1;
      // Files skipped (not a log, or unreadable) are never a silent success.
      else if (unrecognised.length || report.failed.length || partial.length) process.exitCode = 3;
    });

  score
    .command("calibrate")
    .description(
      "fit per-defect risk calibration from labelled trajectories (Platt, isotonic, Beta-binomial; cross-fitted)",
    )
    .requiredOption(
      "--labels <file>",
      "JSONL of labels: {trajectory, defect, label 0|1, score?} or {trajectory, labels: {...}}",
    )
    .option("--folds <n>", "cross-fitting folds", positiveInt("--folds"), 5)
    .option("--seed <n>", "seed of the fold assignment", positiveInt("--seed"), 1)
    .option("-o, --out <file>", "where to write the calibration model", "calibration.json")
    .action(async (flags) => {
      const samples = await labelledSamples(flags.labels);
      let fitted: ReturnType<typeof fitCalibration>;
      try {
        fitted = fitCalibration(samples, { folds: flags.folds, seed: flags.seed });
      } catch (error) {
        if (error instanceof RangeError)
          throw new InputError(
            { file: flags.labels },
            error.message,
            flags.folds < 2
              ? "cross-fitting needs --folds 2 or more"
              : "label more trajectories (at least 2, ideally 30+ labels per defect)",
          );
        throw error;
      }
      writeFileSync(flags.out, `${JSON.stringify(fitted.model, null, 2)}\n`);
      for (const d of fitted.report.defects)
        if (!d.used)
          process.stderr.write(
            `note: ${d.defect}: calibration not used (held-out Brier does not beat the default priors' on ${d.n} labels); it keeps the priors\n`,
          );
        else if (d.calibrated.ece > d.thresholding.ece)
          process.stderr.write(
            `warning: ${d.defect}: calibrated ECE ${d.calibrated.ece.toFixed(3)} is worse than thresholding's ${d.thresholding.ece.toFixed(3)} on ${d.n} labels; more labels are needed before this calibration can be trusted\n`,
          );
      process.stdout.write(
        `${renderCalibrationReport(fitted.report)}\nmodel: ${flags.out} (use it with gauntlet score --calibration ${flags.out})\n`,
      );
    });

  registerScoreEval(score);

  score
    .command("export")
    .description("convert an agent log to another trajectory format")
    .argument("<file>", "agent log (format detected)")
    .requiredOption("--atif", "write ATIF (Harbor's Agent Trajectory Interchange Format)")
    .option(
      "-o, --out <path>",
      "output file (default: stdout); for a log holding several trajectories, a folder that gets one <id>.atif.json each",
    )
    .action(async (file: string, flags) => {
      const { importTrajectories } = await import("../score/import/index.ts");
      const { exportAtif } = await import("../score/import/atif-export.ts");
      // `--format` belongs to `score` (commander gives the parent the option): read it from there.
      const format = (flags.format ?? score.opts().format) as string | undefined;
      const trajectories = await importTrajectories(file, format);
      const skipped = trajectories.reduce((n, t) => n + t.skipped.length, 0);
      if (skipped) {
        const first = trajectories.flatMap((t) => t.skipped)[0];
        process.stderr.write(
          `warning: ${skipped} record(s) of ${file} could not be read and are not in the export, e.g. line ${first?.line}: ${first?.reason}\n`,
        );
      }
      const docs = trajectories.map((t) => exportAtif(t));
      if (docs.length === 1) {
        const text = `${JSON.stringify(docs[0], null, 2)}\n`;
        if (flags.out) writeFileSync(flags.out, text);
        else process.stdout.write(text);
        return;
      }
      if (!flags.out)
        throw new InputError(
          { file },
          `holds ${docs.length} trajectories`,
          "give -o <folder>: each trajectory is written there as its own ATIF file",
        );
      makeDirectory(flags.out);
      trajectories.forEach((t, i) => {
        const name = `${t.id.replace(/[^\w.-]+/g, "_").slice(0, 120)}.atif.json`;
        writeFileSync(path.join(flags.out, name), `${JSON.stringify(docs[i], null, 2)}\n`);
      });
      process.stderr.write(`${docs.length} ATIF files written to ${flags.out}\n`);
    });
}
