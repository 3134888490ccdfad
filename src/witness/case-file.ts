import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { InputError, isErrnoCode } from "../core/errors.ts";
import { WorkspacePath } from "../core/paths.ts";
import { parseWith } from "../core/validate.ts";
import { BUG_TYPE_IDS, OPERATOR_IDS } from "./types.ts";

/**
 * The two records of a packaged witness case (issue 6 §1 package): `case.json`, public (what an agent is told),
 * and `oracle.json`, private (what only the evaluator reads). Both are zod schemas with every field described,
 * so the files are their own contract.
 */

/** Version of both formats; bumped on any incompatible change. */
export const CASE_FORMAT_VERSION = 1;

/** A case id: `wg-` and 12 hex digits of a content hash (see `package.ts`). */
export const CaseId = z
  .string()
  .regex(/^wg-[0-9a-f]{12}$/, "a case id is wg- followed by 12 hex digits")
  .describe(
    "Content-addressed case id: wg- and 12 hex digits of sha256 over the buggy snapshot, bug type and location.",
  );

/** The public case description (`cases/<id>/case.json`): never names the construction witness. */
export const CaseFile = z
  .object({
    id: CaseId,
    formatVersion: z.literal(CASE_FORMAT_VERSION).describe("Format version of this file."),
    project: z
      .object({
        spec: z
          .string()
          .min(1)
          .describe("Project spec the case was built from: a folder or npm:<name>@<version>."),
        name: z.string().describe("Package name."),
        version: z.string().optional().describe("Package version, when known."),
        runner: z
          .string()
          .describe("Test runner the project's tests use (e.g. node:test, mocha, jest, vitest)."),
      })
      .describe("The project under test."),
    bug: z
      .object({
        type: z.enum(BUG_TYPE_IDS).describe("Bug type id (WitnessGym Table 5)."),
        category: z
          .enum(["api-contract", "value-flow", "logic"])
          .describe("Bug category (WitnessGym Table 5)."),
        title: z.string().describe("The bug type's name, e.g. Guard Predicate Inversion."),
        description: z.string().describe("What a bug of this type is, for the report."),
      })
      .describe("What kind of bug was injected (the type, never the edit)."),
    location: z
      .object({
        file: WorkspacePath.describe("Project-relative path of the buggy file."),
        line: z.number().int().positive().describe("1-based line of the bug site in the buggy file."),
        function: z.string().describe("Name of the function holding the bug site in the buggy file."),
      })
      .describe("Where the bug is, in the buggy snapshot (after transformations)."),
    report: z.string().describe("The bug report an agent reads: type, description and location, as text."),
    context: z
      .object({
        functions: z
          .array(
            z.object({
              file: z.string().describe("Project-relative path of the production file."),
              name: z.string().describe("Function name (`<anonymous>` when it has none)."),
              line: z
                .number()
                .int()
                .positive()
                .describe("1-based line of the function in the clean project."),
              calls: z.number().int().positive().describe("How often the test called it (V8 count)."),
            }),
          )
          .describe(
            "Production functions a passing test of the project executed (the WithEC execution context).",
          ),
        ordered: z
          .boolean()
          .describe("True when `functions` is in first-call order, false for file-then-line order."),
        length: z.number().int().nonnegative().describe("Number of distinct functions (= functions.length)."),
        bucket: z
          .enum(["short", "mid-short", "mid-long", "long"])
          .describe("Context-length bucket (WitnessGym §4.1)."),
      })
      .describe(
        "Execution context of the test that exposes the bug (WitnessGym §3.1), without naming that test.",
      ),
    metadata: z
      .object({
        depth: z
          .object({
            requested: z.number().int().nonnegative().describe("Transformations asked for."),
            applied: z.number().int().nonnegative().describe("Transformations actually applied and kept."),
          })
          .describe("Transformation depth (WitnessGym §3.3)."),
        operators: z
          .array(z.enum(OPERATOR_IDS))
          .describe("Applied operators, in order (WitnessGym Table 6)."),
      })
      .describe("How the case was made harder."),
    createdAt: z.iso.datetime().describe("When the case was first packaged (ISO 8601, UTC)."),
  })
  .describe("A bug-witness case: a buggy project snapshot (repo/ beside this file) and its bug report.");
export type CaseFile = z.infer<typeof CaseFile>;

