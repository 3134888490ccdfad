import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gauntlet } from "./helpers/cli.ts";

describe("gauntlet witness (CLI)", () => {
  const cwd = mkdtempSync(path.join(tmpdir(), "witness-cli-"));

  it("refuses an unknown bug type, an empty type list and a bad depth in one line each, exit 2", () => {
    const unknown = gauntlet(cwd, ["witness", "build", "--repo", "npm:minimist@1.2.8", "--types", "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown bug type "nope"');
    expect(unknown.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const empty = gauntlet(cwd, ["witness", "build", "--repo", "npm:minimist@1.2.8", "--types", ","]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("no bug type given");
    const depth = gauntlet(cwd, ["witness", "build", "--repo", "npm:minimist@1.2.8", "--depths", "0"]);
    expect(depth.code).toBe(2);
    expect(depth.stderr).toContain('bad depth "0"');
  });

  it("eval and metrics name a folder without cases or results", () => {
    const none = gauntlet(cwd, ["witness", "eval", "--cases", cwd, "--agent", "control:replay"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("holds no cases/ folder");
    const metrics = gauntlet(cwd, ["witness", "metrics", "--cases", cwd]);
    expect(metrics.code).toBe(2);
    expect(metrics.stderr).toContain("no eval results");
  });

  it("metrics tabulates results.jsonl of an eval folder", () => {
    const dir = path.join(cwd, "build", "eval", "a1");
    mkdirSync(dir, { recursive: true });
    const row = {
      agent: "a1",
      bugType: "guard-predicate-inversion",
      category: "logic",
      bucket: "short",
      depth: 1,
    };
    writeFileSync(
      path.join(dir, "results.jsonl"),
      `${JSON.stringify({ ...row, caseId: "wg-1", setting: "NoEC", success: true })}\n${JSON.stringify({ ...row, caseId: "wg-1", setting: "WithEC", success: false })}\n`,
    );
    const r = gauntlet(cwd, ["witness", "metrics", "--cases", path.join(cwd, "build")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("| a1 | all | 0.0% (0/1) | 100.0% (1/1) |");
  });
});
