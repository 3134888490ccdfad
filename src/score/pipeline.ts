import { appendFileSync, lstatSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { GauntletError, InputError } from "../core/errors.ts";
import { makeDirectory } from "../core/paths.ts";
import type { TrajectoryEvent } from "../core/trajectory.ts";
import type { CalibrationModel } from "./calibrate/model.ts";
import { compareGroups, type GroupKey } from "./compare.ts";
import { isTrajectoryLabelsFile } from "./eval.ts";
import { detectFormat } from "./import/detect.ts";
import { type ImportedTrajectory, importTrajectories, streamTrajectory } from "./import/index.ts";
import { instanceIdOf, isOutcomeReport, loadOutcomeLabels } from "./import/outcome-labels.ts";
import { renderScoreMarkdown, type ScoreReport } from "./report.ts";
import { renderScoreHtml } from "./report-html.ts";
import { type Scorecard, TrajectoryScorer } from "./scorecard.ts";

/**
 * `gauntlet score` as a library call (ProcCtrlBench §3.1 end to end): collect log files, import each
 * (format auto-detected), detect, calibrate, score, group — one file at a time, so memory holds one
 * trajectory plus the compact scorecards.
 */

/** What scoring one trajectory kept while reading it: the scorer, and what the checks below need. */
interface Reader {
  scorer: TrajectoryScorer;
  events: number;
  /** A tool call or message was mapped. */
  mapped: boolean;
  /** First and last 3 events (to tell copies of one log apart). */
  head: TrajectoryEvent[];
  tail: TrajectoryEvent[];
  push(e: TrajectoryEvent): void;
}

function reader(): Reader {
  const r: Reader = {
    scorer: new TrajectoryScorer(),
    events: 0,
    mapped: false,
    head: [],
    tail: [],
    push(e) {
      r.events++;
      r.mapped ||= e.type === "tool_call" || e.type === "message";
      if (r.head.length < 3) r.head.push(e);
      else {
        r.tail.push(e);
        if (r.tail.length > 3) r.tail.shift();
      }
      r.scorer.push(e);
    },
  };
  return r;
}

/**
 * Import a file and feed its trajectories to scorers: streamed as read for the formats that allow it (a log
 * of any size in flat memory), else imported whole and then fed.
 */
async function readAndDetect(
  file: string,
  format?: string,
): Promise<{ t: ImportedTrajectory; reader: Reader }[]> {
  const one = reader();
  const t = await streamTrajectory(file, format, (e) => one.push(e));
  if (t) return [{ t, reader: one }];
  return (await importTrajectories(file, format)).map((t) => {
    const r = reader();
    for (const e of t.events) r.push(e);
    return { t, reader: r };
  });
}

/** File extensions a directory walk considers. */
const LOG_EXTENSIONS = /\.(jsonl|json|ndjson|traj|eval|log|txt)$/i;
/** Folders a walk never enters. */
const SKIP_DIRS = new Set(["node_modules", ".git"]);

export interface ScoreOptions {
  /** Files or directories (walked recursively). */
  inputs: string[];
  /** Force a format instead of detecting it. */
  format?: string;
  groupBy?: GroupKey;
  eta?: number;
  calibration?: CalibrationModel;
  /** Shown in the report: where the calibration came from. */
  calibrationName?: string;
  /**
   * Outcome label per trajectory id or instance id (e.g. SWE-bench `resolved`), on top of the outcome
   * reports found among the inputs.
   */
  outcomes?: ReadonlyMap<string, boolean>;
  /** Report directory: `score.json`, `score.md`, `score.html`, `scorecards.jsonl`. None when absent. */
  outDir?: string;
  /** Called after each file. */
  onFile?: (e: { file: string; done: number; total: number; trajectories: number; error?: string }) => void;
}

/** Files named by the inputs, plus the directory-walk files no importer recognised (not errors). */
export interface CollectedFiles {
  /** Files to import, in a stable order. */
  files: string[];
  /** Outcome-label files (SWE-bench `report.json`) found by the walk: labels, not trajectories. */
  outcomeReports: string[];
  /** Files found by walking a directory that are not a known log format (listed, not imported). */
  unrecognised: string[];
  /** Hand-label files for `score eval` found by the walk (`labels.jsonl` beside the logs): not logs. */
  labelFiles: string[];
}

/**
 * Expand inputs into log files: a file is taken as given (an unknown format is then an error); a
 * directory is walked recursively for `.jsonl/.json/.ndjson/.traj/.eval/.log/.txt` files, keeping those
 * whose format is recognised (with `format` forced, every file but `.log`/`.txt` ones) and listing the rest
 * as unrecognised. Links to files are followed, links to folders and dangling links are not; a file named
 * twice (or reached twice) is taken once. SWE-bench `report.json` files go to `outcomeReports`.
 * @throws InputError when an input does not exist or is not a regular file or folder
 */
export function collectLogFiles(inputs: readonly string[], format?: string): CollectedFiles {
  const files: string[] = [];
  const unrecognised: string[] = [];
  const outcomeReports: string[] = [];
  const labelFiles: string[] = [];
  const seen = new Set<string>(); // real paths already taken: an input named twice is read once
  const take = (file: string, list: string[]) => {
    const real = realpathSync.native(file);
    if (seen.has(real)) return;
    seen.add(real);
    list.push(file);
  };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = path.join(dir, name);
      let st: ReturnType<typeof statSync>;
      try {
        // Symbolic links to folders are not followed (no loops); links to files are.
        if (lstatSync(p).isSymbolicLink() && statSync(p).isDirectory()) continue;
        st = statSync(p);
      } catch {
        continue; // a dangling or looping link
      }
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name)) walk(p);
      } else if (st.isFile() && LOG_EXTENSIONS.test(name)) {
        if (!format && isOutcomeReport(p)) take(p, outcomeReports);
        else if (!format && isTrajectoryLabelsFile(p)) labelFiles.push(p);
        else if ((format && !/\.(log|txt)$/i.test(name)) || recognised(p)) take(p, files);
        else unrecognised.push(p);
      }
    }
  };
  for (const input of inputs) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(input);
    } catch {
      throw new InputError(
        { file: input },
        "no such file or directory",
        "give agent log files or folders holding them",
      );
    }
    if (st.isDirectory()) walk(input);
    else if (!st.isFile())
      throw new InputError(
        { file: input },
        "is not a regular file (a pipe or a device?)",
        "save the log to a file first",
      );
    else if (!format && isOutcomeReport(input)) take(input, outcomeReports);
    else take(input, files);
  }
  return { files, outcomeReports, unrecognised, labelFiles };
}

