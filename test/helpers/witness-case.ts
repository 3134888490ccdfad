import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CaseInput } from "../../src/witness/package.ts";
import type { BugTypeSpec } from "../../src/witness/types.ts";

/** A tiny node:test project, a hand-made bug in it and the case input the build stage would pass. */

export const CLEAN_SUM = "export function sum(a, b) {\n  return a + b;\n}\n";
export const BUGGY_SUM = "export function sum(a, b) {\n  return a - b;\n}\n";
export const WITNESS_TEST = `import test from "node:test";
import assert from "node:assert/strict";
import { sum } from "../src/sum.js";

test("adds two numbers", () => {
  assert.equal(sum(2, 3), 5);
});
`;
const OTHER_TEST = `import test from "node:test";
import assert from "node:assert/strict";
import { twice } from "../src/twice.js";

test("doubles", () => {
  assert.equal(twice(4), 8);
});
`;

/** The runner of the tiny project. */
export const nodeTest = (files: readonly string[]) => [process.execPath, "--test", ...files];

/** Make the project in a fresh temp folder, with a `.git` and a `node_modules` that must never be packaged. */
export function makeSumProject(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "witness-sum-"));
  const files: Record<string, string> = {
    "package.json":
      '{ "name": "sum", "version": "1.0.0", "type": "module", "scripts": { "test": "node --test" } }\n',
    "src/sum.js": CLEAN_SUM,
    "src/twice.js": "export function twice(x) {\n  return x * 2;\n}\n",
    "test/sum.test.js": WITNESS_TEST,
    "test/twice.test.js": OTHER_TEST,
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/objects/secret": "the clean history\n",
    "node_modules/dep/index.js": "module.exports = 1;\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const BUG_TYPE: BugTypeSpec = {
  id: "in-bounds-misrouting",
  category: "logic",
  title: "In-Bounds Misrouting",
  description: "A value is routed to the wrong, but valid, operation or slot.",
  jsAnalogue: "same",
  required: [],
  forbidden: [],
  runtimeEffect: "assertion",
  trigger: "any input",
};

/** The case input for the `a + b` → `a - b` bug, witnessed by test/sum.test.js. */
export function sumCaseInput(clean: string): CaseInput {
  const site = CLEAN_SUM.indexOf("a + b");
  return {
    project: { spec: clean, name: "sum", version: "1.0.0", runner: "node:test" },
    clean,
    buggyFiles: { "src/sum.js": BUGGY_SUM },
    witness: "test/sum.test.js",
    context: {
      test: { file: "test/sum.test.js" },
      functions: [{ id: "src/sum.js#sum@1", file: "src/sum.js", name: "sum", line: 1, calls: 1 }],
      ordered: true,
      length: 1,
      bucket: "short",
      cleanOutcome: "pass",
      durationMs: 40,
    },
    bugType: BUG_TYPE,
    candidate: {
      id: "0123456789ab",
      type: "in-bounds-misrouting",
      function: { id: "src/sum.js#sum@1", file: "src/sum.js", name: "sum", line: 1 },
      location: { file: "src/sum.js", line: 2, span: { start: site, end: site + 5 } },
      edits: [{ file: "src/sum.js", start: site + 2, end: site + 3, text: "-" }],
      site: { start: site, end: site + 5 },
      summary: "`a + b` → `a - b`",
    },
    location: { file: "src/sum.js", line: 2, function: "sum" },
    transform: { requestedDepth: 0, steps: [], applied: [] },
    validation: {
      accepted: true,
      reason: "passes on clean code and fails with assertion on buggy code in all 2 runs",
      clean: [],
      buggy: [],
    },
  };
}
