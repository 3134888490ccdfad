import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { InputError, SetupError } from "../src/core/errors.ts";
import { sha256 } from "../src/core/ids.ts";
import { ModelClient } from "../src/models/client.ts";
import { UsageLedger } from "../src/models/usage.ts";
import { type InjectedPatch, runRealismStudy } from "../src/witness/realism.ts";
import {
  addArtefact,
  CONTROL_ARTEFACTS,
  formatStandardPatch,
  parseUnifiedDiff,
  reversePatch,
  trimContext,
} from "../src/witness/realism-patches.ts";
import {
  historicalPatch,
  loadHistoricalPatches,
  matchPairs,
  stratifiedSample,
} from "../src/witness/realism-plan.ts";
import { seededRandom } from "../src/witness/realism-stats.ts";

/** A one-hunk diff of `file` at line 10: 3 context lines, `n` changed lines (old → new), 3 context lines. */
function diffOf(file: string, n: number, from = "x > 0", to = "x < 0"): string {
  const ctx = ["  const a = 1;", "  const b = 2;", "  const c = 3;"];
  const lines = [
    ...ctx.map((l) => ` ${l}`),
    ...Array.from({ length: n }, (_, i) => `-  if (${from} && i${i}) {}`),
    ...Array.from({ length: n }, (_, i) => `+  if (${to} && i${i}) {}`),
    ...ctx.map((l) => ` ${l}`),
  ];
  return [`--- a/${file}`, `+++ b/${file}`, `@@ -10,${6 + n} +10,${6 + n} @@`, ...lines, ""].join("\n");
}

const tmp = () => mkdtempSync(path.join(tmpdir(), "realism-"));

describe("realism patches", () => {
  const gitDiff = [
    "diff --git a/src/x.js b/src/x.js",
    "index 83db48f..bf269f4 100644",
    "--- a/src/x.js\t2020-01-01 00:00:00",
    "+++ b/src/x.js\t2020-01-01 00:00:01",
    "@@ -1,8 +1,8 @@ function f() {",
    " a;",
    " b;",
    " c;",
    " d;",
    "-  if (x > 0) {",
    "+  if (x < 0) {",
    " e;",
    " f;",
    " g;",
    "@@ -20,2 +20,3 @@",
    " h;",
    "+  i;",
    " j;",
    "",
  ].join("\n");

  it("standardizes a git diff: no metadata, uniform headers, context trimmed", () => {
    const text = formatStandardPatch(trimContext(parseUnifiedDiff(gitDiff), 2));
    expect(text).toBe(
      [
        "--- a/src/x.js",
        "+++ b/src/x.js",
        "@@ -3,5 +3,5 @@",
        " c;",
        " d;",
        "-  if (x > 0) {",
        "+  if (x < 0) {",
        " e;",
        " f;",
        "@@ -20,2 +20,3 @@",
        " h;",
        "+  i;",
        " j;",
        "",
      ].join("\n"),
    );
  });

  it("reverses a fix into the bug it fixed, removals first", () => {
    const fix = parseUnifiedDiff(diffOf("src/y.js", 1, "x < 0", "x > 0"));
    const bug = formatStandardPatch(reversePatch(fix));
    expect(bug).toContain("-  if (x > 0 && i0) {}\n+  if (x < 0 && i0) {}\n");
    expect(reversePatch(reversePatch(fix))).toEqual(fix);
  });

  it("adds a control artefact at a statement boundary and moves later hunks", () => {
    const files = addArtefact(parseUnifiedDiff(gitDiff), "redundant-temp");
    const text = formatStandardPatch(files);
    const lines = CONTROL_ARTEFACTS["redundant-temp"].map((l) => `+  ${l}`);
    expect(text).toContain([" d;", "-  if (x > 0) {", ...lines, "+  if (x < 0) {"].join("\n"));
    expect(text).toContain("@@ -1,8 +1,10 @@");
    expect(text).toContain("@@ -20,2 +22,3 @@");
  });
});

