import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parses } from "../src/witness/functions.ts";
import { applyTransformChain, OPERATORS } from "../src/witness/transform.ts";
import { OPERATOR_IDS, type OperatorId, type Span } from "../src/witness/types.ts";

/** A small CommonJS module; the pretend bug site is the guard `count < limit`. */
const MODULE = `'use strict';

function isShort(name) {
  return name.length < 3;
}

function classify(names, limit) {
  var count = 0;
  var label = 'none';
  for (var i = 0; i < names.length; i++) {
    if (isShort(names[i]) && count < limit) {
      count += 1;
    }
  }
  label = count > 0 ? 'some' : 'none';
  return { count: count, label: label, short: names.filter(isShort).length };
}

function summary(names) {
  return classify(names, 2).label;
}

module.exports = { classify: classify, isShort: isShort, summary: summary };
`;

const spanOf = (text: string, needle: string, nth = 0): Span => {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`no ${needle}`);
  return { start: at, end: at + needle.length };
};

// biome-ignore lint/suspicious/noExplicitAny: modules under test are untyped CommonJS
function load(text: string): any {
  const module = { exports: {} };
  new Function("module", "exports", text)(module, module.exports);
  return module.exports;
}

const INPUTS: [string[], number][] = [
  [[], 0],
  [["a", "bb", "ccc"], 1],
  [["a", "bb", "ccc", "d"], 5],
  [["long", "longer"], 2],
];

describe("the ten operators on a small module", () => {
  const site = spanOf(MODULE, "count < limit");
  const expected = INPUTS.map(([names, limit]) => load(MODULE).classify(names, limit));

  it.each(OPERATOR_IDS)("%s keeps the site's bytes, parses and behaves the same", (id) => {
    const result = OPERATORS[id].apply({
      file: "lib.js",
      text: MODULE,
      site,
      salt: "t",
      clean: "count < limit",
    });
    expect(result).toBeDefined();
    if (!result) return;
    expect(result.text).not.toBe(MODULE);
    expect(parses("lib.js", result.text)).toBe(true);
    expect(result.text.slice(result.site.start, result.site.end)).toBe("count < limit");
    expect(INPUTS.map(([names, limit]) => load(result.text).classify(names, limit))).toEqual(expected);
    expect(
      OPERATORS[id].apply({ file: "lib.js", text: MODULE, site, salt: "t", clean: "count < limit" }),
    ).toEqual(result);
  });

  it("Helper Call Insertion moves the guard into a local arrow that takes its locals", () => {
    const result = OPERATORS["helper-call-insertion"].apply({
      file: "lib.js",
      text: MODULE,
      site,
      salt: "t",
    });
    expect(result?.text).toContain(
      "    const resolveCountLimit = (count, limit) => {\n      return count < limit;\n    };\n    if (",
    );
    expect(result?.text).toContain("if (isShort(names[i]) && resolveCountLimit(count, limit)) {");
  });

  it("Call-Site Rerouting forwards the calls of the function holding the site", () => {
    const inner = spanOf(MODULE, "name.length < 3");
    const result = OPERATORS["call-site-rerouting"].apply({
      file: "lib.js",
      text: MODULE,
      site: inner,
      salt: "t",
    });
    expect(result?.text).toContain("function forwardIsShort(...args) {\n  return isShort(...args);\n}");
    expect(result?.text).toContain("if (forwardIsShort(names[i]) && count < limit)");
    expect(result?.text).toContain("names.filter(isShort)");
  });

  it("Rare Input Path Conditioning runs the bug only under its predicate, else the clean code", () => {
    const result = OPERATORS["rare-input-path-conditioning"].apply({
      file: "lib.js",
      text: MODULE,
      site,
      salt: "t",
      clean: "count <= limit",
      variant: 1,
    });
    expect(result?.text).toContain(
      'if (isShort(names[i]) && (typeof count === "number" && limit != null && names != null ? (count < limit) : (count <= limit)))',
    );
    expect(result?.summary).toContain('typeof count === "number"');
  });

  it("Rare Input Path Conditioning does not apply without the clean text", () => {
    expect(
      OPERATORS["rare-input-path-conditioning"].apply({ file: "lib.js", text: MODULE, site, salt: "t" }),
    ).toBe(undefined);
  });

  it("refuses to move code that awaits, and to split stages that return", () => {
    const text = "async function f(p) {\n  const x = (await p) + 1;\n  return x;\n}\n";
    const awaited = spanOf(text, "(await p) + 1");
    expect(OPERATORS["helper-call-insertion"].apply({ file: "a.js", text, site: awaited, salt: "t" })).toBe(
      undefined,
    );
    expect(OPERATORS["extract-and-apply-split"].apply({ file: "a.js", text, site: awaited, salt: "t" })).toBe(
      undefined,
    );
    const ret = "function g(a) {\n  if (a > 1) return 1;\n  return 2;\n}\n";
    const guard = spanOf(ret, "a > 1");
    expect(OPERATORS["pipeline-stage-split"].apply({ file: "a.js", text: ret, site: guard, salt: "t" })).toBe(
      undefined,
    );
  });

  it("keeps TypeScript parsing with typed helpers", () => {
    const text =
      "export function f(xs: number[], n: number): number {\n  const m = xs.length + n;\n  return f2(m);\n}\nfunction f2(v: number) {\n  return v > 2 ? v : 0;\n}\n";
    const s = spanOf(text, "v > 2");
    for (const id of OPERATOR_IDS) {
      const result = OPERATORS[id].apply({ file: "a.ts", text, site: s, salt: "t", clean: "v >= 2" });
      if (!result) continue;
      expect(parses("a.ts", result.text), id).toBe(true);
      expect(result.text.slice(result.site.start, result.site.end), id).toBe("v > 2");
    }
  });
});

