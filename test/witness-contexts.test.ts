import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InputError, SetupError, StoppedError } from "../src/core/errors.ts";
import { collectContexts, lengthBucket } from "../src/witness/contexts.ts";
import { instrumentSource } from "../src/witness/probes.ts";
import { isProductionFile, isTestFile, openWitnessProject } from "../src/witness/project.ts";
import { findRunnerInvocation, globToRegExp } from "../src/witness/test-script.ts";

/** relative path → sha256, mode and mtime of every entry under `top` (node_modules not followed). */
function fingerprint(top: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      const st = statSync(full);
      const tag = `${st.mode.toString(8)} ${st.mtimeMs}`;
      if (entry.name === "node_modules") continue;
      if (entry.isDirectory()) {
        out.set(path.relative(top, full), `dir ${tag}`);
        walk(full);
      } else
        out.set(
          path.relative(top, full),
          `${createHash("sha256").update(readFileSync(full)).digest("hex")} ${tag}`,
        );
    }
  };
  walk(top);
  return out;
}

function writeProject(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "witness-project-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const CALC = `'use strict';

function add(a, b) {
  'use strict';
  return a + b;
}

const double = (x) => add(x, x);

class Counter {
  static create() { return new Counter(); }
  constructor() { this.n = 0; }
  bump() { this.n = double(this.n + 1); return this.n; }
}

function unused() { return 0; }

module.exports = { add, double, Counter, unused };
`;

const NODE_TEST_HEAD = `const test = require("node:test");
const assert = require("node:assert");
const { add, double, Counter } = require("../lib/calc.js");
`;

describe("a node:test project", () => {
  let dir: string;
  beforeAll(() => {
    dir = writeProject({
      "package.json": JSON.stringify({
        name: "calc",
        version: "1.0.0",
        scripts: { test: "node --test test/" },
      }),
      "lib/calc.js": CALC,
      "test/calc.test.js": `${NODE_TEST_HEAD}test("counter", () => {
  const c = Counter.create();
  assert.equal(c.bump(), 2);
  assert.equal(c.bump(), 6);
  assert.equal(add(1, 2), 3);
});\n`,
      "test/fail.test.js": `${NODE_TEST_HEAD}test("wrong sum", () => assert.equal(add(1, 1), 3));\n`,
      "test/source.test.js": `${NODE_TEST_HEAD}test("source text", () => {
  assert.equal(double.toString(), "(x) => add(x, x)");
  assert.equal(double(2), 4);
});\n`,
      "test/nothing.test.js": `const test = require("node:test");\ntest("no production code", () => {});\n`,
    });
  });

  it("is opened with its runner, test files, production files and a direct command", async () => {
    const project = await openWitnessProject(dir);
    expect(project.runner).toBe("node:test");
    expect(project.name).toBe("calc");
    expect(project.version).toBe("1.0.0");
    expect(project.testFiles).toEqual([
      "test/calc.test.js",
      "test/fail.test.js",
      "test/nothing.test.js",
      "test/source.test.js",
    ]);
    expect(project.productionFiles).toEqual(["lib/calc.js"]);
    expect(project.commandFor(["test/calc.test.js"])).toEqual([
      process.execPath,
      "--test",
      "test/calc.test.js",
    ]);
  });

  it("records functions in first-entry order with call counts, skips failing tests, never writes the project", async () => {
    const project = await openWitnessProject(dir);
    const before = fingerprint(dir);
    const progress: string[] = [];
    const { contexts, skipped, notes } = await collectContexts(project, {
      onProgress: (done, total, test) => progress.push(`${done}/${total} ${test}`),
    });
    expect(fingerprint(dir)).toEqual(before);
    expect(progress.map((p) => p.split(" ")[0])).toEqual(["1/4", "2/4", "3/4", "4/4"]);

    const calc = contexts.find((c) => c.test.file === "test/calc.test.js");
    expect(calc?.ordered).toBe(true);
    expect(calc?.functions.map((f) => [f.name, f.line, f.calls])).toEqual(
      [
        ["create", 11],
        ["constructor", 12],
        ["bump", 13],
        ["double", 8],
        ["add", 3],
      ].map(([name, line], i) => [name, line, [1, 1, 2, 2, 3][i]]),
    );
    expect(calc?.functions[0]?.id).toBe("lib/calc.js#create@11");
    expect(calc).toMatchObject({ length: 5, bucket: "short", cleanOutcome: "pass" });

    // Function.prototype.toString sees the probes: the test is traced again, pristine, by V8 coverage.
    const source = contexts.find((c) => c.test.file === "test/source.test.js");
    expect(source?.ordered).toBe(false);
    expect(source?.functions.map((f) => [f.name, f.calls])).toEqual([
      ["add", 1],
      ["double", 1],
    ]);
    expect(notes).toEqual([
      expect.stringMatching(/^test\/source\.test\.js fails with probes \(assertion: .*V8 coverage/),
    ]);

    expect(skipped.map((s) => [s.test, s.outcome])).toEqual([
      ["test/fail.test.js", "assertion"],
      ["test/nothing.test.js", "untraced"],
    ]);
    expect(contexts.map((c) => c.test.file)).toEqual(["test/calc.test.js", "test/source.test.js"]);
  });

  it("stops when aborted, and refuses tests that are not files of the project", async () => {
    const project = await openWitnessProject(dir);
    await expect(collectContexts(project, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      StoppedError,
    );
    await expect(collectContexts(project, { tests: ["../calc.test.js"] })).rejects.toBeInstanceOf(InputError);
    await expect(collectContexts(project, { tests: ["test/missing.test.js"] })).rejects.toThrow(
      "not a test file of calc: test/missing.test.js",
    );
  });

  it("traces with V8 coverage alone on request: the same set, unordered", async () => {
    const project = await openWitnessProject(dir);
    const { contexts } = await collectContexts(project, { tests: ["test/calc.test.js"], tracer: "v8" });
    expect(contexts[0]?.ordered).toBe(false);
    expect(contexts[0]?.functions.map((f) => [f.name, f.calls])).toEqual([
      ["add", 3],
      ["double", 2],
      ["create", 1],
      ["constructor", 1],
      ["bump", 2],
    ]);
  });
});

describe("npm:minimist@1.2.8 (tape)", () => {
  it("gives every test file a context; test/bool.js reaches the parser and its helpers", async () => {
    const project = await openWitnessProject("npm:minimist@1.2.8");
    expect(project.runner).toBe("tape");
    expect(project.testFiles).toHaveLength(15);
    expect(project.productionFiles).toEqual(["index.js"]);
    expect(project.commandFor(["test/bool.js"])).toEqual([
      process.execPath,
      path.join(project.deps ?? "", "tape/bin/tape"),
      "test/bool.js",
    ]);
    const before = fingerprint(project.dir);
    const { contexts, skipped } = await collectContexts(project, { concurrency: 4 });
    expect(fingerprint(project.dir)).toEqual(before);
    expect(skipped).toEqual([]);
    expect(contexts.map((c) => c.test.file)).toEqual(project.testFiles);
    const bool = contexts.find((c) => c.test.file === "test/bool.js");
    expect(bool?.ordered).toBe(true);
    expect(bool?.functions.slice(0, 2).map((f) => f.id)).toEqual([
      "index.js#module.exports@23",
      "index.js#<anonymous>@39",
    ]);
    expect(bool?.functions.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        "setArg",
        "setKey",
        "isNumber",
        "isConstructorOrProto",
        "hasKey",
        "aliasIsBoolean",
      ]),
    );
    expect(bool).toMatchObject({ length: 15, bucket: "short" });
    expect(contexts.every((c) => c.length >= 5 && c.bucket === "short")).toBe(true);
  });
});

describe("a vitest project", () => {
  it("is traced in order through vitest's workers", async () => {
    const dir = writeProject({
      "package.json": JSON.stringify({ name: "sq", type: "module", scripts: { test: "vitest run" } }),
      "src/math.ts": `export const square = (x: number): number => x * x;
export function sumSquares(xs: number[]): number {
  return xs.reduce((s, x) => s + square(x), 0);
}\n`,
      "src/math.test.ts": `import { expect, test } from "vitest";
import { sumSquares } from "./math.ts";
test("sum of squares", () => expect(sumSquares([1, 2, 3])).toBe(14));\n`,
    });
    symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"));
    const project = await openWitnessProject(dir);
    expect(project.runner).toBe("vitest");
    expect(project.testFiles).toEqual(["src/math.test.ts"]);
    expect(project.productionFiles).toEqual(["src/math.ts"]);
    const { contexts } = await collectContexts(project);
    expect(contexts[0]?.functions.map((f) => [f.name, f.calls])).toEqual([
      ["sumSquares", 1],
      ["<anonymous>", 3],
      ["square", 3],
    ]);
  });
});

describe("opening a project", () => {
  it("refuses a test script with an unsupported runner, with a hint", async () => {
    const dir = writeProject({ "package.json": JSON.stringify({ name: "x", scripts: { test: "ava" } }) });
    const error = await openWitnessProject(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).message).toBe("x: no supported test runner found (test script: ava)");
    expect((error as SetupError).hint).toBe(
      "gauntlet witness needs a test script using node --test, tape, mocha, jest or vitest",
    );
  });

  it("refuses a runner missing from the dependencies", async () => {
    const dir = writeProject({
      "package.json": JSON.stringify({ name: "y", scripts: { test: "tape test/*.js" } }),
      "test/a.js": "",
    });
    await expect(openWitnessProject(dir)).rejects.toThrow("y: uses tape but has no node_modules");
  });
});

describe("reading test scripts", () => {
  const invocation = (scripts: Record<string, string>) => findRunnerInvocation({ scripts });

  it("follows npm run and strips coverage wrappers (minimist, qs)", () => {
    expect(invocation({ "tests-only": "nyc tape 'test/**/*.js'", test: "npm run tests-only" })).toEqual({
      runner: "tape",
      script: "tests-only",
      options: [],
      patterns: ["test/**/*.js"],
      env: {},
      nodeFlags: [],
    });
    expect(
      invocation({
        lint: "eslint .",
        unit: "c8 -r text node --test test/",
        test: "npm run lint && npm run unit",
      }),
    ).toMatchObject({ runner: "node:test", script: "unit", options: ["--test"], patterns: ["test/"] });
  });

  it("keeps options and env, moves NODE_OPTIONS to node flags, drops watch and coverage flags", () => {
    expect(
      invocation({
        test: "cross-env NODE_ENV=test NODE_OPTIONS=--experimental-vm-modules jest --coverage -w 2 --watch",
      }),
    ).toEqual({
      runner: "jest",
      script: "test",
      options: ["-w", "2"],
      patterns: [],
      env: { NODE_ENV: "test" },
      nodeFlags: ["--experimental-vm-modules"],
    });
    expect(invocation({ test: "mocha --require ./setup.js -t 5000 --recursive test/unit" })).toMatchObject({
      runner: "mocha",
      options: ["--require", "./setup.js", "-t", "5000", "--recursive"],
      patterns: ["test/unit"],
    });
    expect(invocation({ test: "vitest run --reporter dot" })).toMatchObject({
      runner: "vitest",
      options: ["--reporter", "dot"],
    });
    expect(invocation({ test: 'echo "Error: no test specified" && exit 1' })).toBeUndefined();
  });

  it("matches runners' default globs", () => {
    const jest = globToRegExp("**/?(*.)+(spec|test).?([mc])[jt]s?(x)");
    expect(["a.test.js", "src/b.spec.tsx", "c.test.mjs"].map((f) => jest.test(f))).toEqual([
      true,
      true,
      true,
    ]);
    expect(["a.js", "testing.js"].map((f) => jest.test(f))).toEqual([false, false]);
    const vitest = globToRegExp("**/*.{test,spec}.?(c|m)[jt]s?(x)");
    expect(["x/y.test.ts", "y.spec.cjs", "y.tests.ts"].map((f) => vitest.test(f))).toEqual([
      true,
      true,
      false,
    ]);
    const notDist = globToRegExp("!(dist|cypress)/**/*.test.ts");
    expect(["src/a.test.ts", "dist/a.test.ts", "distx/a.test.ts"].map((f) => notDist.test(f))).toEqual([
      true,
      false,
      true,
    ]);
    expect(globToRegExp("test/**/*.js").test("test/a/b.js")).toBe(true);
    expect(globToRegExp("test/**/*.js").test("test/b.js")).toBe(true);
  });

  it("tells test, production and other files apart by path", () => {
    expect(["test/a.js", "src/__tests__/b.ts", "src/c.spec.ts", "lib/d.test.mjs"].map(isTestFile)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    const files = [
      "lib/a.js",
      "src/b.ts",
      "types.d.ts",
      "dist/c.js",
      "jest.config.js",
      "example/e.js",
      "x.min.js",
    ];
    expect(files.filter(isProductionFile)).toEqual(["lib/a.js", "src/b.ts"]);
  });
});

describe("probes and buckets", () => {
  it("inserts probes after directives, around arrow expression bodies and after a shebang", () => {
    const text = `#!/usr/bin/env node
'use strict';
const f = (o) => ({ o });
class B extends A { constructor() { super(); } }
`;
    const out = instrumentSource("bin.js", text, 10);
    expect(out?.text).toBe(`#!/usr/bin/env node
'use strict';;globalThis.__gauntletEnter?.(12);
const f = (o) => ((globalThis.__gauntletEnter?.(10), { o }));
class B extends A { constructor() {;globalThis.__gauntletEnter?.(11); super(); } }
`);
    expect(out?.targets.map((t) => (t.kind === "function" ? t.fn.name : `module ${t.file}`))).toEqual([
      "f",
      "constructor",
      "module bin.js",
    ]);
  });

  it("buckets context lengths as WitnessGym §4.1 does", () => {
    expect([1, 40, 41, 70, 71, 120, 121, 500].map(lengthBucket)).toEqual([
      "short",
      "short",
      "mid-short",
      "mid-short",
      "mid-long",
      "mid-long",
      "long",
      "long",
    ]);
  });
});
