import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError, SetupError } from "../src/core/errors.ts";
import { parseNpmSpec } from "../src/workspace/npm-source.ts";
import {
  installTestDevDependencies,
  isResolutionFailure,
  MAX_NARROWED_INSTALLS,
  type NpmRun,
  packageName,
  parseUnresolvable,
  readTestFiles,
  sameMajor,
  scriptPrograms,
  testDevDependencies,
} from "../src/workspace/npm-test-deps.ts";
import { runProcess } from "../src/workspace/process.ts";
import { resolveSource } from "../src/workspace/source.ts";
import { detectTestCommand } from "../src/workspace/test-command.ts";
import { createWorkspace } from "../src/workspace/workspace.ts";

describe("detectTestCommand", () => {
  it("prefers a tests-only script over `test`, which often wraps lint and network audits", () => {
    expect(
      detectTestCommand({ scripts: { test: "npm run lint && npm run tests-only", "tests-only": "tape" } }),
    ).toBe("npm run tests-only");
    expect(detectTestCommand({ scripts: { test: "x", "test:only": "y" } })).toBe("npm run test:only");
    expect(detectTestCommand({ scripts: { test: "x", "test:unit": "y", unit: "z" } })).toBe(
      "npm run test:unit",
    );
    expect(detectTestCommand({ scripts: { test: "x", unit: "z" } })).toBe("npm run unit");
  });

  it("falls back to npm test", () => {
    expect(detectTestCommand({ scripts: { test: "vitest run" } })).toBe("npm test");
  });

  it("ignores npm's placeholder test script, empty scripts and malformed manifests", () => {
    expect(
      detectTestCommand({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
    ).toBeUndefined();
    expect(detectTestCommand({ scripts: { test: "  ", build: "tsc" } })).toBeUndefined();
    expect(detectTestCommand({ scripts: { "tests-only": 3, test: "node t.js" } })).toBe("npm test");
    expect(detectTestCommand({})).toBeUndefined();
    expect(detectTestCommand({ scripts: "test" })).toBeUndefined();
    expect(detectTestCommand(null)).toBeUndefined();
    expect(detectTestCommand("package")).toBeUndefined();
  });
});

describe("npm: source specs", () => {
  it("parses names, scoped names and versions", () => {
    expect(parseNpmSpec("npm:minimist@1.2.8")).toEqual({ name: "minimist", version: "1.2.8" });
    expect(parseNpmSpec("npm:minimist")).toEqual({ name: "minimist", version: undefined });
    expect(parseNpmSpec("npm:@types/node@^20")).toEqual({ name: "@types/node", version: "^20" });
    expect(parseNpmSpec("npm:@scope/pkg")).toEqual({ name: "@scope/pkg", version: undefined });
  });

  it("rejects malformed specs with an InputError", () => {
    expect(() => parseNpmSpec("npm:")).toThrow(InputError);
    expect(() => parseNpmSpec("npm:../etc")).toThrow(/not a valid npm package name/);
    expect(() => parseNpmSpec("npm:minimist@")).toThrow(/invalid version/);
    expect(() => parseNpmSpec("npm:minimist@1.2.8;rm -rf")).toThrow(/invalid version/);
  });
});

/** qs 6.17.1's manifest, trimmed: a mirror lacking `@ljharb/eslint-config@^22.2.5` broke its full install. */
const QS_MANIFEST = {
  name: "qs",
  dependencies: { "es-define-property": "^1.0.1", "side-channel": "^1.1.1" },
  devDependencies: {
    "@browserify/envify": "^6.0.0",
    "@ljharb/eslint-config": "^22.2.5",
    browserify: "^16.5.2",
    eslint: "^10.13.0",
    "es-value-fixtures": "^1.7.1",
    "for-each": "^0.3.5",
    "has-symbols": "^1.1.0",
    "iconv-lite": "^0.5.2",
    "mock-property": "^1.1.2",
    nyc: "^10.3.2",
    "object-inspect": "^1.13.4",
    "safer-buffer": "^2.1.2",
    tape: "^5.10.3",
    "@types/tape": "^5.6.0",
  },
  scripts: {
    pretest: "npm run lint",
    test: "npm run tests-only",
    "tests-only": "nyc tape 'test/**/*.js'",
    lint: "eslint .",
  },
};

const QS_TEST_FILES = [
  {
    path: "test/parse.js",
    text: `'use strict';
var test = require('tape');
var hasSymbols = require('has-symbols/shams');
var SaferBuffer = require('safer-buffer').Buffer;
var v = require("es-value-fixtures");
var iconv = require('iconv-lite');
var utils = require('../lib/utils');
var url = require('url'); // Built in, and no dev dependency.
`,
  },
  {
    path: "test/stringify.js",
    text: `import forEach from 'for-each';
import { inspect } from "object-inspect/util.inspect.js";
export { x } from './helpers.js';
import 'node:assert';
const mockProperty = await import('mock-property');
`,
  },
];

const ETARGET_STDERR = `npm error code ETARGET
npm error notarget No matching version found for @ljharb/eslint-config@^22.2.5.
npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-30T19_48_42_235Z-debug-0.log
`;

const E404_STDERR = `npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/@gauntlet-nope%2fzz - Not found
npm error 404
npm error 404  The requested resource '@gauntlet-nope/zz@^1.0.0' could not be found or you do not have permission to access it.
npm error 404
npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log
`;

describe("narrowing dev dependencies to those the tests use", () => {
  it("keeps the dev dependencies the test files import and the test scripts run", () => {
    expect(testDevDependencies(QS_MANIFEST, QS_TEST_FILES)).toEqual([
      "@types/tape",
      "es-value-fixtures",
      "for-each",
      "has-symbols",
      "iconv-lite",
      "mock-property",
      "nyc",
      "object-inspect",
      "safer-buffer",
      "tape",
    ]);
    expect(
      testDevDependencies({ devDependencies: { typescript: "^5", "@types/node": "^20", x: "1" } }, [
        { path: "src/a.spec.ts", text: "" },
      ]),
    ).toEqual(["@types/node", "typescript"]);
    expect(testDevDependencies({ scripts: { test: "tape" } }, QS_TEST_FILES)).toEqual([]);
  });

  it("maps deep specifiers to package names and ignores relative, node: and URL specifiers", () => {
    expect(packageName("x/y/z.js")).toBe("x");
    expect(packageName("@s/x/y")).toBe("@s/x");
    expect(packageName("@s/x")).toBe("@s/x");
    expect(packageName("./x")).toBeUndefined();
    expect(packageName("../")).toBeUndefined();
    expect(packageName("node:fs")).toBeUndefined();
    expect(packageName("https://x.org/y.js")).toBeUndefined();
  });

  it("reads programs from the test scripts and the scripts they npm run", () => {
    const programs = scriptPrograms({
      test: "npm run lint && npm run test:ci",
      "test:ci": "NODE_ENV=test c8 --reporter=text mocha -r ts-node/register 'test/**/*.ts'",
      lint: "eslint .",
      build: "tsc",
    });
    for (const name of ["c8", "mocha", "ts-node", "eslint"]) expect(programs).toContain(name);
    expect(programs).not.toContain("tsc");
  });

  it("finds test files under test/, tests/, __tests__/ and named *.test.* / *.spec.*", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-testfiles-"));
    try {
      for (const f of [
        "test/a.js",
        "tests/sub/b.mjs",
        "src/__tests__/c.ts",
        "src/d.test.js",
        "lib/e.spec.tsx",
      ])
        writeFileRecursive(path.join(dir, f), "require('x')");
      for (const f of ["lib/index.js", "test/data.json", "node_modules/y/test/f.js", "eslint.config.mjs"])
        writeFileRecursive(path.join(dir, f), "require('y')");
      expect(
        readTestFiles(dir)
          .map((f) => f.path)
          .sort(),
      ).toEqual(["lib/e.spec.tsx", "src/__tests__/c.ts", "src/d.test.js", "test/a.js", "tests/sub/b.mjs"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("parses the dependency npm could not resolve from its error output", () => {
    expect(parseUnresolvable(ETARGET_STDERR)).toEqual({
      spec: "@ljharb/eslint-config@^22.2.5",
      name: "@ljharb/eslint-config",
      missingVersion: true,
    });
    expect(parseUnresolvable(E404_STDERR)).toEqual({
      spec: "@gauntlet-nope/zz@^1.0.0",
      name: "@gauntlet-nope/zz",
      missingVersion: false,
    });
    // Older npm (6–8).
    expect(
      parseUnresolvable("npm ERR! notarget No matching version found for tape@>=5.10.3 <6.\n"),
    ).toMatchObject({
      spec: "tape@>=5.10.3 <6",
      name: "tape",
    });
    expect(parseUnresolvable("npm ERR! 404  'left-padd@^1.0.0' is not in this registry.\n")?.name).toBe(
      "left-padd",
    );
    expect(
      parseUnresolvable("npm ERR! 404 Not Found - GET https://r.example/npm/tape/-/tape-5.10.3.tgz\n"),
    ).toEqual({
      spec: "tape",
      name: "tape",
      missingVersion: false,
    });
    expect(parseUnresolvable("npm error code ECONNRESET\nnpm error network aborted\n")).toBeUndefined();
    expect(isResolutionFailure(ETARGET_STDERR)).toBe(true);
    expect(isResolutionFailure(E404_STDERR)).toBe(true);
    expect(
      isResolutionFailure("npm error code ENOTFOUND\nnpm error request to https://registry.npmjs.org failed"),
    ).toBe(false);
  });

  it("widens a single-version range to its major", () => {
    expect(sameMajor("^5.10.3")).toBe("^5");
    expect(sameMajor("=10.3.7")).toBe("^10");
    expect(sameMajor("~0.5.2")).toBe("^0.5");
    expect(sameMajor("^5")).toBeUndefined();
    expect(sameMajor("^1 || ^2")).toBeUndefined();
    expect(sameMajor("github:user/repo")).toBeUndefined();
  });

  const run = (stderr = ""): NpmRun => ({ exitCode: stderr ? 1 : 0, timedOut: false, stderr });
  const tapeMissing =
    "npm error code ETARGET\nnpm error notarget No matching version found for tape@^5.10.3.\n";

  it("retries with the tests' dev dependencies, widening or leaving out those npm cannot resolve", async () => {
    const installs: Record<string, string>[] = [];
    const answers = [run(tapeMissing), run()];
    const result = await installTestDevDependencies(
      QS_MANIFEST,
      () => QS_TEST_FILES,
      run(ETARGET_STDERR),
      async (dev) => {
        installs.push(dev);
        return answers.shift()!;
      },
    );
    expect(installs).toHaveLength(2);
    expect(installs[0]).toMatchObject({ tape: "^5.10.3", nyc: "^10.3.2" });
    expect(installs[0]).not.toHaveProperty("eslint");
    expect(installs[1]).toMatchObject({ tape: "^5" });
    expect(result).toEqual({
      ok: true,
      record: {
        omittedDevDependencies: ["@browserify/envify", "@ljharb/eslint-config", "browserify", "eslint"],
        relaxedDevDependencies: { tape: "^5" },
      },
      summary:
        "full dev install failed (@ljharb/eslint-config@^22.2.5 not in the registry); installed the 10 dev dependencies the tests use (tape@^5 instead of tape@^5.10.3, which is not in the registry)",
    });
  });

  it("widens at once a dev dependency the tests use when it is the one the full install lacked", async () => {
    const installs: Record<string, string>[] = [];
    const result = await installTestDevDependencies(
      QS_MANIFEST,
      () => QS_TEST_FILES,
      run(tapeMissing),
      async (dev) => {
        installs.push(dev);
        return run();
      },
    );
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatchObject({ tape: "^5" });
    expect(result).toMatchObject({ ok: true, record: { relaxedDevDependencies: { tape: "^5" } } });
  });

  it("gives up on other failures, runtime dependencies, and after a few tries", async () => {
    const never = async (): Promise<NpmRun> => {
      throw new Error("must not install");
    };
    const offline = run("npm error code ENOTFOUND\nnpm error network request failed");
    expect(await installTestDevDependencies(QS_MANIFEST, () => [], offline, never)).toEqual({
      ok: false,
      failed: offline,
      context: "",
    });
    const runtime = run("npm error notarget No matching version found for side-channel@^1.1.1.\n");
    expect(await installTestDevDependencies(QS_MANIFEST, () => [], runtime, never)).toMatchObject({
      ok: false,
      context: "dependency side-channel@^1.1.1: ",
    });
    let count = 0;
    const stubborn = await installTestDevDependencies(
      QS_MANIFEST,
      () => QS_TEST_FILES,
      run(ETARGET_STDERR),
      async (dev) => {
        count++;
        const name = Object.keys(dev).sort()[0]!;
        return run(`npm error code E404\nnpm error 404  '${name}@${dev[name]}' is not in this registry.\n`);
      },
    );
    expect(count).toBe(MAX_NARROWED_INSTALLS);
    expect(stubborn).toMatchObject({ ok: false });
    expect((stubborn as { context: string }).context).toMatch(
      /^@ljharb\/eslint-config@\^22\.2\.5 is not in the npm registry, and with only the \d+ dev dependencies the tests use: dependency /,
    );
  });
});

function writeFileRecursive(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The environment a repository's tests run in: ours, minus what the `npm test` running vitest set. */
function cleanEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return env;
}

describe("npm source (network: npm registry; slow the first time)", () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "gauntlet-npmtest-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("resolves npm:minimist@1.2.8, whose own tests pass in a workspace; the second resolve hits the cache", {
    timeout: 300_000,
  }, async () => {
    const source = await resolveSource("npm:minimist@1.2.8");
    expect(source).toMatchObject({
      kind: "npm",
      name: "minimist",
      version: "1.2.8",
      testCommand: "npm run tests-only",
    });
    expect(source.sourceDir.endsWith(path.join("sources", "npm", "minimist@1.2.8", "package"))).toBe(true);
    expect(existsSync(path.join(source.sourceDir, "node_modules"))).toBe(false); // Pristine.
    expect(existsSync(path.join(source.depsDir!, "tape"))).toBe(true);
    expect(source.files).toContain("index.js");
    expect(source.files).toContain("test/parse.js");

    const pristine = readdirSync(source.sourceDir).sort();
    const ws = await createWorkspace(source, { baseDir: scratch });
    try {
      const run = await runProcess(
        { shell: source.testCommand! },
        { cwd: ws.dir, env: cleanEnv(), timeoutMs: 120_000 },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      const passed = /^# pass\s+(\d+)$/m.exec(run.stdout);
      expect(Number(passed?.[1])).toBeGreaterThan(0);
      expect(run.stdout).not.toMatch(/^# fail/m);
      // Coverage output lands in ignored directories: running the tests changes nothing.
      expect(ws.captureStep()).toEqual({ sincePrevious: [], sinceBaseline: [] });
      expect(readdirSync(source.sourceDir).sort()).toEqual(pristine); // The cache was not written to.
    } finally {
      await ws.dispose();
    }

    const started = Date.now();
    const again = await resolveSource("npm:minimist@1.2.8");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(again.sourceDir).toBe(source.sourceDir);
  });

  it("resolves npm:qs@6.17.1, whose tests pass even when a mirror lacks some of its lint and build tools", {
    timeout: 300_000,
  }, async () => {
    const progress: string[] = [];
    const source = await resolveSource("npm:qs@6.17.1", { onProgress: (m) => progress.push(m) });
    expect(source.testCommand).toBe("npm run tests-only");
    expect(existsSync(path.join(source.depsDir!, "tape"))).toBe(true);
    const ready = JSON.parse(readFileSync(path.join(source.sourceDir, "..", "ready.json"), "utf8")) as {
      omittedDevDependencies?: string[];
    };
    // Narrowed only where the full install failed: then the tests' own dev dependencies are still there.
    for (const used of ["tape", "nyc", "for-each", "mock-property"])
      expect(ready.omittedDevDependencies ?? []).not.toContain(used);
    if (ready.omittedDevDependencies && progress.length > 0)
      // Prepared now, not cached before.
      expect(progress.join("\n")).toMatch(/full dev install failed .*installed the \d+ dev dependencies/);

    const ws = await createWorkspace(source, { baseDir: scratch });
    try {
      const run = await runProcess(
        { shell: source.testCommand! },
        { cwd: ws.dir, env: cleanEnv(), timeoutMs: 180_000, maxOutputBytes: 16 * 1024 * 1024 },
      );
      expect(run.exitCode, run.stderr).toBe(0);
      expect(Number(/^# pass\s+(\d+)$/m.exec(run.stdout)?.[1])).toBeGreaterThan(1000);
      expect(run.stdout).not.toMatch(/^# fail/m);
    } finally {
      await ws.dispose();
    }
  });

  it("redoes a half-prepared cache entry (crash before ready.json), also when two resolves race", {
    timeout: 300_000,
  }, async () => {
    const cacheDir = path.join(scratch, "cache");
    const entry = path.join(cacheDir, "sources", "npm", "minimist@1.2.8");
    mkdirSync(path.join(entry, "package"), { recursive: true }); // No ready.json: a crash mid-way.
    const [a, b] = await Promise.all([
      resolveSource("npm:minimist@1.2.8", { cacheDir }),
      resolveSource("npm:minimist@1.2.8", { cacheDir }),
    ]);
    expect(a.sourceDir).toBe(path.join(entry, "package"));
    expect(b.sourceDir).toBe(a.sourceDir);
    expect(JSON.parse(readFileSync(path.join(entry, "ready.json"), "utf8"))).toMatchObject({
      spec: "npm:minimist@1.2.8",
      version: "1.2.8",
    });
    expect(a.files).toContain("index.js");
    expect(readdirSync(path.dirname(entry))).toEqual(["minimist@1.2.8"]); // No temp directories left.
  });

  it("fails with a SetupError naming the spec when the package does not exist", {
    timeout: 60_000,
  }, async () => {
    const spec = "npm:gauntlet-no-such-package-7f3a9c@1.0.0";
    const error = await resolveSource(spec, { cacheDir: path.join(scratch, "cache-404") }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).message).toBe(`${spec}: not found in the npm registry`);
    expect((error as SetupError).hint).toMatch(/npm view/);
  });

  it("resolves a version range to the exact version it names", { timeout: 60_000 }, async () => {
    const source = await resolveSource("npm:minimist@~1.2.8");
    expect(source.version).toBe("1.2.8");
  });
});
