import { InputError } from "../core/errors.ts";
import { readJsonl } from "../core/jsonl.ts";
import { type PreparedSource, readPackageJson } from "../workspace/source.ts";
import { FuzzCase } from "./case.ts";
import { type AnomalyReport, readReports } from "./inventory.ts";
import type { RepoContext } from "./modes/bindings.ts";

/**
 * The inputs of a fuzz campaign, read and checked: failure-report files, a cases file, and what the
 * repository offers to ground cases in.
 */

/**
 * Read one or more failure-report files.
 * @throws InputError for a malformed line, or a report id that two lines share (naming both places)
 */
export function readReportFiles(files: string | readonly string[]): AnomalyReport[] {
  const seen = new Map<string, string>();
  const out: AnomalyReport[] = [];
  for (const file of typeof files === "string" ? [files] : files) {
    readReports(file).forEach((r, i) => {
      const where = `${file}:${i + 1}`;
      const earlier = seen.get(r.id);
      if (earlier)
        throw new InputError(
          { file, line: i + 1, field: "id" },
          `report id "${r.id}" is also at ${earlier}`,
          "give each report its own id (when adding your reports to the shipped corpus, do not repeat its ids)",
        );
      seen.set(r.id, where);
      out.push(r);
    });
  }
  return out;
}

/** What a repository offers to ground cases in: its spec, test command, files and package entry point. */
export function repoContextOf(spec: string, source: PreparedSource): RepoContext {
  const main = readPackageJson(source.sourceDir)?.main;
  return {
    spec,
    testCommand: source.testCommand,
    files: source.files,
    ...(typeof main === "string" ? { main } : {}),
  };
}

/** Read a cases file. @throws InputError for a malformed line or a case id used twice (naming the line) */
export function readCaseFile(file: string): FuzzCase[] {
  const cases = readJsonl(file, FuzzCase);
  const seen = new Set<string>();
  cases.forEach((c, i) => {
    if (seen.has(c.caseId))
      throw new InputError(
        { file, line: i + 1, field: "caseId" },
        `case id "${c.caseId}" is used by an earlier line too`,
        "give each case its own id",
      );
    seen.add(c.caseId);
  });
  return cases;
}