const RunSummaryRecord = z.object({
  attempt: z.number().int().positive().describe("1-based repeat number."),
  outcome: z.string().describe("Test outcome class (see failure.ts)."),
  evidence: z.string().describe("The deciding output line(s)."),
  durationMs: z.number().nonnegative().describe("Wall time of the run, ms."),
});

/** The private oracle of a case (`oracle/<id>/oracle.json`); beside it: clean/, witness/, bug.patch. */
export const OracleFile = z
  .object({
    id: CaseId,
    formatVersion: z.literal(CASE_FORMAT_VERSION).describe("Format version of this file."),
    witness: z
      .object({
        path: WorkspacePath.describe(
          "Project-relative path of the construction witness (copy in witness/<path>).",
        ),
        test: z
          .string()
          .optional()
          .describe("Name of the single test within it, when the context was per test."),
      })
      .describe("The test that exposed the bug at construction time; deleted from the public snapshot."),
    alsoExposing: z
      .array(WorkspacePath)
      .default([])
      .describe("Other project tests that fail on the buggy code; deleted from the public snapshot as well."),
    changedFiles: z
      .array(
        z.object({
          path: WorkspacePath.describe("Project-relative path."),
          kind: z
            .enum(["modified", "added"])
            .describe(
              "modified: the clean original is in clean/<path>; added: the file does not exist in the clean project.",
            ),
        }),
      )
      .describe(
        "Files that differ between the clean project and the buggy snapshot (besides the deleted witness).",
      ),
    candidate: z
      .object({
        id: z.string().describe("Candidate bug id (content hash)."),
        summary: z.string().describe("The edit, in one sentence (reveals the clean code)."),
        file: z.string().describe("File of the injected edit."),
        line: z.number().int().positive().describe("Line of the edit in the clean file."),
        function: z.string().describe("Id of the function holding the edit in the clean project."),
      })
      .describe("The injected bug before transformations."),
    validation: z
      .object({
        accepted: z
          .boolean()
          .describe("Whether the construction witness was accepted (always true for a packaged case)."),
        reason: z.string().describe("The validator's one-sentence verdict."),
        clean: z.array(RunSummaryRecord).describe("Clean-side runs."),
        buggy: z.array(RunSummaryRecord).describe("Buggy-side runs."),
      })
      .describe("Construction-time validation of the witness on the final buggy snapshot."),
    transform: z
      .object({
        requestedDepth: z.number().int().nonnegative().describe("Transformations asked for."),
        steps: z
          .array(
            z.object({
              operator: z.enum(OPERATOR_IDS).describe("Operator tried."),
              applied: z.boolean().describe("Whether it was kept."),
              reason: z.string().optional().describe("Why it was not kept."),
            }),
          )
          .describe("Every transformation tried, in order, applied or reverted."),
        applied: z.array(z.enum(OPERATOR_IDS)).describe("Applied operators, in order."),
      })
      .describe("The transformation chain."),
    leaks: z
      .array(
        z.object({
          kind: z
            .enum(["witness-path", "witness-content", "clean-function"])
            .describe(
              "What was found: the witness's path or file name, its whole text, or the clean text of the buggy function.",
            ),
          file: z.string().describe("Snapshot file it was found in."),
        }),
      )
      .describe(
        "Places in the public snapshot that still reveal the witness or the clean code (empty for a clean case).",
      ),
    createdAt: z.iso.datetime().describe("When the case was first packaged (ISO 8601, UTC)."),
  })
  .describe("The private side of a case: never shown to agents.");
export type OracleFile = z.infer<typeof OracleFile>;

/**
 * Read and validate `<caseDir>/case.json`.
 * @throws InputError naming the file (and the field) when it is missing, not JSON, or does not match {@link CaseFile}
 */
export function readCase(caseDir: string): CaseFile {
  return readJson(
    path.join(caseDir, "case.json"),
    CaseFile,
    "package the case again with `gauntlet witness build`",
  );
}

/**
 * Read and validate `<oracleDir>/oracle.json`.
 * @throws InputError naming the file (and the field) when it is missing, not JSON, or does not match {@link OracleFile}
 */
export function readOracle(oracleDir: string): OracleFile {
  return readJson(
    path.join(oracleDir, "oracle.json"),
    OracleFile,
    "package the case again with `gauntlet witness build`",
  );
}

function readJson<T extends z.ZodType>(file: string, schema: T, hint: string): z.output<T> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) throw new InputError({ file }, "file not found", hint);
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError({ file }, `not valid JSON: ${(error as Error).message}`, hint);
  }
  return parseWith(schema, value, { file }, hint);
}
