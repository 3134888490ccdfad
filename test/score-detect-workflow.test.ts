import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TrajectoryEvent } from "../src/core/trajectory.ts";
import { contextCoupling } from "../src/score/detect/context-coupling.ts";
import { sameFile, shellFiles } from "../src/score/detect/paths.ts";
import { buildView } from "../src/score/detect/view.ts";
import { wrapperWorkflow } from "../src/score/detect/wrapper-workflow.ts";
import { importTrajectory } from "../src/score/import/index.ts";
import { MadeUp } from "./helpers/made-up-trajectory.ts";

/**
 * Score suite, workflow-architecture detectors (ProcCtrlBench App. A.3): Wrapper Workflow and Context
 * Coupling, on made-up trajectories (event ids `e1`, `e2`, … in order of addition) and on real agent logs.
 */

const DATA = path.resolve(__dirname, "../data/trajectories");
const run = (detector: typeof wrapperWorkflow, events: TrajectoryEvent[]) =>
  detector.detect(buildView(events));

const REPORT =
  "The parser lives in src/parser/tokenizer.ts and src/parser/grammar.ts. Tokenization splits identifiers, " +
  "numbers and operators; the grammar builds expression trees with precedence climbing. Error recovery " +
  "resynchronises at semicolons. Tests sit in tests/parser_roundtrip.spec.ts.";

describe("wrapper-workflow", () => {
  it("flags a sub-agent report the next message relays verbatim", () => {
    const t = new MadeUp()
      .user("explain the parser")
      .tool("Task", { prompt: "explain the parser" }, REPORT)
      .say(REPORT);
    const f = run(wrapperWorkflow, t.events);
    expect(f.score).toBe(1);
    expect(f.instances.map((i) => i.events)).toEqual([["e2", "e3", "e4"]]);
  });

  it("does not flag a report the parent builds on", () => {
    const t = new MadeUp()
      .user("explain the parser")
      .tool("Task", { prompt: "explain the parser" }, REPORT)
      .say("Now I know where the tokenizer is; let me fix the bug.");
    expect(run(wrapperWorkflow, t.events).score).toBe(0);
  });

  it("flags a one-command script written and run once", () => {
    const t = new MadeUp()
      .user("run the tests")
      .write("/w/run_tests.sh", "#!/bin/bash\n# run the suite\npytest tests/\n")
      .bash("bash run_tests.sh", "3 passed");
    const f = run(wrapperWorkflow, t.events);
    expect(f.score).toBe(1);
    expect(f.instances.map((i) => i.events)).toEqual([["e2", "e5"]]);
  });

  it("flags bash -c around one plain command", () => {
    const t = new MadeUp().user("list").bash('bash -c "ls -la src"', "a.ts");
    const f = run(wrapperWorkflow, t.events);
    expect(f.score).toBe(1);
    expect(f.instances.map((i) => i.events)).toEqual([["e2"]]);
  });

  it("does not flag real scripts, reused scripts, compound nesting or shells that xargs/find need", () => {
    const t = new MadeUp()
      .user("build")
      .write("/w/build.sh", "#!/bin/bash\nnpm ci\nnpm run build\n")
      .bash("bash build.sh")
      .write("/w/check.sh", "pytest -q\n")
      .bash("sh check.sh")
      .bash("sh ./check.sh")
      .bash('bash -c "cd web && npm test"')
      .bash("find . -name '*.log' -exec sh -c 'gzip \"$1\"' _ {} \\;")
      .bash("ls *.txt | xargs -n1 sh -c 'wc -l $0'");
    expect(run(wrapperWorkflow, t.events)).toMatchObject({ score: 0, rawScore: 0 });
  });

  it("exempts wrappers that add a policy: set -e, timeout, environment, logging, cd (App. A.3)", () => {
    const t = new MadeUp()
      .user("go")
      .write("/w/ci.sh", "#!/bin/bash\nset -euo pipefail\npytest tests/\n") // e2
      .bash("bash /w/ci.sh") // e5
      .bash('timeout 60 bash -c "pytest tests"') // e8
      .bash('FOO=1 bash -c "make test"') // e11
      .bash('bash -c "pytest" | tee run.log') // e14
      .bash('cd /w && bash -c "make"'); // e17
    const f = run(wrapperWorkflow, t.events);
    expect(f.score).toBe(0);
    expect(f.rawScore).toBe(5);
    expect(f.exempted.map((x) => [x.events, x.reason])).toEqual([
      [["e8"], "adds a timeout"],
      [["e11"], "sets up the environment"],
      [["e14"], "logs its output"],
      [["e17"], "changes directory first"],
      [["e2", "e5"], "enforces fail-fast (set -e / pipefail)"],
    ]);
  });
});

