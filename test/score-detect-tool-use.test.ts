import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyCommand } from "../src/score/detect/commands.ts";
import { deadStep } from "../src/score/detect/dead-step.ts";
import { duplicateStep } from "../src/score/detect/duplicate-step.ts";
import { longChain } from "../src/score/detect/long-chain.ts";
import { toolCallChain } from "../src/score/detect/tool-call-chain.ts";
import { buildView } from "../src/score/detect/view.ts";
import { importTrajectory } from "../src/score/import/index.ts";
import { MadeUp } from "./helpers/made-up-trajectory.ts";

const DATA = path.join(import.meta.dirname, "..", "data", "trajectories");
const run = (d: typeof duplicateStep, t: MadeUp) => d.detect(buildView(t.events));

describe("duplicate-step (App. A.2)", () => {
  it("counts a call repeated with no state change in between, with both calls as evidence", () => {
    const t = new MadeUp().user("fix it").read("a.ts").bash("ls src").read("a.ts").read("a.ts");
    const f = run(duplicateStep, t);
    expect(f.score).toBe(2);
    expect(f.instances.map((i) => i.events)).toEqual([
      ["e2", "e7"],
      ["e7", "e9"],
    ]);
  });

  it("does not count a re-read after the file was edited", () => {
    const t = new MadeUp().read("a.ts").edit("a.ts", "x", "y").read("a.ts");
    expect(run(duplicateStep, t).score).toBe(0);
  });

  it("exempts a validation rerun after intervening edits, keeping it as evidence", () => {
    const t = new MadeUp().bash("npm test", "1 failed", 1).edit("a.ts", "x", "y").bash("npm test", "ok");
    const f = run(duplicateStep, t);
    expect(f.score).toBe(0);
    expect(f.rawScore).toBe(1);
    expect(f.exempted[0]?.reason).toMatch(/validation rerun/);
  });

  it("counts a validation rerun with nothing changed in between", () => {
    const t = new MadeUp().bash("npm test", "1 failed", 1).bash("npm test", "1 failed", 1);
    expect(run(duplicateStep, t).score).toBe(1);
  });

  it("exempts time-varying commands", () => {
    const t = new MadeUp().bash("git status", "clean").bash("git status", "clean");
    const f = run(duplicateStep, t);
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.reason).toMatch(/time-varying/);
  });

  it("exempts intended batch processing (same operation on other targets) but counts number-only variants that show nothing new", () => {
    const batch = new MadeUp().read("part1.ts").read("part2.ts").read("part3.ts");
    const f = run(duplicateStep, batch);
    expect(f.score).toBe(0);
    expect(f.exempted).toHaveLength(2);
    expect(f.exempted[0]?.reason).toMatch(/batch/);
    const lines = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `${from + i}: line ${from + i}`).join("\n");
    const again = new MadeUp()
      .tool("Read", { file_path: "a.ts", offset: 100 }, lines(100, 10))
      .tool("Read", { file_path: "a.ts", offset: 101 }, lines(101, 9));
    expect(run(duplicateStep, again).score).toBe(1);
    // Paging on through the file, or zooming in on a few of the lines shown, is not a repeat.
    const paging = new MadeUp()
      .tool("Read", { file_path: "a.ts", offset: 100 }, lines(100, 10))
      .tool("Read", { file_path: "a.ts", offset: 110 }, lines(110, 10));
    expect(run(duplicateStep, paging).score).toBe(0);
    const zoom = new MadeUp()
      .tool("Read", { file_path: "a.ts", offset: 100 }, lines(100, 100))
      .tool("Read", { file_path: "a.ts", offset: 140 }, lines(140, 5));
    expect(run(duplicateStep, zoom).score).toBe(0);
  });

  it("judges state change by effect: a failed edit changes nothing, an unknown command repeats only with the same output", () => {
    const retried = new MadeUp()
      .tool("edit", { path: "a.py", range: "1:3" }, "E999 SyntaxError", { isError: true })
      .tool("edit", { path: "a.py", range: "1:3" }, "E999 SyntaxError", { isError: true });
    expect(run(duplicateStep, retried).score).toBe(1);
    const same = new MadeUp().bash("python x.py", "boom", 1).bash("python x.py", "boom", 1);
    expect(run(duplicateStep, same).score).toBe(1);
    const changed = new MadeUp().bash("python x.py", "step 1", 0).bash("python x.py", "step 2", 0);
    expect(run(duplicateStep, changed).score).toBe(0);
    // A re-read of a file nothing wrote is a repeat, even if another file changed in between.
    const reread = new MadeUp().read("a.py", "A").edit("b.py", "x", "y").read("a.py", "A");
    expect(run(duplicateStep, reread).score).toBe(1);
  });

  it("counts todo updates with no other action in between, not those alongside work", () => {
    const churn = new MadeUp()
      .tool("write_todos", { todos: [{ t: "a", s: "pending" }] })
      .tool("write_todos", { todos: [{ t: "a", s: "in_progress" }] })
      .tool("write_todos", { todos: [{ t: "a", s: "done" }] });
    expect(run(duplicateStep, churn).score).toBe(2);
    const work = new MadeUp()
      .tool("TodoWrite", { todos: ["a"] })
      .bash("npm test", "ok", 0)
      .tool("TodoWrite", { todos: ["a done"] });
    expect(run(duplicateStep, work).score).toBe(0);
  });

  it("a user turn in between makes a repeat legitimate", () => {
    const t = new MadeUp().read("a.ts").user("I changed it, look again").read("a.ts");
    expect(run(duplicateStep, t).score).toBe(0);
  });

  it("counts a look at part of a file already read in full and unchanged, even after a user turn, not once it changed", () => {
    const body = Array.from({ length: 30 }, (_, i) => `line ${i} of the service`).join("\n");
    const part = body.split("\n").slice(10, 14).join("\n");
    const t = new MadeUp()
      .read("/home/<user>/app/svc.ts", body)
      .user("what does line 12 do?")
      .tool("Read", { file_path: "/home/<user>/app/svc.ts", offset: 10, limit: 4 }, part)
      .bash("grep -n service /home/<user>/app/svc.ts", "12:line 11 of the service");
    const f = run(duplicateStep, t);
    expect(f.instances.map((i) => i.events)).toEqual([
      ["e1", "e4"],
      ["e1", "e6"],
    ]);
    // An unrecognised script rewrote the file in between: the re-read shows new lines, so it is no repeat.
    const rewritten = new MadeUp()
      .read("svc.ts", body)
      .bash("python patch.py", "patched")
      .bash("sed -n '10,14p' svc.ts", "line 10 of the PATCHED service\nnew line");
    expect(run(duplicateStep, rewritten).score).toBe(0);
    // A read from the first line that returned fewer lines than asked showed the whole file.
    const short = new MadeUp()
      .bash("cd /w && sed -n '1,200p' 'app/(protected)/page.tsx'", "one\ntwo\nthree")
      .bash("cd /w && nl -ba app/\\(protected\\)/page.tsx", "     1\tone\n     2\ttwo\n     3\tthree");
    expect(run(duplicateStep, short).score).toBe(1);
    // A part read first is not a whole read: a later part is paging, not a repeat.
    const paging = new MadeUp()
      .tool("Read", { file_path: "svc.ts", offset: 0, limit: 10 }, part)
      .tool("Read", { file_path: "svc.ts", offset: 10, limit: 10 }, part);
    expect(run(duplicateStep, paging).instances.filter((i) => /in full/.test(i.note))).toEqual([]);
  });

  it("package installs and virtualenvs change the environment, not the files a re-read looks at", () => {
    const t = new MadeUp()
      .read("main.py", "print(1)")
      .bash("python3 -m venv venv", "")
      .bash("source /home/<user>/venv/bin/activate && pip install requests", "ok")
      .read("main.py", "print(1)");
    expect(run(duplicateStep, t).score).toBe(1);
    // A command the environment rule does not cover still bumps the state.
    const mutated = new MadeUp()
      .read("main.py", "print(1)")
      .bash("git checkout other", "")
      .read("main.py", "x");
    expect(run(duplicateStep, mutated).score).toBe(0);
  });

  it("a build in between makes a re-read of its output legitimate", () => {
    const t = new MadeUp()
      .bash("cat _build/index.html", "<p>old</p>")
      .bash("sphinx-build -b html . _build", "build succeeded")
      .bash("cat _build/index.html", "<p>old</p>");
    expect(run(duplicateStep, t).score).toBe(0);
    const noBuild = new MadeUp()
      .bash("cat _build/index.html", "<p>old</p>")
      .bash("cat _build/index.html", "<p>old</p>");
    expect(run(duplicateStep, noBuild).score).toBe(1);
  });

  it("a harness submission command is never a repeat", () => {
    const t = new MadeUp()
      .bash("cat patch.txt", "diff --git a/x b/x")
      .bash("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt", "diff --git a/x b/x");
    expect(run(duplicateStep, t).score).toBe(0);
  });

  it("keys sent to a running command are never repeats, and an interrupted command can be rerun", () => {
    const t = new MadeUp()
      .bash("python3 slow.py", "", -1)
      .bash("C-c", "^C")
      .bash("python3 slow.py", "", -1)
      .bash("C-c", "^C");
    expect(run(duplicateStep, t).score).toBe(0);
    // Without the key in between, the same hung command twice is a repeat.
    const plain = new MadeUp().bash("python3 slow.py", "", -1).bash("python3 slow.py", "", -1);
    expect(run(duplicateStep, plain).score).toBe(1);
  });
});

