import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type BuildSummary, buildWitnessCases } from "../src/witness/build.ts";
import { listFunctions } from "../src/witness/functions.ts";
import { readCase } from "../src/witness/package.ts";
import { openWitnessProject } from "../src/witness/project.ts";

/** Every file under `dir`, recursively, as [relative path, text]. */
function files(dir: string, prefix = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const name of readdirSync(dir)) {
    const abs = path.join(dir, name);
    const rel = path.posix.join(prefix, name);
    if (statSync(abs).isDirectory()) out.push(...files(abs, rel));
    else out.push([rel, readFileSync(abs, "utf8")]);
  }
  return out;
}

describe("gauntlet witness build on npm:minimist@1.2.8", () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "witness-build-test-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  let summary: BuildSummary;

  it("builds validated cases at depths 1 and 3 and reports the acceptance rate", {
    timeout: 240_000,
  }, async () => {
    summary = await buildWitnessCases({
      repo: "npm:minimist@1.2.8",
      outDir: out,
      types: ["guard-predicate-inversion", "intra-function-null-deref"],
      depths: [1, 3],
      bugsPerType: 1,
      maxAttemptsPerType: 4,
      repeats: 2,
    });
    expect(summary.contexts).toBe(15);
    expect(summary.accepted).toBe(2);
    expect(summary.acceptanceRate).toBe(summary.accepted / summary.attempted);
    expect(summary.casesByDepth).toEqual({ "1": 2, "3": 2 });
    for (const c of summary.cases) {
      const file = readCase(path.join(out, "cases", c.id));
      expect(file.metadata.depth.applied).toBe(c.depth);
      expect(file.metadata.operators).toHaveLength(c.depth);
    }
    expect(summary.testRunMs).toBeLessThanOrEqual(summary.wallMs);
  });

  it("packages cases with no trace of the clean function or the witness outside the buggy code", () => {
    for (const c of summary.cases) {
      const oracle = JSON.parse(readFileSync(path.join(out, "oracle", c.id, "oracle.json"), "utf8"));
      const witnessPath: string = oracle.witness.path;
      const witnessText = readFileSync(path.join(out, "oracle", c.id, "witness", witnessPath), "utf8").trim();
      const cleanIndex = readFileSync(path.join(out, "oracle", c.id, "clean", "index.js"), "utf8");
      const patch = readFileSync(path.join(out, "oracle", c.id, "bug.patch"), "utf8");
      // The original source of the mutated function: the innermost clean function holding the first changed line.
      const lines = patch.split("\n");
      const at = lines.findIndex((l) => l.startsWith("@@"));
      let changedLine = Number(/^@@ -(\d+)/.exec(lines[at] ?? "")?.[1]);
      for (const l of lines.slice(at + 1)) {
        if (l.startsWith("-") || l.startsWith("+")) break;
        changedLine++;
      }
      expect(changedLine).toBeGreaterThan(0);
      const offset =
        cleanIndex
          .split("\n")
          .slice(0, changedLine - 1)
          .join("\n").length + 1;
      const fn = listFunctions("index.js", cleanIndex)
        .filter((f) => f.start <= offset && offset <= f.end)
        .sort((a, b) => a.end - a.start - (b.end - b.start))[0];
      expect(fn, "the mutated function").toBeDefined();
      const original = cleanIndex.slice(fn!.start, fn!.end);
      const caseFiles = files(path.join(out, "cases", c.id));
      expect(caseFiles.map(([p]) => p)).not.toContain(`repo/${witnessPath}`);
      expect(caseFiles.some(([p]) => p.split("/").includes(".git"))).toBe(false);
      for (const [rel, text] of caseFiles) {
        expect(text.includes(original), `${rel} holds the original source of ${fn!.name}`).toBe(false);
        expect(text.includes(witnessText), `${rel} holds the witness`).toBe(false);
        expect(text.includes(witnessPath), `${rel} names the witness`).toBe(false);
      }
    }
  });

  it("leaves no project test in a case that would fail on its bug (an agent could hand one in)", async () => {
    const project = await openWitnessProject("npm:minimist@1.2.8");
    for (const c of summary.cases) {
      const copy = mkdtempSync(path.join(os.tmpdir(), "witness-case-run-"));
      cpSync(path.join(out, "cases", c.id, "repo"), copy, { recursive: true });
      symlinkSync(project.deps!, path.join(copy, "node_modules"));
      const tests = readdirSync(path.join(copy, "test")).map((f) => `test/${f}`);
      const [cmd, ...args] = project.commandFor(tests);
      const r = spawnSync(cmd!, args, { cwd: copy, encoding: "utf8" });
      expect(r.status, `${c.id}: ${r.stdout.slice(-400)}`).toBe(0);
      const oracle = JSON.parse(readFileSync(path.join(out, "oracle", c.id, "oracle.json"), "utf8"));
      for (const removed of oracle.alsoExposing) expect(tests).not.toContain(removed);
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("resumes: a second run attempts nothing again and finds the same cases", {
    timeout: 120_000,
  }, async () => {
    const before = readFileSync(path.join(out, "attempts.jsonl"), "utf8");
    const again = await buildWitnessCases({
      repo: "npm:minimist@1.2.8",
      outDir: out,
      types: ["guard-predicate-inversion", "intra-function-null-deref"],
      depths: [1, 3],
      bugsPerType: 1,
      maxAttemptsPerType: 4,
      repeats: 2,
    });
    expect(readFileSync(path.join(out, "attempts.jsonl"), "utf8")).toBe(before);
    expect(again.cases.map((c) => c.id).sort()).toEqual(summary.cases.map((c) => c.id).sort());
  });
});