describe("context-coupling", () => {
  it("scores the widest correction after a failed check; narrower ones are kept at weight 0", () => {
    const t = new MadeUp()
      .user("fix the build")
      .bash("npm test", "2 failing", 1) // e2
      .edit("/w/src/a.ts", "a1", "a2") // e5
      .edit("/w/src/b.ts", "b1", "b2") // e8
      .edit("/w/src/c.ts", "c1", "c2") // e11
      .write("/w/src/d.ts", "export {}") // e14
      .bash("npm test", "1 failing", 1) // e17
      .edit("/w/src/a.ts", "a2", "a3") // e20
      .edit("/w/src/e.ts", "e1", "e2") // e23
      .edit("/w/src/f.ts", "f1", "f2") // e26
      .bash("npm test", "ok"); // e29
    const f = run(contextCoupling, t.events);
    expect(f.score).toBe(4);
    expect(f.instances.map((i) => [i.events, i.weight])).toEqual([
      [["e2", "e5", "e8", "e11", "e14"], 4],
      [["e17", "e20", "e23", "e26"], 0],
    ]);
  });

  it("scratch files a shell command first makes during a correction are not units being corrected", () => {
    const t = new MadeUp()
      .user("fix")
      .read("/w/src/a.py", "x = 1")
      .bash("pytest", "1 failed", 1)
      .edit("/w/src/a.py", "x", "y")
      .bash("cat > test_edge.py << 'EOF'\nprint(1)\nEOF", "")
      .bash("cat > test_stdin.py << 'EOF'\nprint(2)\nEOF", "")
      .bash("git diff > patch.txt", "");
    expect(run(contextCoupling, t.events).score).toBe(0);
  });

  it("does not flag a local correction of one or two files", () => {
    const t = new MadeUp()
      .user("fix")
      .bash("pytest", "1 failed", 1)
      .edit("/w/a.py", "x", "y")
      .edit("/w/tests/test_a.py", "x", "y")
      .bash("pytest", "ok");
    expect(run(contextCoupling, t.events)).toMatchObject({ score: 0, rawScore: 0 });
  });

  it("ends a correction at the next user turn", () => {
    const t = new MadeUp()
      .user("fix")
      .bash("pytest", "1 failed", 1)
      .edit("/w/a.py", "x", "y")
      .user("also rename things")
      .edit("/w/b.py", "x", "y")
      .edit("/w/c.py", "x", "y");
    expect(run(contextCoupling, t.events).score).toBe(0);
  });

  it("exempts intended batch work: the same edit across files (a rename)", () => {
    const t = new MadeUp()
      .user("fix")
      .bash("cargo test", "error[E0425]: cannot find value `old_name`", 101) // e2
      .edit("/w/src/a.rs", "old_name", "new_name") // e5
      .edit("/w/src/b.rs", "old_name", "new_name") // e8
      .edit("/w/src/c.rs", "old_name", "new_name") // e11
      .edit("/w/src/d.rs", "old_name", "new_name") // e14
      .bash("cargo test", "ok");
    const f = run(contextCoupling, t.events);
    expect(f.score).toBe(0);
    expect(f.rawScore).toBe(4);
    expect(f.exempted).toHaveLength(1);
    expect(f.exempted[0]?.events).toEqual(["e2", "e5", "e8", "e11", "e14"]);
    expect(f.exempted[0]?.reason).toBe("intended batch work: the same edit on 4 files");
  });

  it("counts thousands of characters of earlier output pasted into a delegation", () => {
    const lines = Array.from({ length: 30 }, (_, i) =>
      `ERROR worker-${String(i).padStart(2, "0")} `.padEnd(79, "x"),
    );
    const t = new MadeUp()
      .user("why does it crash")
      .bash("cat crash.log", lines.join("\n")) // e2, result e4
      .tool("Task", { prompt: `Investigate this crash:\n${lines.join("\n")}\nReport the root cause.` }); // e5
    const f = run(contextCoupling, t.events);
    expect(f.score).toBe(2.4);
    expect(f.instances.map((i) => i.events)).toEqual([["e5", "e4"]]);
  });

  it("does not count a short delegation prompt", () => {
    const t = new MadeUp()
      .user("go")
      .bash("cat crash.log", "boom")
      .tool("Task", { prompt: "Find the root cause of the crash." });
    expect(run(contextCoupling, t.events).score).toBe(0);
  });
});

