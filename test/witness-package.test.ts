import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../src/core/errors.ts";
import { packageCase, readCase, readOracle } from "../src/witness/package.ts";
import { BUGGY_SUM, CLEAN_SUM, makeSumProject, sumCaseInput, WITNESS_TEST } from "./helpers/witness-case.ts";

/** Every file under `dir`, project-relative, sorted. */
function listFiles(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      return e.isDirectory() ? listFiles(dir, rel) : [rel];
    })
    .sort();
}

let clean: string;
let out: string;
let first: Awaited<ReturnType<typeof packageCase>>;

beforeAll(async () => {
  clean = makeSumProject();
  out = mkdtempSync(path.join(os.tmpdir(), "witness-build-"));
  first = await packageCase(out, sumCaseInput(clean));
});

describe("packageCase", () => {
  it("writes the public case and the private oracle under a content-addressed id", () => {
    expect(first.id).toMatch(/^wg-[0-9a-f]{12}$/);
    expect(first.reused).toBe(false);
    expect(first.caseDir).toBe(path.join(out, "cases", first.id));
    expect(first.oracleDir).toBe(path.join(out, "oracle", first.id));
    expect(listFiles(first.caseDir)).toEqual([
      "case.json",
      "repo/package.json",
      "repo/src/sum.js",
      "repo/src/twice.js",
      "repo/test/twice.test.js",
    ]);
    expect(listFiles(first.oracleDir)).toEqual([
      "bug.patch",
      "clean/src/sum.js",
      "oracle.json",
      "witness/test/sum.test.js",
    ]);
    expect(readdirSync(out).sort()).toEqual(["cases", "oracle"]);
  });

  it("puts the buggy text in the snapshot and the originals in the oracle", () => {
    expect(readFileSync(path.join(first.caseDir, "repo/src/sum.js"), "utf8")).toBe(BUGGY_SUM);
    expect(readFileSync(path.join(first.oracleDir, "clean/src/sum.js"), "utf8")).toBe(CLEAN_SUM);
    expect(readFileSync(path.join(first.oracleDir, "witness/test/sum.test.js"), "utf8")).toBe(WITNESS_TEST);
    const patch = readFileSync(path.join(first.oracleDir, "bug.patch"), "utf8");
    expect(patch).toContain("--- a/src/sum.js");
    expect(patch).toContain("-  return a + b;\n+  return a - b;");
  });

  it("reveals neither the clean code nor the witness anywhere in the case folder", () => {
    const files = listFiles(first.caseDir);
    expect(files.some((f) => f.split("/").some((s) => [".git", "node_modules"].includes(s)))).toBe(false);
    for (const f of files) {
      const text = readFileSync(path.join(first.caseDir, f), "utf8");
      expect(text, f).not.toContain("return a + b");
      expect(text, f).not.toContain(CLEAN_SUM.trim());
      expect(text, f).not.toContain(WITNESS_TEST.trim());
      expect(text, f).not.toContain("sum.test.js");
    }
    expect(first.leaks).toEqual([]);
  });

  it("gives every snapshot file and folder the same timestamp", () => {
    const times = new Set(
      [...listFiles(path.join(first.caseDir, "repo")), "src", "test", "."].map(
        (f) => statSync(path.join(first.caseDir, "repo", f)).mtimeMs,
      ),
    );
    expect([...times]).toEqual([Date.parse("2000-01-01T00:00:00Z")]);
  });

  it("writes a case.json that names the bug type, location and context but not the witness", () => {
    const c = readCase(first.caseDir);
    expect(c).toMatchObject({
      id: first.id,
      formatVersion: 1,
      project: { name: "sum", version: "1.0.0", runner: "node:test" },
      bug: { type: "in-bounds-misrouting", category: "logic", title: "In-Bounds Misrouting" },
      location: { file: "src/sum.js", line: 2, function: "sum" },
      context: {
        functions: [{ file: "src/sum.js", name: "sum", line: 1, calls: 1 }],
        ordered: true,
        length: 1,
        bucket: "short",
      },
      metadata: { depth: { requested: 0, applied: 0 }, operators: [] },
    });
    expect(c.report).toBe(
      "Bug type: In-Bounds Misrouting (logic)\nA value is routed to the wrong, but valid, operation or slot.\nLocation: src/sum.js:2, in function `sum`",
    );
    const o = readOracle(first.oracleDir);
    expect(o.witness).toEqual({ path: "test/sum.test.js" });
    expect(o.changedFiles).toEqual([{ path: "src/sum.js", kind: "modified" }]);
    expect(o.candidate.summary).toBe("`a + b` → `a - b`");
  });

  it("reuses the case when the same input is packaged again, without rewriting it", async () => {
    const before = statSync(path.join(first.caseDir, "case.json")).mtimeMs;
    const again = await packageCase(out, sumCaseInput(clean));
    expect(again).toEqual({ ...first, reused: true });
    expect(statSync(path.join(first.caseDir, "case.json")).mtimeMs).toBe(before);
    expect(readdirSync(out).sort()).toEqual(["cases", "oracle"]);
  });

  it("gives another bug a different id", async () => {
    const input = sumCaseInput(clean);
    input.buggyFiles = { "src/sum.js": BUGGY_SUM.replace("a - b", "a * b") };
    const other = await packageCase(out, input);
    expect(other.id).not.toBe(first.id);
    expect(other.reused).toBe(false);
  });

  it("records a built copy of the clean function as a leak", async () => {
    const project = makeSumProject();
    writeFileSync(path.join(project, "dist.js"), `// bundled\n${CLEAN_SUM}`);
    const packed = await packageCase(
      mkdtempSync(path.join(os.tmpdir(), "witness-build-")),
      sumCaseInput(project),
    );
    expect(packed.leaks).toEqual([{ kind: "clean-function", file: "dist.js" }]);
    expect(readOracle(packed.oracleDir).leaks).toEqual(packed.leaks);
  });

  it("removes the witness's snapshot file and records other files named after it", async () => {
    const project = makeSumProject();
    mkdirSync(path.join(project, "test/__snapshots__"));
    writeFileSync(path.join(project, "test/__snapshots__/sum.test.js.snap"), "exports[`adds`] = `5`;\n");
    writeFileSync(path.join(project, "test/sum.test.js.orig"), "old\n");
    writeFileSync(
      path.join(project, "test/checksum.test.js"),
      "// another test, merely ending like the witness\n",
    );
    const packed = await packageCase(
      mkdtempSync(path.join(os.tmpdir(), "witness-build-")),
      sumCaseInput(project),
    );
    expect(existsSync(path.join(packed.caseDir, "repo/test/__snapshots__/sum.test.js.snap"))).toBe(false);
    expect(packed.leaks).toEqual([{ kind: "witness-path", file: "test/sum.test.js.orig" }]);
  });

  it("rejects a witness that is missing from the clean project", async () => {
    const input = { ...sumCaseInput(clean), witness: "test/nope.test.js" };
    await expect(packageCase(out, input)).rejects.toThrow(InputError);
  });

  it("names the file and field of an invalid case.json", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "witness-bad-"));
    const c = JSON.parse(readFileSync(path.join(first.caseDir, "case.json"), "utf8"));
    c.location.line = 0;
    writeFileSync(path.join(dir, "case.json"), JSON.stringify(c));
    expect(() => readCase(dir)).toThrow(`${path.join(dir, "case.json")}: field "location.line"`);
    expect(existsSync(path.join(dir, "nothing"))).toBe(false);
    expect(() => readCase(path.join(dir, "nothing"))).toThrow("file not found");
  });
});
