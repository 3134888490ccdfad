import {
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { InputError } from "../core/errors.ts";
import { sha256 } from "../core/ids.ts";
import { isInsidePath, unsafePathReason } from "../core/paths.ts";
import { copyTree } from "../workspace/copy-tree.ts";
import { takeSnapshot } from "../workspace/snapshot.ts";
import { CASE_FORMAT_VERSION, CaseFile, OracleFile } from "./case-file.ts";
import { listFunctions } from "./functions.ts";
import { isTestFile } from "./project.ts";
import type { BugCandidate, BugTypeSpec, ExecutionContext, OperatorId, TransformStep } from "./types.ts";
import type { WitnessValidation } from "./validate.ts";

export { CaseFile, OracleFile, readCase, readOracle } from "./case-file.ts";

/**
 * The `package` stage (issue 6 §1 package; WitnessGym §3.4): turn one accepted bug into a case an agent can be
 * given. Layout under the output folder:
 * - `cases/<id>/case.json` — public: bug type, location, report, execution context, depth ({@link CaseFile});
 * - `cases/<id>/repo/` — the buggy snapshot: the project without VCS data, dependencies or coverage output,
 *   with the buggy files written, the construction witness deleted and every timestamp set to one fixed time;
 * - `oracle/<id>/` — private: `oracle.json` ({@link OracleFile}), `clean/<path>` (originals of the changed
 *   files), `witness/<path>` (the construction witness) and `bug.patch` (clean → buggy).
 *
 * Unlike WitnessGym's evaluation copy (WitnessGym notes §4 weak point 2), nothing in `cases/` holds the clean
 * code or the witness: no `.git`, no patch, no timestamps telling which files were written.
 */

/** Everything the build stage knows about one accepted bug. */
export interface CaseInput {
  project: { spec: string; name: string; version?: string; runner: string };
  /** Pristine project folder; only read. */
  clean: string;
  /** Project-relative path → buggy text (the bug plus any transformations). */
  buggyFiles: Record<string, string>;
  /** Project-relative path of the construction-time witness test file. */
  witness: string;
  /** Other test files that also fail on the buggy code: deleted from the snapshot too, so none gives the answer away. */
  alsoExposing?: readonly string[];
  context: ExecutionContext;
  bugType: BugTypeSpec;
  candidate: BugCandidate;
  /** Where the bug is in the buggy text (after transforms). */
  location: { file: string; line: number; function: string };
  transform: { requestedDepth: number; steps: TransformStep[]; applied: OperatorId[] };
  validation: WitnessValidation;
}

/** What {@link packageCase} produced. */
export interface PackagedCase {
  id: string;
  /** `<out>/cases/<id>`. */
  caseDir: string;
  /** `<out>/oracle/<id>`. */
  oracleDir: string;
  /** True when an identical case was already packaged (nothing was written). */
  reused: boolean;
  /** Places in the snapshot that still reveal the witness or the clean code (see {@link OracleFile}); [] is clean. */
  leaks: OracleFile["leaks"];
}

/** Names never copied into a snapshot, at any depth: VCS data, dependencies, coverage output, our own data. */
export const SNAPSHOT_EXCLUDE: readonly string[] = [
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "coverage",
  ".nyc_output",
  ".gauntlet",
  "gauntlet-report",
];

/** The modification time every snapshot file and folder gets, so no timestamp tells which files were written. */
const FIXED_TIME = new Date("2000-01-01T00:00:00Z");

/**
 * Package one case, atomically (built in a temp folder under `outDir`, then renamed into place) and
 * idempotently: the id is `wg-` + 12 hex digits of sha256 over the sorted (path, type, content sha256) of the
 * snapshot plus the bug type and location, so packaging the same input again returns `reused: true` and
 * writes nothing (a build can be resumed).
 *
 * @throws InputError when a path is unsafe, the witness is missing from the clean project or among the
 *   buggy files, no buggy file differs from the clean one, or `outDir` lies inside the project
 * @throws SetupError when the project cannot be copied
 */
export async function packageCase(outDir: string, input: CaseInput): Promise<PackagedCase> {
  const out = path.resolve(outDir);
  const clean = path.resolve(input.clean);
  checkInput(out, clean, input);
  mkdirSync(path.join(out, "cases"), { recursive: true });
  mkdirSync(path.join(out, "oracle"), { recursive: true });
  const staging = mkdtempSync(path.join(out, ".staging-"));
  try {
    const repo = path.join(staging, "case", "repo");
    mkdirSync(repo, { recursive: true });
    await copyTree(clean, repo, { exclude: SNAPSHOT_EXCLUDE });
    pruneExcluded(repo);

    const changed: OracleFile["changedFiles"] = [];
    const cleanTexts = new Map<string, string>();
    for (const [rel, text] of Object.entries(input.buggyFiles).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const original = readIfFile(path.join(clean, rel));
      if (original === text) continue;
      if (original !== undefined) cleanTexts.set(rel, original);
      changed.push({ path: rel, kind: original === undefined ? "added" : "modified" });
      // Never write through a link the project holds at that path.
      if (lstatSync(path.join(repo, rel), { throwIfNoEntry: false })?.isSymbolicLink())
        rmSync(path.join(repo, rel));
      mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
      writeFileSync(path.join(repo, rel), text);
    }
    if (changed.length === 0)
      throw new InputError(
        { field: "buggyFiles" },
        "no buggy file differs from the clean project",
        "pass the buggy text of the changed files",
      );
    const witnessText = readFileSync(path.join(clean, input.witness), "utf8");
    rmSync(path.join(repo, input.witness), { force: true });
    // Its jest/vitest snapshot file would name it (and hold its expected values).
    rmSync(path.join(repo, snapshotFileOf(input.witness)), { force: true });
    for (const other of input.alsoExposing ?? []) {
      rmSync(path.join(repo, other), { force: true });
      rmSync(path.join(repo, snapshotFileOf(other)), { force: true });
    }
    fixTimes(repo);

    const snapshot = takeSnapshot(repo, { ignore: [] });
    const lines = [...snapshot.files]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([rel, entry]) => `${rel}\t${entry.type}\t${entry.hash}`);
    lines.push(
      `type\t${input.bugType.id}`,
      `location\t${input.location.file}:${input.location.line}:${input.location.function}`,
    );
    const id = `wg-${sha256(lines.join("\n")).slice(0, 12)}`;
    const caseDir = path.join(out, "cases", id);
    const oracleDir = path.join(out, "oracle", id);
    if (existsSync(path.join(caseDir, "case.json")) && existsSync(path.join(oracleDir, "oracle.json"))) {
      return { id, caseDir, oracleDir, reused: true, leaks: readLeaks(oracleDir) };
    }

    const leaks = findLeaks(repo, [...snapshot.files.keys()], input, witnessText);
    const createdAt = new Date().toISOString();
    const caseFile: CaseFile = CaseFile.parse({
      id,
      formatVersion: CASE_FORMAT_VERSION,
      project: input.project,
      bug: {
        type: input.bugType.id,
        category: input.bugType.category,
        title: input.bugType.title,
        description: input.bugType.description,
      },
      location: input.location,
      report: bugReport(input.bugType, input.location),
      context: {
        functions: input.context.functions.map((f) => ({
          file: f.file,
          name: f.name,
          line: f.line,
          calls: f.calls,
        })),
        ordered: input.context.ordered,
        length: input.context.length,
        bucket: input.context.bucket,
      },
      metadata: {
        depth: { requested: input.transform.requestedDepth, applied: input.transform.applied.length },
        operators: input.transform.applied,
      },
      createdAt,
    });
    writeJson(path.join(staging, "case", "case.json"), caseFile);

    const oracle = path.join(staging, "oracle");
    const run = (r: WitnessValidation["clean"][number]) => ({
      attempt: r.attempt,
      outcome: r.outcome,
      evidence: r.evidence,
      durationMs: r.durationMs,
    });
    const oracleFile: OracleFile = OracleFile.parse({
      id,
      formatVersion: CASE_FORMAT_VERSION,
      witness: { path: input.witness, ...(input.context.test.name ? { test: input.context.test.name } : {}) },
      alsoExposing: [...(input.alsoExposing ?? [])],
      changedFiles: changed,
      candidate: {
        id: input.candidate.id,
        summary: input.candidate.summary,
        file: input.candidate.location.file,
        line: input.candidate.location.line,
        function: input.candidate.function.id,
      },
      validation: {
        accepted: input.validation.accepted,
        reason: input.validation.reason,
        clean: input.validation.clean.map(run),
        buggy: input.validation.buggy.map(run),
      },
      transform: input.transform,
      leaks,
      createdAt,
    });
    writeJson(path.join(oracle, "oracle.json"), oracleFile);
    writeUnder(path.join(oracle, "witness"), input.witness, witnessText);
    for (const [rel, text] of cleanTexts) writeUnder(path.join(oracle, "clean"), rel, text);
    const patch = changed
      .map((c) =>
        createTwoFilesPatch(
          `a/${c.path}`,
          `b/${c.path}`,
          cleanTexts.get(c.path) ?? "",
          input.buggyFiles[c.path]!,
        ),
      )
      .join("");
    writeFileSync(path.join(oracle, "bug.patch"), patch);

    // The oracle first: a case folder never exists without its oracle.
    rmSync(oracleDir, { recursive: true, force: true });
    renameSync(oracle, oracleDir);
    rmSync(caseDir, { recursive: true, force: true });
    renameSync(path.join(staging, "case"), caseDir);
    return { id, caseDir, oracleDir, reused: false, leaks };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The bug report an agent reads (both settings): the bug type's name, category and description, and the
 * location. Never the edit itself.
 */
export function bugReport(bugType: BugTypeSpec, location: CaseInput["location"]): string {
  return [
    `Bug type: ${bugType.title} (${bugType.category})`,
    bugType.description,
    `Location: ${location.file}:${location.line}, in function \`${location.function}\``,
  ].join("\n");
}

function checkInput(out: string, clean: string, input: CaseInput): void {
  for (const [field, rel] of [
    ["witness", input.witness],
    ["location.file", input.location.file],
    ...Object.keys(input.buggyFiles).map((p) => ["buggyFiles", p]),
  ] as const) {
    const reason = unsafePathReason(rel);
    if (reason !== undefined) throw new InputError({ field }, reason, "use a project-relative POSIX path");
  }
  if (input.witness in input.buggyFiles)
    throw new InputError(
      { field: "witness" },
      `the witness ${input.witness} is also a buggy file`,
      "the witness must be a test file of the clean project",
    );
  if (readIfFile(path.join(clean, input.witness)) === undefined)
    throw new InputError(
      { field: "witness" },
      `the witness ${input.witness} is not a file of ${clean}`,
      "pass the path of the construction witness in the clean project",
    );
  if (isInsidePath(out, clean)) {
    const top = path.relative(clean, out).split(path.sep)[0] ?? "";
    if (!SNAPSHOT_EXCLUDE.includes(top))
      throw new InputError(
        { field: "outDir" },
        `the output folder ${out} is inside the project ${clean}`,
        "choose an output folder outside the project (or under its .gauntlet/)",
      );
  }
}

/** Remove every excluded name below the top level (`copyTree` excludes top-level names only). */
function pruneExcluded(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (SNAPSHOT_EXCLUDE.includes(entry.name)) rmSync(full, { recursive: true, force: true });
    else if (entry.isDirectory()) pruneExcluded(full);
  }
}

/** Set every file's, link's and folder's access and modification time to {@link FIXED_TIME}. */
function fixTimes(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) fixTimes(full);
    lutimesSync(full, FIXED_TIME, FIXED_TIME);
  }
  lutimesSync(dir, FIXED_TIME, FIXED_TIME);
}