function recognised(file: string): boolean {
  return detectedFormat(file) !== undefined;
}

/** The format detection finds, or undefined. */
function detectedFormat(file: string): string | undefined {
  try {
    return detectFormat(file);
  } catch {
    return undefined;
  }
}

/**
 * Score every trajectory the inputs hold and build the report (written to `outDir` when given, each
 * scorecard appended to `scorecards.jsonl` as it completes). A file that cannot be imported is recorded
 * in `failed` and the run goes on.
 * @throws InputError when no input holds a trajectory, or none of the files could be imported
 */
export async function scoreLogs(options: ScoreOptions): Promise<ScoreReport> {
  const { files, outcomeReports, unrecognised, labelFiles } = collectLogFiles(options.inputs, options.format);
  const outcomes = new Map(options.outcomes ?? []);
  if (outcomeReports.length)
    for (const [id, resolved] of await loadOutcomeLabels(outcomeReports)) outcomes.set(id, resolved);
  if (files.length === 0)
    throw new InputError(
      { file: options.inputs.join(", ") },
      unrecognised.length
        ? `none of the ${unrecognised.length} log-like files is a known trajectory format`
        : "no trajectory files found",
      "give Claude Code, Codex, Gemini CLI, OpenHands, SWE-agent, mini-swe-agent, ATIF, Inspect, OpenTelemetry or Gauntlet logs, or force one with --format",
    );
  const groupBy = options.groupBy ?? "agent";
  const cardsFile = options.outDir ? path.join(options.outDir, "scorecards.jsonl") : undefined;
  const scorecards: Scorecard[] = [];
  const failed: ScoreReport["failed"] = [];
  const duplicates: NonNullable<ScoreReport["duplicates"]> = [];
  const scoredFrom = new Map<string, string>(); // trajectory id, format and event count → the file it came from
  for (const [i, file] of files.entries()) {
    try {
      const trajectories = await readAndDetect(file, options.format);
      for (const { t, reader } of trajectories) {
        const first = t.skipped[0];
        if (reader.events === 0 && first) {
          // Nothing readable at all: the wrong format (forced or misdetected), not an empty session.
          failed.push({
            file,
            error: `${file}: no line could be read as ${t.format} (${t.skipped.length} unreadable, e.g. line ${first.line}: ${first.reason})`,
          });
          continue;
        }
        if (options.format && !reader.mapped) {
          // A forced format that parses but maps nothing: say so instead of scoring an empty trajectory.
          const detected = detectedFormat(file);
          if (detected !== options.format) {
            failed.push({
              file,
              error: `${file}: read as ${options.format}, nothing was mapped (${reader.events} events)${detected ? `; it looks like ${detected}: drop --format` : ""}`,
            });
            continue;
          }
        }
        // The same trajectory in two files (a log copied under another name) is scored once.
        // Same id, format, size, models, and the same first and last events (without provenance).
        const ends = [...reader.head, ...reader.tail].map(({ raw: _raw, ...e }) => e);
        const key = `${t.format}\0${t.id}\0${reader.events}\0${t.lines}\0${t.models.join(",")}\0${JSON.stringify(ends)}`;
        const earlier = scoredFrom.get(key);
        if (earlier && earlier !== file) {
          duplicates.push({ file, sameAs: earlier });
          continue;
        }
        scoredFrom.set(key, file);
        const instance = instanceIdOf(t);
        const label = outcomes.get(t.id) ?? (instance ? outcomes.get(instance) : undefined);
        const { card } = reader.scorer.finish(t, {
          ...(options.eta !== undefined ? { eta: options.eta } : {}),
          ...(options.calibration ? { calibration: options.calibration } : {}),
          ...(label !== undefined ? { outcome: label ? "resolved" : "unresolved" } : {}),
        });
        if (cardsFile && scorecards.length === 0) {
          makeDirectory(path.dirname(cardsFile));
          writeFileSync(cardsFile, "");
        }
        scorecards.push(card);
        if (cardsFile) appendFileSync(cardsFile, `${JSON.stringify(card)}\n`);
      }
      options.onFile?.({ file, done: i + 1, total: files.length, trajectories: trajectories.length });
    } catch (error) {
      if (!(error instanceof GauntletError)) throw error;
      failed.push({ file, error: error.message });
      options.onFile?.({ file, done: i + 1, total: files.length, trajectories: 0, error: error.message });
    }
  }
  const first = failed[0];
  if (scorecards.length === 0 && first)
    throw new InputError(
      {},
      failed.length === 1
        ? first.error
        : `none of the ${failed.length} files could be imported; the first: ${first.error}`,
      options.format
        ? `check --format ${options.format} is the files' format, or drop it to detect the format`
        : "check the files are agent logs; name the format with --format if detection is wrong",
    );
  const report: ScoreReport = {
    generatedAt: new Date().toISOString(),
    inputs: options.inputs,
    calibration: options.calibrationName ?? "default priors",
    eta: options.eta ?? scorecards[0]?.eta ?? 0.5,
    groupBy,
    files: files.length,
    failed,
    outcomeReports: outcomeReports.length,
    unrecognised,
    labelFiles,
    ...(duplicates.length ? { duplicates } : {}),
    scorecards,
    groups: compareGroups(scorecards, groupBy),
  };
  if (options.outDir) {
    writeFileSync(path.join(options.outDir, "score.json"), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(path.join(options.outDir, "score.md"), renderScoreMarkdown(report));
    writeFileSync(path.join(options.outDir, "score.html"), renderScoreHtml(report));
  }
  return report;
}
