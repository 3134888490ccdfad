import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./helpers/cli.ts";

function makeRepo(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-irepo-"));
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "tiny", scripts: { test: "node test/t.js" } }),
  );
  writeFileSync(path.join(dir, "index.js"), "module.exports = 1;\n");
  mkdirSync(path.join(dir, "test"));
  writeFileSync(path.join(dir, "test/t.js"), "console.log('# pass 1');\n");
  return dir;
}

const alive = (marker: string) =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .some((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    });

describe("interrupting a run", () => {
  it("SIGINT stops running agents, removes their workspaces, records nothing half-done, and says how to resume", {
    timeout: 60_000,
  }, async () => {
    const repo = makeRepo();
    const cwd = mkdtempSync(path.join(tmpdir(), "gauntlet-int-"));
    const wsBase = mkdtempSync(path.join(tmpdir(), "gauntlet-intws-"));
    const marker = `slow-agent-${process.pid}`;
    writeFileSync(
      path.join(cwd, "gauntlet.yaml"),
      `agents:\n  - name: slow\n    argv: ["bash", "-c", "exec -a ${marker} sleep 60"]\n`,
    );
    const child = spawn(
      process.execPath,
      [BIN, "fuzz", "run", "--repo", repo, "--agent", "command:slow", "--max-cases", "2", "--jobs", "1"],
      {
        cwd,
        env: { ...process.env, TMPDIR: wsBase, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const deadline = Date.now() + 30_000;
    while (!alive(marker) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(marker)).toBe(true);
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(130);
    expect(stderr).toMatch(/Resume with: gauntlet fuzz run --resume \S+/);
    expect(alive(marker)).toBe(false);
    expect(readdirSync(wsBase).filter((n) => n.startsWith("gauntlet-ws-"))).toEqual([]);
    const runDir = path.join(cwd, ".gauntlet/runs", readdirSync(path.join(cwd, ".gauntlet/runs"))[0]!);
    const results = path.join(runDir, "results.jsonl");
    expect(existsSync(results) ? readFileSync(results, "utf8") : "").toBe("");
  });
});
