/**
 * Benchmark: workspace creation + per-step file-change evidence, against the obvious git-based baseline.
 *
 * Fixture: a generated 10,000-file repository (1,000 nested directories, small text files), committed to
 * git and packed (`git repack -ad`), so `.git` is part of what both sides copy.
 *
 * - baseline: `cp -r src dst` (dst is then a git repository whose index came along with the copy), then
 *   20 × (modify 3 files, `git status --porcelain`). The index is built outside the timed part (at commit);
 *   the first `git status` in the copy re-hashes every file, since the copy's inodes and ctimes differ.
 * - ours: `createWorkspace` + 20 × (modify the same 3 files, `captureStep()`), which also computes diffs
 *   against the previous step and the baseline. `resolveSource` (which hashes the source once, as a commit
 *   builds git's index) is outside the timed part. createWorkspace copies with parallel `cp` processes
 *   and reuses the source's hashes for the copy (timestamps preserved), so its baseline reads almost
 *   nothing; each step lists the tree on all cores and reads only files whose stat fields changed.
 *
 * Each side runs ROUNDS times, alternating; the medians are compared. Run: `npm run bench`.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveSource } from "../src/workspace/source.ts";
import { createWorkspace } from "../src/workspace/workspace.ts";

const FILES = 10_000;
const STEPS = 20;
const EDITS_PER_STEP = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function run(file: string, args: string[], cwd: string): string {
  const r = spawnSync(file, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${file} ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout;
}

/** 10 × 10 × 10 directories with 10 small text files each. */
function generate(dir: string): string[] {
  const files: string[] = [];
  for (let i = 0; files.length < FILES; i++) {
    const sub = `pkg${i % 10}/mod${Math.floor(i / 10) % 10}/part${Math.floor(i / 100) % 10}`;
    mkdirSync(path.join(dir, sub), { recursive: true });
    const rel = `${sub}/file${Math.floor(i / 1000)}.txt`;
    writeFileSync(path.join(dir, rel), `// ${rel}\n${"export const value = 1;\n".repeat(1 + (i % 30))}`);
    files.push(rel);
  }
  return files;
}

/** The files edited in step `s` (the same for both sides). */
function editsOf(files: string[], s: number): string[] {
  return Array.from({ length: EDITS_PER_STEP }, (_, k) => files[(s * 7919 + k * 104729) % files.length]!);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "gauntlet-bench-"));
  try {
    const src = path.join(tmp, "src");
    mkdirSync(src);
    const files = generate(src);
    const git = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "-c", "gc.auto=0"];
    run("git", [...git, "init", "-q"], src);
    run("git", [...git, "add", "-A"], src);
    run("git", [...git, "commit", "-q", "-m", "fixture"], src);
    run("git", [...git, "repack", "-adq"], src);
    run("git", [...git, "prune-packed"], src);
    const source = await resolveSource(src);
    const work = path.join(tmp, "work");
    mkdirSync(work);

    const baselineMs: number[] = [];
    const oursMs: number[] = [];
    const baselineCopyMs: number[] = [];
    const oursCreateMs: number[] = [];
    let hashedPerStep = 0;
    let hashedAtBaseline = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const dst = path.join(work, `copy-${round}`);
      let t = performance.now();
      run("cp", ["-r", src, dst], work);
      baselineCopyMs.push(performance.now() - t);
      for (let s = 0; s < STEPS; s++) {
        for (const rel of editsOf(files, s)) appendFileSync(path.join(dst, rel), `// step ${s}\n`);
        const status = run("git", ["status", "--porcelain"], dst);
        if (status === "") throw new Error("git status saw no change");
      }
      baselineMs.push(performance.now() - t);
      rmSync(dst, { recursive: true, force: true });

      t = performance.now();
      const ws = await createWorkspace(source, { baseDir: work });
      oursCreateMs.push(performance.now() - t);
      hashedAtBaseline = ws.baseline.hashed;
      let hashed = 0;
      for (let s = 0; s < STEPS; s++) {
        for (const rel of editsOf(files, s)) appendFileSync(path.join(ws.dir, rel), `// step ${s}\n`);
        const evidence = ws.captureStep();
        hashed += ws.current.hashed;
        if (evidence.sincePrevious.length === 0) throw new Error("captureStep saw no change");
      }
      oursMs.push(performance.now() - t);
      hashedPerStep = hashed / STEPS;
      await ws.dispose();
    }

    const base = median(baselineMs);
    const ours = median(oursMs);
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    console.log(
      `repository: ${FILES} files (+ packed .git), ${STEPS} steps × ${EDITS_PER_STEP} edited files, ${ROUNDS} rounds`,
    );
    const steps = (total: number[], setup: number[]) => median(total.map((x, i) => x - setup[i]!));
    console.log(`baseline  cp -r + git status:        median ${base.toFixed(0)} ms  [${fmt(baselineMs)}]`);
    console.log(
      `          of which cp -r:            median ${median(baselineCopyMs).toFixed(0)} ms; ${STEPS} steps: ${steps(baselineMs, baselineCopyMs).toFixed(0)} ms`,
    );
    console.log(`ours      createWorkspace + capture: median ${ours.toFixed(0)} ms  [${fmt(oursMs)}]`);
    console.log(
      `          of which createWorkspace:  median ${median(oursCreateMs).toFixed(0)} ms; ${STEPS} steps: ${steps(oursMs, oursCreateMs).toFixed(0)} ms`,
    );
    console.log(
      `files read and hashed (ours, last round): ${hashedAtBaseline} at the baseline, ${hashedPerStep.toFixed(1)} per step`,
    );
    console.log(`ratio ours/baseline: ${(ours / base).toFixed(2)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
