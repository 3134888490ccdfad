import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError, SetupError } from "../src/core/errors.ts";
import { parseNpmSpec } from "../src/workspace/npm-source.ts";
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