describe("the enforced chain", () => {
  const site = spanOf(MODULE, "count < limit");
  const always = async () => ({ ok: true });

  it("applies five different operators and reports the applied sequence", async () => {
    const out = await applyTransformChain({
      file: "lib.js",
      text: MODULE,
      site,
      depth: 5,
      check: always,
      salt: "c",
    });
    expect(out.applied).toEqual([
      "helper-call-insertion",
      "call-site-rerouting",
      "parameter-bundling",
      "intermediate-state-passing",
      "cached-value-access",
    ]);
    expect(out.steps.find((s) => s.operator === "extract-and-apply-split")).toEqual({
      operator: "extract-and-apply-split",
      applied: false,
      reason: "not applicable here",
    });
    expect(out.steps.filter((s) => s.applied).length).toBe(5);
    expect(out.text.slice(out.site.start, out.site.end)).toBe("count < limit");
    const expected = INPUTS.map(([names, limit]) => load(MODULE).classify(names, limit));
    expect(INPUTS.map(([names, limit]) => load(out.text).classify(names, limit))).toEqual(expected);
  });

  it("rolls back a step whose check fails, and reapplies an operator only after trying all others", async () => {
    const check = async (text: string) =>
      text.includes("{ value: undefined }") ? { ok: false, reason: "witness passed" } : { ok: true };
    const out = await applyTransformChain({
      file: "lib.js",
      text: MODULE,
      site,
      depth: 3,
      order: [
        "intermediate-state-passing",
        "helper-call-insertion",
        "parameter-bundling",
        "nested-data-access",
      ],
      check,
      salt: "c",
    });
    expect(out.steps[0]).toEqual({
      operator: "intermediate-state-passing",
      applied: false,
      reason: "the witness check failed: witness passed",
    });
    expect(out.applied).toEqual(["helper-call-insertion", "parameter-bundling", "helper-call-insertion"]);
    expect(out.steps.map((s) => [s.operator, s.applied])).toEqual([
      ["intermediate-state-passing", false],
      ["helper-call-insertion", true],
      ["parameter-bundling", true],
      ["nested-data-access", false],
      ["intermediate-state-passing", false],
      ["helper-call-insertion", true],
    ]);
  });

  it("stops after one round when nothing passes the check, trying each operator once", async () => {
    const never = async () => ({ ok: false, reason: "witness passed" });
    const out = await applyTransformChain({
      file: "lib.js",
      text: MODULE,
      site,
      depth: 10,
      check: never,
      salt: "c",
    });
    expect(out.applied).toEqual([]);
    expect(out.text).toBe(MODULE);
    expect(out.steps.map((s) => s.operator)).toEqual([...OPERATOR_IDS]);
    expect(out.steps.at(-1)).toEqual({
      operator: "rare-input-path-conditioning",
      applied: false,
      reason: "not applicable here",
    });
  });
});

