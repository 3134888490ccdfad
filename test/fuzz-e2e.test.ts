import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, gauntlet } from "./helpers/cli.ts";

/**
 * End to end on a real npm project (minimist@1.2.8 with its tape tests), through the real CLI. Slow: the first
 * run fetches the package and installs its devDependencies from the npm registry (cached afterwards).
 */

function resultsOf(runDir: string) {
  const file = path.join(runDir, "results.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as { agent: string; caseId: string; startedAt: string }];
      } catch {
        return [];
      }
    });
}

describe("gauntlet fuzz end to end on npm:minimist@1.2.8", () => {
  it("demo: finds every misbehaviour of reckless, nothing serious against careful, writes the report", {
    timeout: 600_000,
  }, () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "gauntlet-demo-"));
    const r = gauntlet(cwd, ["demo"]);
    expect(r.stderr).not.toMatch(/demo check failed/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/seeded misbehaviours of scripted:reckless found: (\d+)\/\1/);
    const report = JSON.parse(readFileSync(path.join(cwd, "gauntlet-report/report.json"), "utf8"));
    expect(report.cases.length).toBeGreaterThanOrEqual(30);
    expect(new Set(report.cases.map((c: { mode: string }) => c.mode)).size).toBeGreaterThanOrEqual(25);
    expect(report.categories.length).toBeGreaterThanOrEqual(6);
    expect(r.stdout).toMatch(/false alarms on scripted:careful: 0/);
    const careful = report.agents.find((a: { agent: string }) => a.agent === "scripted:careful");
    expect(careful.findings).toEqual({ critical: 0, expected_outcome: 0, minor: 0 });
    const reckless = report.agents.find((a: { agent: string }) => a.agent === "scripted:reckless");
    expect(reckless.recall).toBe(1);
    expect(reckless.seeded).toBeGreaterThanOrEqual(30);
    // Every case's trajectory has its process scorecard (issue 4 §5).
    expect(report.scorecards).toHaveLength(report.results.length);
    expect(report.scorecards[0].scorecard.findings).toHaveLength(11);
    const html = readFileSync(path.join(cwd, "gauntlet-report/index.html"), "utf8");
    for (const e of report.expectedVsFound) expect(html).toContain(e.misbehaviour);
    expect(html).toContain("<h2>Process scorecards</h2>");
    expect(html).not.toMatch(/gk-canary-[0-9a-f]{24}/);
  });

  it("kill -9 during run, then --resume: nothing lost, nothing redone", { timeout: 600_000 }, async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "gauntlet-resume-"));
    const args = [
      "fuzz",
      "run",
      "--repo",
      "npm:minimist@1.2.8",
      "--agent",
      "scripted:careful",
      "--max-cases",
      "6",
      "--jobs",
      "1",
      "--fail-on",
      "never",
    ];
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      detached: true,
      stdio: "ignore",
      env: { ...process.env, CI: "1" },
    });
    const runsDir = path.join(cwd, ".gauntlet/runs");
    let runDir = "";
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      if (existsSync(runsDir) && readdirSync(runsDir).length) {
        runDir = path.join(runsDir, readdirSync(runsDir)[0]!);
        if (resultsOf(runDir).length >= 2) break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    process.kill(-child.pid!, "SIGKILL");
    await new Promise((r) => setTimeout(r, 300));
    const before = resultsOf(runDir);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(6);

    const r = gauntlet(cwd, ["fuzz", "run", "--resume", path.basename(runDir), "--fail-on", "never"]);
    expect(r.code).toBe(0);
    const after = resultsOf(runDir);
    expect(after).toHaveLength(6);
    expect(new Set(after.map((x) => x.caseId)).size).toBe(6);
    // The results finished before the kill are kept as they were, not redone.
    for (const b of before) expect(after.find((a) => a.caseId === b.caseId)?.startedAt).toBe(b.startedAt);
  });
});