describe("tool-call-chain (App. A.2)", () => {
  it("scores the extra repetitions of a cycle of two calls", () => {
    const t = new MadeUp().read("a.ts").read("b.ts").read("a.ts").read("b.ts").read("a.ts").read("b.ts");
    const f = run(toolCallChain, t);
    expect(f.score).toBe(2);
    expect(f.instances[0]?.events).toEqual(["e1", "e3", "e5", "e7", "e9", "e11"]);
  });

  it("does not flag a loop whose calls differ each time (edit, test, edit, test)", () => {
    const t = new MadeUp()
      .edit("a.ts", "1", "2")
      .bash("npm test", "fail", 1)
      .edit("a.ts", "2", "3")
      .bash("npm test", "ok");
    expect(run(toolCallChain, t).score).toBe(0);
  });

  it("counts a stuck retry loop: the same tool-level failure again and again, whatever the commands", () => {
    const t = new MadeUp();
    for (const cmd of ["./a.ps1", "powershell ./a.ps1", "ls", "echo hello"])
      t.bash(cmd, "Command rejected because it could not be parsed safely", null);
    for (const e of t.events) if (e.type === "tool_result") e.isError = true;
    const f = run(toolCallChain, t);
    expect(f.score).toBe(3);
    expect(f.instances[0]?.note).toMatch(/stuck retry loop/);
    // Failing tests between fixes are the program's exit codes, not a tool failing: not a loop.
    const debugging = new MadeUp()
      .bash("npm test", "1 failing", 1)
      .edit("a.ts", "1", "2")
      .bash("npm test", "1 failing", 1);
    expect(run(toolCallChain, debugging).score).toBe(0);
  });

  it("counts a program failing the same way again with nothing changed since, not a test rerun after an edit", () => {
    const t = new MadeUp()
      .bash(
        "sed -n '1,200p' 'app/(protected)/page.tsx'",
        "sed: app/(protected)/page.tsx: No such file or directory",
        1,
      )
      .bash("ls app", "page.tsx")
      .bash(
        "sed -n 1,200p app/(protected)/page.tsx",
        "sed: app/(protected)/page.tsx: No such file or directory",
        1,
      );
    expect(run(toolCallChain, t).instances.map((i) => i.note)).toEqual([
      expect.stringMatching(/comes back 2 times/),
    ]);
    const debugging = new MadeUp()
      .bash("npm test", "1 failing", 1)
      .edit("a.ts", "1", "2")
      .bash("npm test", "1 failing", 1);
    expect(run(toolCallChain, debugging).score).toBe(0);
    const otherSearch = new MadeUp().bash("rg alpha src", "", 1).bash("rg beta src", "", 1);
    expect(run(toolCallChain, otherSearch).score).toBe(0);
  });

  it("counts an edit that reverts an earlier edit, and a write restoring older content", () => {
    const t = new MadeUp()
      .edit("a.ts", "let x = 1", "let x = 2")
      .edit("a.ts", "let x = 2", "let x = 1")
      .write("b.ts", "v1")
      .write("b.ts", "v2")
      .write("b.ts", "v1");
    const f = run(toolCallChain, t);
    expect(f.score).toBe(2);
    expect(f.instances.map((i) => i.events)).toEqual([
      ["e1", "e4"],
      ["e7", "e13"],
    ]);
  });

  it("exempts a revert the user asked for", () => {
    const t = new MadeUp().edit("a.ts", "a", "b").user("please revert that").edit("a.ts", "b", "a");
    const f = run(toolCallChain, t);
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.reason).toMatch(/user asked/);
  });

  it("exempts polling loops over time-varying probes", () => {
    const t = new MadeUp();
    for (let i = 0; i < 3; i++) t.bash("sleep 5").bash("curl -s localhost:8080/health", "starting");
    const f = run(toolCallChain, t);
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.reason).toMatch(/polling/);
  });
});

