import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { appendJsonl, readJsonlIfExists } from "../core/jsonl.ts";
import { copyTree } from "../workspace/copy-tree.ts";
import { BUG_TYPES } from "./bug-types.ts";
import { candidatePairs, interleaveByType, loadOrCollectContexts } from "./build-plan.ts";
import { type BuildSummary, summarise } from "./build-summary.ts";
import { listFunctions, parses } from "./functions.ts";
import { applyEdits } from "./inject.ts";
import { packageCase } from "./package.ts";
import { openWitnessProject } from "./project.ts";
import { applyTransformChain } from "./transform.ts";
import {
  type BugTypeId,
  type ExecutionContext,
  OPERATOR_IDS,
  type OperatorId,
  type Span,
  type TransformStep,
} from "./types.ts";
import { type RunSummary, runCleanBaseline, validateWitness, type WitnessValidation } from "./validate.ts";

/**
 * The construction pipeline of WitnessGym §3 (Fig. 2), deterministic and offline: contexts → inject →
 * validate → transform (each step re-validated) → package. Every candidate attempted is appended to
 * `attempts.jsonl` as it completes, so an interrupted build resumes where it stopped.
 */

/** Options of {@link buildWitnessCases}. */
export interface BuildOptions {
  /** A local project folder or `npm:<name>[@<version>]`. */
  repo: string;
  /** Output folder: `contexts.json`, `attempts.jsonl`, `cases/`, `oracle/`, `summary.json`. */
  outDir: string;
  /** Bug types to inject. Default: all ten. */
  types?: readonly BugTypeId[];
  /** Transformation depths; one case per accepted bug and depth. Default [1, 3]. */
  depths?: readonly number[];
  /** Accepted bugs wanted per type (then the type stops). Default 2. */
  bugsPerType?: number;
  /** Candidates attempted per type at most. Default 8. */
  maxAttemptsPerType?: number;
  /** Runs per side in validation (flake rejection). Default 3. */
  repeats?: number;
  /** Time limit of one test run, ms. Default 60,000. */
  timeoutMs?: number;
  /** Seed of the candidate order. Default 1. */
  seed?: number;
  cacheDir?: string;
  onProgress?: (event: BuildEvent) => void;
  signal?: AbortSignal;
}

/** Progress of a build. */
export type BuildEvent =
  | { kind: "log"; message: string }
  | { kind: "contexts"; done: number; total: number; test: string }
  | { kind: "candidate"; done: number; total: number; type: BugTypeId; accepted: boolean; reason: string }
  | { kind: "case"; id: string; type: BugTypeId; depth: number; reused: boolean };

/** One attempted candidate, as written to `attempts.jsonl`. */
export const BuildAttempt = z.object({
  candidate: z.string().describe("Candidate id (content-derived)."),
  test: z.string().describe("The construction-time witness (a test file of the project)."),
  bucket: z.string().describe("Context-length bucket of that test."),
  type: z.string(),
  file: z.string(),
  line: z.number(),
  summary: z.string(),
  accepted: z.boolean(),
  reason: z.string().describe("The acceptance predicate's reason."),
  depths: z.array(
    z.object({
      requested: z.number(),
      applied: z.number(),
      caseId: z.string().optional(),
      leak: z.string().optional().describe("Files that would have revealed the bug; the case was withdrawn."),
    }),
  ),
  testRunMs: z.number().describe("Time spent in the project's own test runs for this candidate, ms."),
  wallMs: z.number(),
});
export type BuildAttempt = z.infer<typeof BuildAttempt>;
export type { BuildSummary };

/**
 * Build validated bug-witness cases from a project.
 * @throws SetupError when the project cannot be fetched, has no supported test runner, or no passing test
 * @throws InputError for a bad option (unknown type, depth < 1)
 * Source: WitnessGym §3 (construction), issue 6 §1.
 */
