import path from "node:path";
import type { FileDelta } from "../workspace/evidence.ts";
import { isTestFile } from "./project.ts";

/**
 * The file audit of one evaluation attempt (issue 6 §1 eval): from the workspace's content-hash evidence
 * (every file added, modified or deleted since the baseline snapshot), split the agent's changes into the
 * witness (test files and helpers under test folders), production edits (which reject the attempt) and
 * harmless tool byproducts. Pure functions over data. WitnessGym's audit only checked `git diff HEAD`, which
 * an agent with `.git` access could game (WitnessGym notes §4 weak points 2 and 9).
 */

const SCRIPT = /\.[cm]?[jt]sx?$/;

/**
 * True for any file a witness may add or change: what the project calls a test file ({@link isTestFile}:
 * anything under `test/`, `tests/` or `__tests__/`, or named `*.test.*` / `*.spec.*`), helpers and fixtures included.
 */
export function isTestAreaPath(relPath: string): boolean {
  return isTestFile(relPath);
}

/** True for a test-area file the runner is given: a JS/TS script (not a fixture such as `test/data.json`). */
export function isRunnableTest(relPath: string): boolean {
  return isTestFile(relPath) && SCRIPT.test(relPath);
}

/** Files that running a project's tools leaves behind; added ones are ignored rather than counted as edits. */
const BYPRODUCTS = [
  /(^|\/)\.eslintcache$/,
  /\.log$/,
  /\.tsbuildinfo$/,
  /(^|\/)\.DS_Store$/,
  /(^|\/)\.(cache|tap|vitest|jest-cache|parcel-cache|turbo)\//,
  /(^|\/)(test-results|junit)(\/|\.xml$)/,
];

/** How the audit sorted an attempt's changes. */
export interface ChangeAudit {
  /** Test-area files added or modified: the witness (given to the validator in full). */
  witnessFiles: string[];
  /** Of those, the runnable test files (given to the runner). */
  testFiles: string[];
  /** Non-test files added, modified or deleted: any of these rejects the attempt. */
  productionEdits: string[];
  /** Test files deleted (allowed: the validator never sees them). */
  deletedTests: string[];
  /** Tool byproducts added (logs, caches), ignored. */
  ignored: string[];
}

/**
 * Sort the changes since the baseline. A change that is neither in the test area nor an added byproduct is a
 * production edit, whatever its kind (a content-hash audit: a file restored to its exact baseline content is
 * no change). Binary or non-regular test-area files are not witness files: they are listed as edits.
 */
export function auditChanges(sinceBaseline: readonly FileDelta[]): ChangeAudit {
  const audit: ChangeAudit = {
    witnessFiles: [],
    testFiles: [],
    productionEdits: [],
    deletedTests: [],
    ignored: [],
  };
  for (const d of [...sinceBaseline].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    if (isTestAreaPath(d.path)) {
      if (d.kind === "deleted") audit.deletedTests.push(d.path);
      else if (d.binary) audit.productionEdits.push(d.path);
      else {
        audit.witnessFiles.push(d.path);
        if (isRunnableTest(d.path)) audit.testFiles.push(d.path);
      }
    } else if (d.kind === "added" && BYPRODUCTS.some((p) => p.test(d.path))) audit.ignored.push(d.path);
    else audit.productionEdits.push(d.path);
  }
  return audit;
}

const FS_READ =
  /\b(readFileSync|readFile|createReadStream|readdirSync|readdir|opendirSync|opendir|globSync)\s*\(/;

/**
 * Why a witness file reads code or Gauntlet data as text instead of exercising behaviour, or undefined.
 * A test asserting on the buggy file's text (e.g. its hash) passes on clean code and fails on buggy code
 * without witnessing any behaviour (WitnessGym notes §4 weak point 7). Heuristic and deliberately narrow:
 * a file-system read API together with the buggy file's name outside an import, or with `oracle`.
 */
export function sourceReadingReason(file: string, text: string, buggyFile: string): string | undefined {
  if (!FS_READ.test(text)) return undefined;
  const stem = path.posix.basename(buggyFile).replace(/\.[^.]+$/, "");
  const name = new RegExp(`(^|[^\\w.-])${escapeRegExp(stem)}\\.[cm]?[jt]sx?\\b`);
  const mentions = text
    .split("\n")
    .filter((line) => !/^\s*import\b|\brequire\s*\(|\bimport\s*\(/.test(line))
    .some((line) => name.test(line));
  if (mentions)
    return `${file} reads ${buggyFile} as text; a witness must exercise the code, not inspect its source`;
  if (/\boracle\b/i.test(text))
    return `${file} reads files mentioning "oracle"; a witness must not look for the benchmark's answers`;
  return undefined;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