describe("dead-step (App. A.2)", () => {
  it("flags a read whose new content nothing later draws on", () => {
    const t = new MadeUp()
      .user("rename helper in util.ts")
      .read("docs/changelog.md", "release notes: shipped widgetry and gizmology for frobnicator")
      .read("util.ts", "export function helperAlpha() { return computeTotal(); }")
      .edit("util.ts", "helperAlpha", "helperBeta")
      .say("Renamed helperAlpha to helperBeta.");
    const f = run(deadStep, t);
    expect(f.score).toBe(0.5); // term overlap is half-weight evidence
    expect(f.instances[0]?.events).toEqual(["e2", "e3"]);
    expect(f.instances[0]?.note).toMatch(/docs\/changelog\.md/);
  });

  it("flags an action that had nothing to do and a script written but never run; not a deliverable the user named", () => {
    const noop = new MadeUp()
      .bash("git status", "nothing to commit, working tree clean")
      .bash("git add .gitignore && git commit -m x", "nothing to commit, working tree clean", 1);
    expect(run(deadStep, noop).instances.map((i) => i.note)).toEqual([
      expect.stringMatching(/had nothing to do/),
    ]);
    const script = new MadeUp()
      .user("find why the shortcut is broken")
      .write("tmp/inspect_shortcut.ps1", "Get-Item x")
      .bash("./tmp/inspect_shortcut.ps1", "Command rejected", null)
      .say("I could not run it.");
    for (const e of script.events)
      if (e.type === "tool_result" && e.output === "Command rejected") e.isError = true;
    expect(run(deadStep, script).instances.map((i) => i.note)).toEqual([
      expect.stringMatching(/wrote inspect_shortcut\.ps1, which nothing ran/),
    ]);
    const ran = new MadeUp().write("check.py", "print(1)").bash("python check.py", "1").say("ok");
    expect(run(deadStep, ran).score).toBe(0);
    const deliverable = new MadeUp()
      .user("write hello.py that prints hi")
      .write("hello.py", "print('hi')")
      .say("done");
    expect(run(deadStep, deliverable).score).toBe(0);
    // A file another written file refers to is part of what the agent built.
    const app = new MadeUp()
      .user("make me a todo web app")
      .write("index.html", '<script src="app.js"></script>')
      .write("app.js", "new Vue({})")
      .say("open index.html");
    expect(run(deadStep, app).score).toBe(0);
  });

  it("does not flag reads whose content is used, nor edits", () => {
    const t = new MadeUp()
      .read("util.ts", "export function helperAlpha() { return computeTotal(); }")
      .edit("util.ts", "helperAlpha", "helperBeta")
      .say("done");
    expect(run(deadStep, t).score).toBe(0);
  });

  it("exempts reads of long-lived rules files and results the log ends on", () => {
    const t = new MadeUp()
      .read("CLAUDE.md", "always run formatter before committing repository changes")
      .say("ok")
      .read("notes.txt", "unrelated scribbles about quarterly planning meetings");
    const f = run(deadStep, t);
    expect(f.score).toBe(0);
    expect(f.exempted.map((e) => e.reason)).toEqual([
      expect.stringMatching(/rules or memory/),
      expect.stringMatching(/log ends/),
    ]);
  });
});

