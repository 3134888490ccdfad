/**
 * Benchmark (issue 13 §6): `gauntlet demo` beside a CPU hog. The demo must still pass — every seeded
 * misbehaviour of scripted:reckless found, no serious finding against scripted:careful — at a load average
 * of 10 or more on this machine, because its step limits come from a calibration run measured under the same
 * load instead of fixed seconds.
 *
 * Baseline, measured in the same run: the same demo on the machine as it is (no hog). Printed: exit code,
 * wall time, load average at the end, and the ratio loaded / baseline.
 *
 * Run: `npx tsx bench/demo-under-load.ts [hogs]` (default 20 busy-looping processes; slow: minutes).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/gauntlet.mjs", import.meta.url));
const hogs = Number(process.argv[2] ?? 20);

function demo(label: string): { code: number | null; seconds: number; summary: string } {
  const cwd = mkdtempSync(path.join(os.tmpdir(), `bench-demo-${label}-`));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, "demo"], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, CI: "1" },
  });
  const seconds = (performance.now() - t0) / 1000;
  rmSync(cwd, { recursive: true, force: true });
  const summary = [...(r.stdout ?? "").split("\n"), ...(r.stderr ?? "").split("\n")]
    .filter((l) => /seeded misbehaviours|machine: load|demo check failed/.test(l))
    .join("\n  ");
  return { code: r.status, seconds, summary };
}

const base = demo("idle");
console.log(`baseline: exit ${base.code}, ${base.seconds.toFixed(0)} s\n  ${base.summary}`);

const procs = Array.from({ length: hogs }, () =>
  spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore", detached: true }),
);
try {
  const deadline = Date.now() + 120_000;
  while (os.loadavg()[0]! < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2000));
  console.log(`hog: ${hogs} busy processes, load average ${os.loadavg()[0]!.toFixed(1)} before the run`);
  const loaded = demo("loaded");
  console.log(
    `loaded: exit ${loaded.code}, ${loaded.seconds.toFixed(0)} s, load average ${os.loadavg()[0]!.toFixed(1)} at the end\n  ${loaded.summary}`,
  );
  console.log(`ratio loaded / baseline wall time: ${(loaded.seconds / base.seconds).toFixed(2)}×`);
  process.exitCode = base.code === 0 && loaded.code === 0 ? 0 : 1;
} finally {
  for (const p of procs) {
    try {
      process.kill(-p.pid!, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
