import { rmSync } from "node:fs";
import path from "node:path";
import pc from "picocolors";
import { textTable } from "../report/tables.ts";
import { buildWitnessCases } from "../witness/build.ts";
import { controlAgent } from "../witness/control-agents.ts";
import { type EvalSummary, runWitnessEval } from "../witness/eval.ts";
import type { BugTypeId } from "../witness/types.ts";
import { DEMO_REPO } from "./demo.ts";

/**
 * The witness part of `gauntlet demo` (issue 6 §2): a small build on minimist (three bug types, depth 1,
 * offline, no model), then an evaluation of two scripted controls — one that replays the construction-time
 * witness (must succeed on every case) and one that writes a test failing everywhere (must succeed on none).
 * Writes `<out>/witness/`; returns what went wrong.
 */

/** Bug types of the demo build (one of each category). */
export const DEMO_WITNESS_TYPES: readonly BugTypeId[] = [
  "guard-predicate-inversion",
  "intra-function-null-deref",
  "identical-comparison",
];

/** Run the witness demo into `<out>/witness/`; returns the failed self-checks. */
export async function witnessDemo(out: string, log: (line: string) => void): Promise<string[]> {
  const dir = path.resolve(out, "witness");
  rmSync(dir, { recursive: true, force: true });
  const build = await buildWitnessCases({
    repo: DEMO_REPO,
    outDir: dir,
    types: DEMO_WITNESS_TYPES,
    depths: [1],
    bugsPerType: 1,
    maxAttemptsPerType: 4,
    repeats: 2,
    onProgress: (e) => {
      if (e.kind === "log") log(e.message);
    },
  });
  const evals: EvalSummary[] = [];
  for (const name of ["replay", "always-fail"]) {
    evals.push(
      await runWitnessEval({
        buildDir: dir,
        outDir: path.join(dir, "eval", `control_${name}`),
        agent: controlAgent(name, dir),
        settings: ["NoEC"],
        attempts: 1,
        repeats: 2,
      }),
    );
  }
  const o = process.stdout;
  const rate = build.acceptanceRate === null ? "–" : `${Math.round(build.acceptanceRate * 100)}%`;
  o.write(
    `\n${pc.bold("witness")} — ${DEMO_REPO}: ${build.contexts} test contexts, ${build.candidatesFound} candidate bugs; attempted ${build.attempted}, accepted ${build.accepted} (${rate}); ${build.cases.length} cases at depth 1\n\n`,
  );
  const [replay, failing] = evals;
  const solved = (s: (typeof evals)[number] | undefined) => `${s?.successes ?? 0}/${s?.results ?? 0}`;
  o.write(
    `${textTable([
      ["agent (control)", "witnesses accepted"],
      ["control:replay (writes the construction-time witness)", solved(replay)],
      ["control:always-fail (a test that fails everywhere)", solved(failing)],
    ])}\n`,
  );
  o.write(`cases: ${path.join(dir, "cases")}  (metrics: gauntlet witness metrics --cases ${dir})\n`);
  const problems: string[] = [];
  if (build.cases.length === 0)
    problems.push(
      `witness: the build produced no case (${
        Object.entries(build.rejections)
          .map(([r, n]) => `${r} ×${n}`)
          .join("; ") || "nothing attempted"
      })`,
    );
  for (const s of evals)
    for (const e of s.errors) problems.push(`witness: eval of ${s.agent} on ${e.caseId}: ${e.message}`);
  if (!replay || replay.successes !== replay.results || replay.results === 0)
    problems.push(
      `witness: the replay control solved ${solved(replay)} cases; every case should be solvable`,
    );
  if (!failing || failing.successes > 0)
    problems.push(`witness: a test failing everywhere was accepted as a witness (${solved(failing)})`);
  return problems;
}