export async function buildWitnessCases(given: BuildOptions): Promise<BuildSummary> {
  const options = { ...given, outDir: path.resolve(given.outDir) };
  const started = Date.now();
  const emit = options.onProgress ?? (() => {});
  const log = (message: string) => emit({ kind: "log", message });
  const depths = [...new Set(options.depths ?? [1, 3])].sort((a, b) => a - b);
  const types = options.types ?? (Object.keys(BUG_TYPES) as BugTypeId[]);
  const repeats = options.repeats ?? 3;
  const timeoutMs = options.timeoutMs ?? 60_000;
  mkdirSync(options.outDir, { recursive: true });

  const project = await openWitnessProject(options.repo, { cacheDir: options.cacheDir, onProgress: log });
  log(
    `${project.name}${project.version ? `@${project.version}` : ""}: ${project.runner}, ${project.testFiles.length} test files, ${project.productionFiles.length} production files`,
  );
  const { contexts, collected, wallMs: contextsMs } = await loadOrCollectContexts(project, options, emit);
  // Test runs of this invocation (contexts loaded from an earlier one cost nothing now).
  // Context runs go two at a time: their summed durations can exceed the stage's wall time, which caps them.
  let testRunMs = collected
    ? Math.min(
        contextsMs,
        contexts.reduce((s, c) => s + c.durationMs, 0),
      )
    : 0;
  let testRuns = collected ? contexts.length : 0;

  const pairs = candidatePairs(project, contexts, types);
  const queue = interleaveByType(pairs, options.seed ?? 1, options.maxAttemptsPerType ?? 8);
  log(`${pairs.length} candidate bugs in test-reached functions; attempting up to ${queue.length}`);

  const attemptsFile = path.join(options.outDir, "attempts.jsonl");
  const previous = readJsonlIfExists(attemptsFile, BuildAttempt);
  const done = new Map(previous.map((a) => [`${a.candidate}:${a.test}`, a]));
  // The per-type quota counts bugs that became cases; an accepted bug no transformation chain could carry
  // to the requested depth leaves room for another candidate.
  const productive = (a: BuildAttempt) => a.depths.some((d) => d.caseId !== undefined);
  const acceptedPerType = new Map<string, number>();
  for (const a of done.values())
    if (productive(a)) acceptedPerType.set(a.type, (acceptedPerType.get(a.type) ?? 0) + 1);
  // An accepted bug of an earlier run lacking a depth asked for now is attempted again (resume with new depths).
  const complete = (a: BuildAttempt) =>
    !a.accepted ||
    depths.every((d) => a.depths.some((x) => x.requested === d)) ||
    a.depths.some((x) => x.caseId === undefined);

  const scratch = mkdtempSync(path.join(os.tmpdir(), "gauntlet-witness-build-"));
  const buggyDir = path.join(scratch, "buggy");
  mkdirSync(buggyDir);
  await copyTree(project.dir, buggyDir, { exclude: ["node_modules", ".git"] });
  const baselines = new Map<string, RunSummary[]>();

  let index = 0;
  try {
    for (const { context, candidate } of queue) {
      index++;
      if (options.signal?.aborted) break;
      const key = `${candidate.id}:${context.test.file}`;
      const earlier = done.get(key);
      if (earlier && complete(earlier)) continue;
      if (earlier && productive(earlier))
        acceptedPerType.set(candidate.type, (acceptedPerType.get(candidate.type) ?? 1) - 1);
      if ((acceptedPerType.get(candidate.type) ?? 0) >= (options.bugsPerType ?? 2)) continue;
      const t0 = Date.now();
      const test = context.test.file;
      const command = project.commandFor([test]);
      const witness = { path: test, content: readFileSync(path.join(project.dir, test), "utf8") };
      const common = { clean: project.dir, witness, command, deps: project.deps, repeats, timeoutMs };
      let baseline = baselines.get(test);
      if (!baseline) {
        baseline = await runCleanBaseline(common);
        baselines.set(test, baseline);
        testRunMs += sum(baseline);
        testRuns += baseline.length;
      }
      const file = candidate.location.file;
      const cleanText = readFileSync(path.join(project.dir, file), "utf8");
      let runMs = 0;
      // Intermediate transformation steps are screened with one run; every packaged state gets all repeats.
      const check = async (text: string, runs = repeats): Promise<WitnessValidation> => {
        writeFileSync(path.join(buggyDir, file), text);
        try {
          const v = await validateWitness({
            ...common,
            repeats: runs,
            buggy: buggyDir,
            knownClean: baseline,
          });
          runMs += sum(v.buggy);
          testRuns += v.buggy.length;
          return v;
        } finally {
          writeFileSync(path.join(buggyDir, file), cleanText);
        }
      };
      // The other tests that reach the mutated function and fail on the buggy code: left in the case, an agent
      // could hand one in as its own witness.
      const otherExposingTests = async (text: string): Promise<string[]> => {
        const others = contexts.filter(
          (c) => c.test.file !== test && c.functions.some((f) => f.id === candidate.function.id),
        );
        const exposing: string[] = [];
        writeFileSync(path.join(buggyDir, file), text);
        try {
          for (const other of others) {
            const content = readFileSync(path.join(project.dir, other.test.file), "utf8");
            const [run] = await runCleanBaseline({
              clean: buggyDir,
              witness: { path: other.test.file, content },
              command: project.commandFor([other.test.file]),
              deps: project.deps,
              repeats: 1,
              timeoutMs,
            });
            testRuns++;
            runMs += run?.durationMs ?? 0;
            if (run?.outcome !== "pass") exposing.push(other.test.file);
          }
        } finally {
          writeFileSync(path.join(buggyDir, file), cleanText);
        }
        return exposing;
      };
      const buggyText = applyEdits(cleanText, candidate.edits);
      // A test that does not pass on clean code every time cannot witness anything (the predicate's first rule).
      const cleanFailure = baseline.find((r) => r.outcome !== "pass");
      const verdict: Pick<WitnessValidation, "accepted" | "reason"> = cleanFailure
        ? {
            accepted: false,
            reason: `fails on clean code too (${cleanFailure.outcome}, clean run ${cleanFailure.attempt})`,
          }
        : await check(buggyText);
      const record: BuildAttempt = {
        candidate: candidate.id,
        test,
        bucket: context.bucket,
        type: candidate.type,
        file,
        line: candidate.location.line,
        summary: candidate.summary,
        accepted: verdict.accepted,
        reason: verdict.reason,
        depths: [],
        testRunMs: 0,
        wallMs: 0,
      };
      if (verdict.accepted) {
        let state = {
          text: buggyText,
          site: candidate.site,
          steps: [] as TransformStep[],
          applied: [] as OperatorId[],
        };
        for (const depth of depths) {
          const more = depth - state.applied.length;
          if (more > 0) {
            const chain = await applyTransformChain({
              file,
              text: state.text,
              site: state.site,
              depth: more,
              salt: candidate.id,
              // Rare Input Path Conditioning keeps the clean text on the common path; later depths carry on
              // with the operators not applied yet, so each is used once before any repeats.
              clean: cleanText.slice(candidate.location.span.start, candidate.location.span.end),
              order: [...OPERATOR_IDS.filter((o) => !state.applied.includes(o)), ...state.applied],
              check: async (text: string, _site: Span) => {
                if (!parses(file, text)) return { ok: false, reason: "does not parse" };
                const v = await check(text, 1);
                return { ok: v.accepted, reason: v.reason };
              },
            });
            state = {
              text: chain.text,
              site: chain.site,
              steps: [...state.steps, ...chain.steps],
              applied: [...state.applied, ...chain.applied],
            };
          }
          if (state.applied.length < depth) {
            record.depths.push({ requested: depth, applied: state.applied.length });
            log(
              `${candidate.type} ${file}:${candidate.location.line}: only ${state.applied.length} of ${depth} transformations applied; no depth-${depth} case`,
            );
            break;
          }
          const finalCheck = await check(state.text);
          if (!finalCheck.accepted) {
            record.depths.push({ requested: depth, applied: state.applied.length });
            break;
          }
          const alsoExposing = await otherExposingTests(state.text);
          const packaged = await packageCase(options.outDir, {
            project: {
              spec: project.spec,
              name: project.name,
              version: project.version,
              runner: project.runner,
            },
            clean: project.dir,
            buggyFiles: { [file]: state.text },
            witness: test,
            alsoExposing,
            context: relocate(context, file, state.text),
            bugType: BUG_TYPES[candidate.type],
            candidate,
            location: {
              file,
              line: lineAt(state.text, state.site.start),
              function: functionAt(file, state.text, state.site),
            },
            transform: { requestedDepth: depth, steps: state.steps, applied: state.applied },
            validation: finalCheck,
          });
          if (packaged.leaks.length > 0) {
            // A case whose snapshot still reveals the clean code or the witness is not a case: withdraw it.
            rmSync(packaged.caseDir, { recursive: true, force: true });
            rmSync(packaged.oracleDir, { recursive: true, force: true });
            const where = packaged.leaks.map((l) => `${l.file} (${l.kind})`).join(", ");
            record.depths.push({ requested: depth, applied: state.applied.length, leak: where });
            log(
              `${candidate.type} ${file}:${candidate.location.line}: depth ${depth} not packaged: ${where} would reveal it`,
            );
            break;
          }
          record.depths.push({ requested: depth, applied: state.applied.length, caseId: packaged.id });
          emit({ kind: "case", id: packaged.id, type: candidate.type, depth, reused: packaged.reused });
        }
      }
      record.testRunMs = runMs;
      record.wallMs = Date.now() - t0;
      testRunMs += runMs;
      appendJsonl(attemptsFile, record);
      done.set(key, record);
      if (productive(record))
        acceptedPerType.set(candidate.type, (acceptedPerType.get(candidate.type) ?? 0) + 1);
      emit({
        kind: "candidate",
        done: index,
        total: queue.length,
        type: candidate.type,
        accepted: verdict.accepted,
        reason: verdict.reason,
      });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const summary = summarise(
    project,
    contexts.length,
    pairs.length,
    [...done.values()],
    Date.now() - started,
    testRunMs,
    testRuns,
  );
  // A requested type with no site in test-reached code still gets its (empty) row.
  for (const t of types) summary.byType[t] ??= { attempted: 0, accepted: 0, cases: 0 };
  writeFileSync(path.join(options.outDir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

function sum(runs: readonly RunSummary[]): number {
  return runs.reduce((s, r) => s + r.durationMs, 0);
}

/**
 * The context with the lines of `file`'s functions moved to where they are in the buggy text (transformations
 * shift them): each function keeps its name and goes to the nearest same-named function of the buggy file.
 */
function relocate(context: ExecutionContext, file: string, text: string): ExecutionContext {
  const buggy = listFunctions(file, text);
  const functions = context.functions.map((f) => {
    if (f.file !== file) return f;
    const same = buggy.filter((b) => b.name === f.name);
    if (same.length === 0) return f;
    const nearest = same.reduce((a, b) => (Math.abs(b.line - f.line) < Math.abs(a.line - f.line) ? b : a));
    return { ...f, line: nearest.line };
  });
  return { ...context, functions };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function functionAt(file: string, text: string, site: Span): string {
  const fns = listFunctions(file, text).filter((f) => f.start <= site.start && site.end <= f.end);
  fns.sort((a, b) => a.end - a.start - (b.end - b.start));
  return fns[0]?.name ?? "<top level>";
}