describe("realism design", () => {
  it("reads historical patches, reversing fixes, and names file:line and field of a bad one", () => {
    const dir = tmp();
    const file = path.join(dir, "historical.jsonl");
    const ok = { id: "h1", repo: "r", patch: diffOf("src/a.js", 1, "x < 0", "x > 0"), direction: "fix" };
    writeFileSync(
      file,
      `${JSON.stringify(ok)}\n\n${JSON.stringify({ ...ok, id: "h2", direction: "both" })}\n`,
    );
    expect(() => loadHistoricalPatches(file)).toThrow(InputError);
    expect(() => loadHistoricalPatches(file)).toThrow(`${file}:3: field "direction"`);
    writeFileSync(file, `${JSON.stringify(ok)}\n${JSON.stringify({ ...ok, id: "h2", patch: "hello" })}\n`);
    expect(() => loadHistoricalPatches(file)).toThrow(`${file}:2: field "patch": not a unified diff`);
    writeFileSync(file, `${JSON.stringify(ok)}\n`);
    const [h] = loadHistoricalPatches(file);
    expect(h).toMatchObject({
      id: "historical:h1",
      source: "historical",
      size: { changedLines: 2, files: 1, hunks: 1 },
    });
    expect(formatStandardPatch(h!.files)).toContain("+  if (x < 0 && i0) {}");
  });

  it("matches by repository, then edit size, and leaves a repository without history unmatched", () => {
    const hist = (id: string, repo: string, n: number) =>
      historicalPatch({ id, repo, patch: diffOf("src/a.js", n), direction: "bug" });
    const inj = (id: string, repo: string, n: number) => ({
      cluster: id,
      patch: { ...hist(id, repo, n), id: `injected:${id}`, source: "injected" as const },
    });
    const { pairs, unmatched } = matchPairs(
      [inj("c1", "r1", 2), inj("c2", "r1", 9), inj("c3", "r2", 1)],
      [hist("small", "r1", 2), hist("big", "r1", 10), hist("other", "r3", 2)],
    );
    expect(pairs.map((p) => p.id)).toEqual(["c1~small", "c2~big"]);
    expect(unmatched).toEqual(["injected:c3"]);
  });

  it("samples proportionally to strata", () => {
    const items = [...Array(6).fill("a"), ...Array(3).fill("b"), "c"].map((s, i) => ({ s, i }));
    const sample = stratifiedSample(items, (x) => x.s, 5, seededRandom(3));
    expect(sample.map((x) => x.s).sort()).toEqual(["a", "a", "a", "b", "b"]);
  });
});