describe("long-chain (App. A.2)", () => {
  /** `n` calls that are no checkpoint. */
  const pad = (t: MadeUp, n: number, name = "step") => {
    for (let i = 0; i < n; i++) t.bash(`python ${name}${i}.py`);
    return t;
  };

  it("scores the longest stretch of calls between checkpoints, once it reaches the warning length", () => {
    const t = pad(new MadeUp().user("go"), 35);
    t.tool("TodoWrite", { todos: [] });
    pad(t, 31, "other");
    const f = run(longChain, t);
    expect(f.score).toBe(35);
    expect(f.instances[0]?.events).toEqual(["e2", "e104"]);
    // A short stretch is no chain: nothing found, score 0 (a clean log scores 100).
    expect(run(longChain, pad(new MadeUp().user("go"), 5)).instances).toEqual([]);
  });

  it("reading a config file named like a checker is not a check (cat tsconfig.json)", () => {
    const t = pad(new MadeUp(), 30)
      .bash("cat tsconfig.json", "{}")
      .bash("cat eslint.config.js", "x")
      .bash("python b.py");
    expect(run(longChain, t).score).toBe(33);
  });

  it("a passing validation is a checkpoint, a failing one is not", () => {
    const t = pad(new MadeUp().bash("python a.py").bash("pytest", "ok"), 30)
      .bash("pytest", "F", 1)
      .bash("python c.py");
    expect(run(longChain, t).score).toBe(32);
  });

  it("exempts intended batch work: one tool over many distinct files", () => {
    const t = new MadeUp().user("add a licence header to every file");
    for (let i = 0; i < 40; i++) t.edit(`src/f${i}.ts`, "", "// MIT\n");
    const f = run(longChain, t);
    expect(f.score).toBe(0);
    expect(f.rawScore).toBe(40);
    expect(f.exempted[0]?.reason).toMatch(/batch work/);
  });
});