describe("files named by shell commands and tool paths", () => {
  it("reads the operands of plain reads and the targets of writes", () => {
    expect(shellFiles("sed -n '1,80p' src/a.ts && cat 'my file.py' | head -5")).toEqual({
      reads: ["src/a.ts", "my file.py"],
      writes: [],
    });
    expect(shellFiles("sed -i 's/a b/c/' x.py y.py; echo hi >> log.txt 2>&1; cp a.txt b/c.txt")).toEqual({
      reads: [],
      writes: ["x.py", "y.py", "log.txt", "b/c.txt"],
    });
    expect(shellFiles("type C:\\Users\\me\\notes.txt").reads).toEqual(["C:\\Users\\me\\notes.txt"]);
  });

  it("matches a relative path to the absolute path it ends, not to another absolute path", () => {
    expect(sameFile("/w/src/a.ts", "src/a.ts")).toBe(true);
    expect(sameFile("./src/a.ts", "src/a.ts")).toBe(true);
    expect(sameFile("C:\\w\\a.ps1", "C:/w/a.ps1")).toBe(true);
    expect(sameFile("/w/src/a.ts", "/v/src/a.ts")).toBe(false);
    expect(sameFile("/w/src/a.ts", "rc/a.ts")).toBe(false);
  });
});

describe("workflow detectors on real logs", () => {
  const files = ["claude-code-jsonl", "codex-rollout", "codex-exec-json", "gemini-cli-json"].flatMap((dir) =>
    readdirSync(path.join(DATA, dir))
      .filter((f) => /\.jsonl?$/.test(f))
      .map((f) => path.join(dir, f)),
  );

  it.each(files)(
    "%s: no wrapper or coupling (none of these runs delegates verbatim or fails a check)",
    async (file) => {
      const view = buildView((await importTrajectory(path.join(DATA, file))).events);
      expect(wrapperWorkflow.detect(view).rawScore).toBe(0);
      expect(contextCoupling.detect(view).rawScore).toBe(0);
    },
  );

  it("processes 50,000 events without quadratic blow-up", () => {
    const t = new MadeUp().user("go");
    for (let i = 0; t.events.length < 50000; i++) {
      t.bash("npm test", "failing", i % 3 === 0 ? 1 : 0);
      t.edit(`/w/src/f${i % 700}.ts`, `v${i}`, `v${i + 1}`);
      t.write(`/w/s${i % 300}.sh`, "make\n");
      t.bash(`bash s${i % 300}.sh`);
      if (i % 50 === 0) t.tool("Task", { prompt: "look" }, REPORT).say(REPORT);
    }
    expect(run(wrapperWorkflow, t.events).score).toBeGreaterThanOrEqual(0);
    expect(run(contextCoupling, t.events).score).toBeGreaterThanOrEqual(0);
  });
});