const MINIMIST = path.join(os.homedir(), ".cache/gauntlet/sources/npm/minimist@1.2.8");

describe.skipIf(!existsSync(path.join(MINIMIST, "node_modules/tape")))("minimist", () => {
  const clean = existsSync(MINIMIST) ? readFileSync(path.join(MINIMIST, "package/index.js"), "utf8") : "";
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** minimist's own tape suite on a copy of the package with `index.js` replaced. */
  function suiteGreen(indexJs: string): boolean {
    const dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-transform-"));
    dirs.push(dir);
    cpSync(path.join(MINIMIST, "package"), dir, { recursive: true });
    symlinkSync(path.join(MINIMIST, "node_modules"), path.join(dir, "node_modules"));
    writeFileSync(path.join(dir, "index.js"), indexJs);
    const run = spawnSync(process.execPath, ["node_modules/tape/bin/tape", "test/*.js"], {
      cwd: dir,
      timeout: 30000,
    });
    return run.status === 0;
  }

  it("keeps the suite green after each operator at a guard of the short-flag branch", () => {
    const site = spanOf(clean, "flags.bools[key]", 4);
    const text = clean.slice(site.start, site.end);
    const applied: OperatorId[] = [];
    for (const id of OPERATOR_IDS) {
      const result = OPERATORS[id].apply({ file: "index.js", text: clean, site, salt: "m", clean: text });
      if (!result) continue;
      applied.push(id);
      expect(suiteGreen(result.text), id).toBe(true);
    }
    expect(applied.length).toBeGreaterThanOrEqual(9);
  }, 20000);

  it("chains depth 3 and 5 on an injected guard inversion whose witness keeps failing", async () => {
    const site = spanOf(clean, "flags.bools[key]) {");
    const buggy = `${clean.slice(0, site.start)}!${clean.slice(site.start)}`;
    const bug = { start: site.start, end: site.start + "!flags.bools[key]".length };
    /** The witness: `--x=false` with boolean `x` must give false; the bug leaves the string 'false'. */
    const check = async (text: string) => {
      const argv = load(text)(["--x=false", "-n", "5", "rest"], { boolean: ["x"] });
      const sameElsewhere = argv.n === 5 && argv._.join() === "rest";
      return argv.x !== false && sameElsewhere ? { ok: true } : { ok: false, reason: "witness passed" };
    };
    const three = await applyTransformChain({
      file: "index.js",
      text: buggy,
      site: bug,
      depth: 3,
      order: ["nested-data-access", "pipeline-stage-split", "rare-input-path-conditioning"],
      check,
      salt: "w",
      clean: "flags.bools[key]",
    });
    expect(three.applied).toEqual([
      "nested-data-access",
      "pipeline-stage-split",
      "rare-input-path-conditioning",
    ]);
    expect(
      three.steps.filter((s) => s.operator === "rare-input-path-conditioning").map((s) => s.reason),
    ).toEqual([
      "the witness check failed: witness passed",
      "variant 1: the witness check failed: witness passed",
      "variant 2: the witness check failed: witness passed",
      undefined,
    ]);
    expect(three.text).toContain('(typeof flags === "object" && flags !== null');
    const five = await applyTransformChain({
      file: "index.js",
      text: buggy,
      site: bug,
      depth: 5,
      check,
      salt: "w",
    });
    expect(five.applied).toEqual([
      "helper-call-insertion",
      "call-site-rerouting",
      "parameter-bundling",
      "intermediate-state-passing",
      "cached-value-access",
    ]);
    for (const out of [three, five]) {
      expect(out.text.slice(out.site.start, out.site.end)).toBe("!flags.bools[key]");
      expect((await check(out.text)).ok).toBe(true);
    }
  });
});