describe("tool-use detectors on real trajectories", () => {
  it("counts steps, not calls: a real Codex Desktop rollout's 116 calls come in 25 parallel rounds", async () => {
    const t = await importTrajectory(
      path.join(
        DATA,
        "codex-rollout",
        "localpush__rollout-2026-02-23T12-41-04-019c8a4d-8f45-7010-8b5d-7fad920aa6f9.jsonl",
      ),
    );
    const view = buildView(t.events);
    expect(view.calls.length).toBe(118);
    expect(longChain.detect(view).score).toBe(0);
    // Forty calls one after another, each answered before the next, are forty steps.
    const sequential = new MadeUp().user("audit the repo");
    for (let i = 0; i < 40; i++) sequential.bash(`grep -rn pattern${i} src`, "hit");
    expect(longChain.detect(buildView(sequential.events)).score).toBe(40);
  });
});

describe("command classification", () => {
  it("reads redaction placeholders of published logs as words, not redirections", () => {
    expect(classifyCommand("ls -la /home/<user>/project/src")).toBe("inspect");
    expect(classifyCommand("grep -rn TODO /Users/<REDACTED>/app 2>/dev/null")).toBe("inspect");
    expect(classifyCommand("cat a.txt > /home/<user>/b.txt")).toBe("mutate");
  });
});
