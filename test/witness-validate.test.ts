import { createHash } from "node:crypto";
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
import { classifyTestRun } from "../src/witness/failure.ts";
import { validateWitness } from "../src/witness/validate.ts";
import { detectBwrap } from "../src/workspace/sandbox.ts";

const NODE_TEST = [process.execPath, "--test", "witness.test.mjs"];

/** A node:test witness for `add`; `onWrong` is code run when `add(2, 3)` is not 5, before the assertion. */
function witness(onWrong = "") {
  return {
    path: "witness.test.mjs",
    content: `import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { add } from "./lib.mjs";
test("add(2, 3) is 5", async () => {
  const got = add(2, 3);
  if (got !== 5) {
    ${onWrong}
  }
  assert.equal(got, 5);
});
`,
  };
}

const LIBS = {
  clean: "export function add(a, b) {\n  return a + b;\n}\n",
  buggy: "export function add(a, b) {\n  return a - b;\n}\n",
  "buggy-syntax": "export function add(a, b) {\n  return a + ;\n}\n",
  "buggy-throws": "export function add(a, b) {\n  return a.value.toFixed(b);\n}\n",
};

let root: string;
let before: Map<string, string>;
const dir = (name: keyof typeof LIBS) => path.join(root, name);

/** relative path → sha256 and mode of every file and folder under `top`. */
function fingerprint(top: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      const mode = statSync(full).mode.toString(8);
      if (entry.isDirectory()) {
        out.set(path.relative(top, full), `dir ${mode}`);
        walk(full);
      } else
        out.set(
          path.relative(top, full),
          `${createHash("sha256").update(readFileSync(full)).digest("hex")} ${mode}`,
        );
    }
  };
  walk(top);
  return out;
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "witness-fixtures-"));
  for (const [name, lib] of Object.entries(LIBS)) {
    mkdirSync(path.join(root, name, "docs"), { recursive: true });
    writeFileSync(path.join(root, name, "lib.mjs"), lib);
    writeFileSync(path.join(root, name, "package.json"), '{ "name": "fixture", "type": "module" }\n');
    writeFileSync(path.join(root, name, "docs", "README.md"), "A tiny project.\n");
  }
  before = fingerprint(root);
});

describe("validateWitness", () => {
  it("accepts a witness that passes on clean code and fails with an assertion on buggy code", async () => {
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy"),
      witness: witness(),
      command: NODE_TEST,
    });
    expect(v.reason).toBe("passes on clean code and fails with assertion on buggy code in all 3 runs");
    expect(v.accepted).toBe(true);
    expect(v.clean.map((r) => r.outcome)).toEqual(["pass", "pass", "pass"]);
    expect(v.buggy.map((r) => r.outcome)).toEqual(["assertion", "assertion", "assertion"]);
    expect(v.buggy[0]?.evidence).toBe("not ok 1 - add(2, 3) is 5\ncode: 'ERR_ASSERTION'");
  });

  it("accepts a witness whose buggy run throws a TypeError from production code", async () => {
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy-throws"),
      witness: witness(),
      command: NODE_TEST,
      repeats: 2,
    });
    expect(v.accepted).toBe(true);
    expect(v.buggy.map((r) => r.outcome)).toEqual(["runtime_exception", "runtime_exception"]);
    expect(v.buggy[0]?.evidence).toContain("TypeError");
  });

  it("rejects a witness that fails on clean code too", async () => {
    const failing = {
      path: "witness.test.mjs",
      content: witness().content.replace("assert.equal(got, 5)", "assert.equal(got, 6)"),
    };
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy"),
      witness: failing,
      command: NODE_TEST,
    });
    expect(v.accepted).toBe(false);
    expect(v.reason).toBe("fails on clean code too (assertion)");
    expect(v.clean).toHaveLength(1);
  });

  it("rejects a buggy version that does not parse", async () => {
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy-syntax"),
      witness: witness(),
      command: NODE_TEST,
    });
    expect(v.accepted).toBe(false);
    expect(v.reason).toBe("buggy side fails with syntax, not a semantic failure");
    expect(v.buggy[0]?.evidence).toContain("SyntaxError");
  });

  it("rejects a witness that passes on the second buggy run (counter file in the OS temp dir)", async () => {
    const counter = path.join(os.tmpdir(), `witness-flaky-counter-${process.pid}-${Date.now()}`);
    // Odd count: assert (fails on buggy); even count: return early (passes).
    const flaky = witness(`let n = 0;
    try { n = Number(readFileSync(${JSON.stringify(counter)}, "utf8")); } catch {}
    writeFileSync(${JSON.stringify(counter)}, String(n + 1));
    if ((n + 1) % 2 === 0) return;`);
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy"),
      witness: flaky,
      command: NODE_TEST,
      sandbox: false, // the counter lives outside the copy, which the sandbox makes read-only
    });
    expect(v.accepted).toBe(false);
    expect(v.reason).toBe("flaky: buggy run 2 of 3 passed");
    expect(v.buggy.map((r) => r.outcome)).toEqual(["assertion", "pass"]);
  });

  it.skipIf(!detectBwrap())("hides the answer key (hide) from the witness under bwrap", async () => {
    const secret = mkdtempSync(path.join(os.tmpdir(), "witness-secret-"));
    writeFileSync(path.join(secret, "answer.txt"), "42");
    // The witness takes the buggy path only if it can read the answer: it cannot, so it stays a plain witness.
    const peeking = witness(
      `if (existsSync(${JSON.stringify(path.join(secret, "answer.txt"))})) return;`,
    ).content.replace(
      'import { readFileSync, writeFileSync } from "node:fs";',
      'import { existsSync } from "node:fs";',
    );
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy"),
      witness: { path: "witness.test.mjs", content: peeking },
      command: NODE_TEST,
      repeats: 1,
      hide: [secret],
    });
    expect(v.reason).toBe("passes on clean code and fails with assertion on buggy code in all 1 runs");
    expect(existsSync(path.join(secret, "answer.txt"))).toBe(true);
  });

  it("rejects a witness that hangs on buggy code, killing it at timeoutMs", async () => {
    const hangs = witness("await new Promise(() => setInterval(() => {}, 1000));");
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy"),
      witness: hangs,
      command: NODE_TEST,
      timeoutMs: 2500,
    });
    expect(v.accepted).toBe(false);
    expect(v.reason).toBe("timeout on buggy");
    expect(v.buggy[0]?.timedOut).toBe(true);
    expect(v.clean[0]?.outcome).toBe("pass");
  });

  it("reports a command that cannot start as a harness failure on clean code", async () => {
    const v = await validateWitness({
      clean: dir("clean"),
      buggy: dir("buggy"),
      witness: witness(),
      command: ["/nonexistent/node-binary"],
      sandbox: false, // under bwrap the spawn succeeds and bwrap itself reports the missing program
    });
    expect(v.reason).toBe("fails on clean code too (harness)");
    expect(v.clean[0]?.evidence).toContain("could not start /nonexistent/node-binary");
  });

  it("refuses a witness path outside the project", async () => {
    await expect(
      validateWitness({
        clean: dir("clean"),
        buggy: dir("buggy"),
        witness: { path: "../escape.test.mjs", content: "" },
        command: NODE_TEST,
      }),
    ).rejects.toThrow("witness path must be a file inside the project");
  });

  // Runs last (tests in a file run in order): every validation above used these folders.
  it("leaves the input folders byte-identical and removes its temp folders", () => {
    expect(fingerprint(root)).toEqual(before);
    expect(readdirSync(os.tmpdir()).filter((n) => n.startsWith("gauntlet-witness-"))).toEqual([]);
  });
});