/**
 * Where the snapshot still reveals the witness (its path, file name or whole text) or the clean text of the
 * buggy function (verbatim or JSON-escaped, e.g. in a built copy or a source map's `sourcesContent`).
 */
function findLeaks(
  repo: string,
  files: readonly string[],
  input: CaseInput,
  witnessText: string,
): OracleFile["leaks"] {
  const needles: { kind: OracleFile["leaks"][number]["kind"]; text: string }[] = [
    { kind: "witness-path", text: input.witness },
  ];
  if (witnessText.trim().length > 0) needles.push({ kind: "witness-content", text: witnessText.trim() });
  const fn = cleanFunctionText(input);
  if (fn !== undefined)
    needles.push(
      { kind: "clean-function", text: fn },
      { kind: "clean-function", text: JSON.stringify(fn).slice(1, -1) },
    );
  const leaks: OracleFile["leaks"] = [];
  const witnessName = path.posix.basename(input.witness);
  for (const rel of files) {
    // A copy or backup of the witness in the test area (`bool.js.orig`, `bool.js~`); a production file that
    // shares its name (lib/utils.js beside test/utils.js) or a test merely ending like it (all_bool.js) is not one.
    if (isTestFile(rel) && path.posix.basename(rel).startsWith(witnessName))
      leaks.push({ kind: "witness-path", file: rel });
    const abs = path.join(repo, rel);
    const st = lstatSync(abs);
    if (!st.isFile() || st.size > 4 * 1024 * 1024) continue;
    const text = readFileSync(abs, "utf8");
    for (const kind of new Set(needles.filter((n) => text.includes(n.text)).map((n) => n.kind)))
      leaks.push({ kind, file: rel });
  }
  return leaks;
}

