/**
 * Shared by the score benchmarks: each measured phase runs in its own child process (so peak RSS belongs to
 * that phase alone), imports and scores a file, and prints one JSON line `{ms, maxRssMB, ...}`.
 */
import { spawnSync } from "node:child_process";

/** A phase's measurement. */
export type PhaseResult = { ms: number; maxRssMB: number } & Record<string, unknown>;

/** Run `script --phase <phase> <file>` in a child process and read its JSON line. @throws Error when it fails */
export function measurePhase(script: string, phase: string, file: string): PhaseResult {
  const r = spawnSync(process.execPath, ["--import", "tsx", script, "--phase", phase, file], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`phase ${phase} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1) ?? "{}");
}

/**
 * The child side of the `score` phase, loaded:  Gauntlet's importer, all 11 detectors and the scorecard over `file`, as
 * `gauntlet score` runs them (streamed as read when the format allows).
 */
export async function loadScorer(): Promise<(file: string) => Promise<{ events: number; flagged: number }>> {
  // Loaded before the phase starts its clock (a bare parse loads nothing either), and only in the score
  // phase (so the bare parse's memory is not Gauntlet's modules).
  const { importTrajectories, streamTrajectory } = await import("../src/score/import/index.ts");
  const { scoreTrajectory, TrajectoryScorer } = await import("../src/score/scorecard.ts");
  return (file) => scoreFile(file, importTrajectories, streamTrajectory, scoreTrajectory, TrajectoryScorer);
}

async function scoreFile(
  file: string,
  importTrajectories: typeof import("../src/score/import/index.ts").importTrajectories,
  streamTrajectory: typeof import("../src/score/import/index.ts").streamTrajectory,
  scoreTrajectory: typeof import("../src/score/scorecard.ts").scoreTrajectory,
  TrajectoryScorer: typeof import("../src/score/scorecard.ts").TrajectoryScorer,
): Promise<{ events: number; flagged: number }> {
  const scorer = new TrajectoryScorer();
  const streamed = await streamTrajectory(file, undefined, (e) => scorer.push(e));
  if (streamed) {
    const { card } = scorer.finish(streamed);
    return { events: card.trajectory.events, flagged: card.findings.filter((f) => f.band !== "none").length };
  }
  let events = 0;
  let flagged = 0;
  for (const t of await importTrajectories(file)) {
    events += t.events.length;
    flagged += scoreTrajectory(t).findings.filter((f) => f.band !== "none").length;
  }
  return { events, flagged };
}

/** Print a child phase's result line: time since `started` (ms), peak RSS (MB) and `extra`. */
export function printPhase(started: number, extra: Record<string, unknown>): void {
  const ms = performance.now() - started;
  process.stdout.write(
    `${JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024, ...extra })}\n`,
  );
}