describe("realism study", () => {
  const repos = ["alpha", "beta"];
  const injected: InjectedPatch[] = repos.flatMap((repo) =>
    Array.from({ length: 10 }, (_, i) => ({
      id: `${repo}-${i}`,
      repo,
      bugType: "t",
      patch: diffOf(`src/${i}.js`, 1 + (i % 4)),
    })),
  );
  const historical = repos.flatMap((repo) =>
    Array.from({ length: 12 }, (_, i) =>
      historicalPatch({
        id: `${repo}-h${i}`,
        repo,
        direction: "fix",
        patch: diffOf(`lib/${i}.js`, 1 + (i % 5), "y", "z"),
      }),
    ),
  );

  /** A judge whose pairwise replies come from `pair(left, right)` and single replies from `single(patch)`. */
  function judge(
    name: string,
    single: (text: string) => number,
    pair: (left: string, right: string) => number,
  ) {
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        const user = prompt.find((m) => m.role === "user");
        const text =
          user && Array.isArray(user.content)
            ? user.content.map((p) => (p.type === "text" ? p.text : "")).join("")
            : "";
        const [left, right] = text.split("RIGHT patch");
        const reply = right
          ? { probabilityLeftMoreRealistic: pair(left!, right), rationale: "r" }
          : { probabilityInjected: single(text), rationale: "r" };
        return {
          content: [{ type: "text" as const, text: JSON.stringify(reply) }],
          finishReason: { unified: "stop" as const, raw: "stop" },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 5, text: 5, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    return {
      model,
      make: (ledger = new UsageLedger()) => ({
        name,
        client: new ModelClient(`openai:${name}`, { ledger, languageModel: model }),
      }),
    };
  }
  const hash = (text: string) => Number.parseInt(sha256(text).slice(0, 8), 16) / 2 ** 32;
  const hasArtefact = (text: string) => Object.values(CONTROL_ARTEFACTS).some((ls) => text.includes(ls[0]!));
  const base = { injected, historical, seed: 11, controls: 6, resamples: 2000 };

  it("refuses to run without an llm judge", async () => {
    const run = runRealismStudy({ ...base, judges: [], outDir: tmp() });
    await expect(run).rejects.toThrow(SetupError);
    await expect(run).rejects.toThrow(/needs an llm judge/);
    await expect(run).rejects.toMatchObject({ hint: expect.stringContaining("witness.models.judge") });
  });

  it("finds a left-biased judge equivalent to chance, a hash judge not yet, and an artefact spotter sensitive", async () => {
    const outDir = tmp();
    const biased = judge(
      "biased",
      () => 0.7,
      () => 0.6,
    );
    const chance = judge("chance", hash, (l, r) => hash(l + r));
    const spotter = judge("spotter", hash, (l, r) =>
      hasArtefact(l) ? 0.05 : hasArtefact(r) ? 0.95 : hash(l + r),
    );
    const summary = await runRealismStudy({
      ...base,
      judges: [biased.make(), chance.make(), spotter.make()],
      outDir,
    });
    expect(summary).toMatchObject({
      sampled: 20,
      pairs: 20,
      controls: 6,
      unmatched: [],
      planned: 3 * 172,
      judged: 516,
    });
    const [b, c, s] = summary.judges;
    expect(b!.single).toMatchObject({ correct: 60, total: 120 });
    expect(b!.pairwise.accuracy).toEqual({ estimate: 0.5, lower: 0.5, upper: 0.5, level: 0.9 });
    expect(b!.equivalent).toBe(true);
    expect(b!.single.equivalent).toEqual({ accuracy: true, auc: true });
    expect(b!.diagnostics).toEqual({ singleRepeatAgreement: 1, orientationAgreement: 0, leftChoiceRate: 1 });
    expect(b!.controls.pass).toBe(false);
    expect(c!.pairwise.accuracy.lower).toBeLessThan(0.45); // 20 pairs: too few to establish equivalence
    expect(c!.equivalent).toBe(false);
    expect(s!.controls).toMatchObject({ correct: 12, total: 12, pass: true });
    expect(s!.controls.accuracy.lower).toBe(1);
    // Blinding: no source labels or git metadata reach the judge; repeats are distinct calls.
    const prompts = biased.model.doGenerateCalls.map((call) => JSON.stringify(call.prompt));
    expect(prompts.some((p) => /historical|injected:|index |alpha-h/.test(p))).toBe(false);
    expect(new Set(prompts).size).toBe(prompts.length);
    const lines = readFileSync(path.join(outDir, "realism.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(516);
    expect(JSON.parse(readFileSync(path.join(outDir, "realism-summary.json"), "utf8")).judges).toHaveLength(
      3,
    );
  });

  it("stops at the budget keeping its judgments, and a rerun resumes without repeating them", async () => {
    const outDir = tmp();
    const chance = judge("chance", hash, (l, r) => hash(l + r));
    const first = await runRealismStudy({
      ...base,
      judges: [chance.make(new UsageLedger({ maxCalls: 50 }))],
      outDir,
    });
    expect(first.stopped).toMatch(/model budget reached/);
    expect(first.judged).toBe(50);
    const second = await runRealismStudy({ ...base, judges: [chance.make()], outDir });
    expect(second).toMatchObject({ judged: 172 - 50, reused: 50 });
    expect(chance.model.doGenerateCalls).toHaveLength(172);
    const third = await runRealismStudy({ ...base, judges: [chance.make()], outDir });
    expect(third).toMatchObject({ judged: 0, reused: 172 });
    expect(third.judges).toEqual(second.judges);
  });
});