/** Clean text of the innermost function holding the injected edit, or undefined when it cannot be found. */
function cleanFunctionText(input: CaseInput): string | undefined {
  const file = input.candidate.location.file;
  const text = readIfFile(path.join(input.clean, file));
  if (text === undefined) return undefined;
  const { start, end } = input.candidate.location.span;
  try {
    const holding = listFunctions(file, text)
      .filter((f) => f.start <= start && end <= f.end)
      .sort((a, b) => a.end - a.start - (b.end - b.start));
    const f = holding[0];
    return f === undefined ? undefined : text.slice(f.start, f.end);
  } catch {
    return undefined;
  }
}

/** Where jest and vitest keep the snapshots of a test file: `<dir>/__snapshots__/<name>.snap`. */
function snapshotFileOf(test: string): string {
  return path.posix.join(path.posix.dirname(test), "__snapshots__", `${path.posix.basename(test)}.snap`);
}

function readLeaks(oracleDir: string): OracleFile["leaks"] {
  try {
    return (JSON.parse(readFileSync(path.join(oracleDir, "oracle.json"), "utf8")) as OracleFile).leaks ?? [];
  } catch {
    return [];
  }
}

function readIfFile(abs: string): string | undefined {
  const st = lstatSync(abs, { throwIfNoEntry: false });
  return st?.isFile() ? readFileSync(abs, "utf8") : undefined;
}

function writeUnder(root: string, rel: string, text: string): void {
  const target = path.join(root, rel);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