describe("classifyTestRun", () => {
  const failed = (stdout: string, stderr = "") =>
    classifyTestRun({ exitCode: 1, timedOut: false, stdout, stderr });

  it("reads a node:test (TAP) assertion failure", () => {
    const out = `TAP version 13
# Subtest: adds
not ok 1 - adds
  ---
  duration_ms: 2.43
  location: '/tmp/p/witness.test.mjs:2:1'
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:

    -1 !== 5

  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  expected: 5
  actual: -1
  operator: 'strictEqual'
  ...
1..1
# tests 1
# pass 0
# fail 1
`;
    expect(failed(out)).toEqual({ outcome: "assertion", evidence: "not ok 1 - adds\ncode: 'ERR_ASSERTION'" });
  });

  it("reads a node:test (TAP) TypeError as a runtime exception", () => {
    const out = `TAP version 13
# Subtest: boom
not ok 1 - boom
  ---
  failureType: 'testCodeFailure'
  error: "Cannot read properties of null (reading 'x')"
  code: 'ERR_TEST_FAILURE'
  name: 'TypeError'
  stack: |-
    boom (file:///tmp/p/lib.mjs:2:37)
  ...
# tests 1
# fail 1
`;
    expect(failed(out)).toEqual({
      outcome: "runtime_exception",
      evidence: "not ok 1 - boom\nname: 'TypeError'",
    });
  });

  it("reads a node:test (spec reporter) assertion failure", () => {
    const out = `✖ adds (1.2ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  -1 !== 5

ℹ tests 1
ℹ pass 0
ℹ fail 1
`;
    expect(failed(out).outcome).toBe("assertion");
  });

  it("lets a compile-time SyntaxError win over a later assertion line", () => {
    const out = `TAP version 13
# file:///tmp/p/lib.mjs:2
#   return a + ;
#              ^
# SyntaxError: Unexpected token ';'
# Subtest: /tmp/p/witness.test.mjs
not ok 1 - /tmp/p/witness.test.mjs
  code: 'ERR_ASSERTION'
# tests 1
# fail 1
`;
    expect(failed(out)).toEqual({ outcome: "syntax", evidence: "SyntaxError: Unexpected token ';'" });
  });

  it("counts a SyntaxError from JSON.parse as a runtime exception", () => {
    const out = `not ok 1 - parses config
  ---
  error: 'Unexpected token } in JSON at position 9'
  name: 'SyntaxError'
  ...
`;
    expect(failed(out).outcome).toBe("runtime_exception");
  });

  it("reads a missing module or export as an import failure", () => {
    const missing = `# Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/p/missing.mjs' imported from /tmp/p/w.test.mjs
not ok 1 - /tmp/p/w.test.mjs
`;
    expect(failed(missing).outcome).toBe("import");
    expect(
      failed("# SyntaxError: The requested module './lib.mjs' does not provide an export named 'sub'")
        .outcome,
    ).toBe("import");
  });

  it("reads tape: operator equal is an assertion, operator error is a runtime exception", () => {
    const assertion = `TAP version 13
# add
not ok 1 should be strictly equal
  ---
    operator: equal
    expected: 5
    actual:   -1
    stack: |-
      Error: should be strictly equal
          at Test.assert [as _assert] (/p/node_modules/tape/lib/test.js:314:54)
  ...

1..1
# tests 1
# pass  0
# fail  1
`;
    expect(failed(assertion)).toEqual({
      outcome: "assertion",
      evidence: "not ok 1 should be strictly equal\noperator: equal",
    });
    const thrown = `TAP version 13
# add
not ok 1 TypeError: Cannot read properties of undefined (reading 'toFixed')
  ---
    operator: error
    stack: |-
      TypeError: Cannot read properties of undefined (reading 'toFixed')
          at add (/p/lib.js:2:18)
  ...
# tests 1
# fail  1
`;
    expect(failed(thrown).outcome).toBe("runtime_exception");
  });

  it("reads mocha: chai assertion, runtime exception and runner timeout", () => {
    const chai = `

  add
    1) adds two numbers


  0 passing (6ms)
  1 failing

  1) add
       adds two numbers:

      AssertionError: expected -1 to equal 5
      + expected - actual

      -1
      +5

      at Context.<anonymous> (test/add.test.js:6:27)
`;
    expect(failed(chai)).toEqual({
      outcome: "assertion",
      evidence: "1) add\nAssertionError: expected -1 to equal 5",
    });
    const typeError = `  0 passing (4ms)
  1 failing

  1) add
       adds two numbers:
     TypeError: Cannot read properties of undefined (reading 'toFixed')
      at add (lib.js:2:18)
`;
    expect(failed(typeError).outcome).toBe("runtime_exception");
    const timeout = `  1) add
       waits:
     Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called; if returning a Promise, ensure it resolves. (/p/test/add.test.js)
`;
    expect(failed(timeout).outcome).toBe("timeout");
  });

  it("reads jest: expect(received) assertion, unexpected token, no tests", () => {
    const assertion = `FAIL ./add.test.js
  add
    ✕ adds two numbers (3 ms)

  ● add › adds two numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: 5
    Received: -1

Tests:       1 failed, 1 total
`;
    expect(failed("", assertion)).toEqual({
      outcome: "assertion",
      evidence: "● add › adds two numbers\nexpect(received).toBe(expected) // Object.is equality",
    });
    const syntax = `FAIL ./add.test.js
  ● Test suite failed to run

    Jest encountered an unexpected token

    SyntaxError: /p/lib.js: Unexpected token (2:13)
`;
    expect(failed("", syntax).outcome).toBe("syntax");
    expect(
      failed("No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0").outcome,
    ).toBe("no_tests");
  });

  it("reads vitest: chai assertion, failed import, no test files", () => {
    const assertion = ` FAIL  test/add.test.ts > add > adds two numbers
AssertionError: expected -1 to be 5 // Object.is equality

- Expected
+ Received

- 5
+ -1

 Test Files  1 failed (1)
      Tests  1 failed (1)
`;
    expect(failed(assertion)).toEqual({
      outcome: "assertion",
      evidence:
        "FAIL  test/add.test.ts > add > adds two numbers\nAssertionError: expected -1 to be 5 // Object.is equality",
    });
    const importFail = ` FAIL  test/add.test.ts [ test/add.test.ts ]
Error: Failed to load url ../src/missing (resolved id: ../src/missing) in /p/test/add.test.ts. Does the file exist?
`;
    expect(failed(importFail).outcome).toBe("import");
    expect(failed("No test files found, exiting with code 1\n").outcome).toBe("no_tests");
  });

  it("applies the status rules first: harness, timeout, pass, no tests", () => {
    expect(
      classifyTestRun({
        exitCode: 127,
        timedOut: false,
        stdout: "",
        stderr: "bash: mocha: command not found\n",
      }),
    ).toEqual({ outcome: "harness", evidence: "bash: mocha: command not found" });
    expect(classifyTestRun({ exitCode: null, timedOut: true, stdout: "not ok 1", stderr: "" }).outcome).toBe(
      "timeout",
    );
    expect(
      classifyTestRun({ exitCode: 0, timedOut: false, stdout: "# tests 3\n# pass 3\n", stderr: "" }).outcome,
    ).toBe("pass");
    expect(
      classifyTestRun({ exitCode: 0, timedOut: false, stdout: "1..0\n# tests 0\n# pass  0\n", stderr: "" }),
    ).toEqual({ outcome: "no_tests", evidence: "# tests 0" });
    expect(failed("something went wrong\n").outcome).toBe("harness");
  });
});
