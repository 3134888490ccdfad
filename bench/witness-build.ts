/**
 * Benchmark (issue 6): `gauntlet witness build` throughput — cases accepted per minute — and the share of its
 * wall time spent in the project's own test runs (the rest is Gauntlet's overhead: copying, parsing, AST
 * edits, packaging; target overhead ≤ 20 %).
 *
 * Baseline, measured in the same run: one bare run of each test file of the project (`tape <file>` in the
 * pristine package, no copy, no sandbox). The ratio "mean validation run / mean bare run" shows what a test
 * run costs inside the predicate (fresh copy, linked dependencies, bwrap) against running it by hand.
 *
 * Run: `npx tsx bench/witness-build.ts [npm:minimist@1.2.8]` (BENCH_WITNESS_TYPES=t1,t2 to narrow).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildWitnessCases } from "../src/witness/build.ts";
import { openWitnessProject } from "../src/witness/project.ts";
import type { BugTypeId } from "../src/witness/types.ts";

const spec = process.argv[2] ?? "npm:minimist@1.2.8";
const types = (process.env.BENCH_WITNESS_TYPES?.split(",") ?? [
  "guard-predicate-inversion",
  "intra-function-null-deref",
  "identical-comparison",
  "skipped-aggregation-counter",
]) as BugTypeId[];

const project = await openWitnessProject(spec);
const bare: number[] = [];
for (const file of project.testFiles) {
  const [cmd, ...args] = project.commandFor([file]);
  const t0 = performance.now();
  spawnSync(cmd!, args, { cwd: project.dir, stdio: "ignore", env: { ...process.env, NO_COLOR: "1" } });
  bare.push(performance.now() - t0);
}
const bareMean = bare.reduce((a, b) => a + b, 0) / bare.length;

const out = mkdtempSync(path.join(os.tmpdir(), "bench-witness-"));
try {
  const summary = await buildWitnessCases({
    repo: spec,
    outDir: out,
    types,
    depths: [1, 3],
    bugsPerType: 1,
    maxAttemptsPerType: 6,
  });
  const attempts = readFileSync(path.join(out, "attempts.jsonl"), "utf8").trim().split("\n").length;
  const minutes = summary.wallMs / 60_000;
  const share = summary.testRunMs / summary.wallMs;
  const runMean = summary.testRunMs / Math.max(1, summary.testRuns);
  console.log(
    `project            ${summary.project.name}@${summary.project.version} (${summary.project.runner})`,
  );
  console.log(`bare test run      ${bareMean.toFixed(0)} ms mean over ${bare.length} test files (baseline)`);
  console.log(
    `candidates         ${attempts} attempted, ${summary.accepted} accepted (rate ${((summary.acceptanceRate ?? 0) * 100).toFixed(0)}%)`,
  );
  console.log(
    `cases              ${summary.cases.length} (${Object.entries(summary.casesByDepth)
      .map(([d, n]) => `depth ${d}: ${n}`)
      .join(", ")})`,
  );
  console.log(`wall               ${(summary.wallMs / 1000).toFixed(1)} s`);
  console.log(`cases per minute   ${(summary.cases.length / minutes).toFixed(2)}`);
  console.log(`accepted bugs/min  ${(summary.accepted / minutes).toFixed(2)}`);
  console.log(
    `time in test runs  ${(share * 100).toFixed(1)}%  → overhead ${((1 - share) * 100).toFixed(1)}% (target ≤ 20%)`,
  );
  console.log(
    `test runs          ${summary.testRuns}, ${runMean.toFixed(0)} ms mean → ${(runMean / bareMean).toFixed(2)}× a bare run (copy, linked deps, sandbox)`,
  );
} finally {
  rmSync(out, { recursive: true, force: true });
}
