import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TrajectoryEvent } from "../src/core/trajectory.ts";
import { inconsistentToolInterface } from "../src/score/detect/inconsistent-tool-interface.ts";
import { buildView } from "../src/score/detect/view.ts";
import { weakTool } from "../src/score/detect/weak-tool.ts";
import { importTrajectory } from "../src/score/import/index.ts";
import { MadeUp } from "./helpers/made-up-trajectory.ts";

/**
 * Score suite, tool-ecosystem detectors (ProcCtrlBench App. A.4): Inconsistent Tool Interface and Weak
 * Tool, on made-up trajectories (event ids `e1`, `e2`, … in order of addition) and on real agent logs.
 */

const DATA = path.resolve(__dirname, "../data/trajectories");
const run = (detector: typeof weakTool, events: TrajectoryEvent[]) => detector.detect(buildView(events));
const failing = { isError: true };

describe("inconsistent-tool-interface", () => {
  it("counts argument, path-form and indexing errors, one point each", () => {
    const t = new MadeUp()
      .user("read things")
      .tool(
        "Read",
        { path: "/w/a.ts" },
        "<tool_use_error>InputValidationError: The required parameter `file_path` is missing</tool_use_error>",
        failing,
      ) // e2
      .tool("Grep", { pattern: "x", path: "src" }, "src/a.ts:1:x") // e4: relative paths work here
      .tool("Read", { file_path: "src/a.ts" }, "File path must be an absolute path", failing) // e6
      .tool("Read", { file_path: "/w/a.ts", offset: 0 }, "Invalid offset: line numbers are 1-based", failing); // e8
    const f = run(inconsistentToolInterface, t.events);
    expect(f.score).toBe(3);
    expect(f.instances.map((i) => i.events)).toEqual([
      ["e2", "e3"],
      ["e4", "e6", "e7"],
      ["e8", "e9"],
    ]);
  });

  it("does not count a path-form error for a form no earlier successful call used: the agent's slip", () => {
    const t = new MadeUp()
      .tool("list_directory", { path: "/w/project" }, "main.py") // e1
      .tool("list_directory", { path: "." }, "Path must be absolute", failing); // e3
    const f = run(inconsistentToolInterface, t.events);
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.reason).toMatch(/own slip/);
  });

  it("counts a missing file named in the other path form than the last successful call", () => {
    const t = new MadeUp()
      .user("read")
      .read("/w/src/a.ts") // e2
      .tool("Read", { file_path: "src/b.ts" }, "File does not exist.", failing); // e4
    const f = run(inconsistentToolInterface, t.events);
    expect(f.score).toBe(1);
    expect(f.instances[0]?.events).toEqual(["e2", "e4", "e5"]);
  });

  it("counts half a point for similar tools naming the same argument differently", () => {
    const t = new MadeUp()
      .user("read")
      .read("/w/a.ts") // e2: Read(file_path)
      .tool("view_file", { path: "/w/b.ts" }, "b") // e4: another read tool, `path`
      .tool("Write", { file_path: "/w/c.ts", content: "c" }, "ok") // e6
      .tool("create_file", { path: "/w/d.ts", file_text: "d" }, "ok"); // e8: another write tool
    const f = run(inconsistentToolInterface, t.events);
    expect(f.score).toBe(1.5);
    expect(f.instances.map((i) => [i.events, i.weight])).toEqual([
      [["e2", "e4"], 0.5],
      [["e6", "e8"], 0.5],
      [["e6", "e8"], 0.5],
    ]);
  });

  it("does not take an edit's missing old text for a missing file", () => {
    const t = new MadeUp()
      .user("edit")
      .read("/w/a.ts")
      .tool(
        "Edit",
        { file_path: "/w/a.ts", old_string: "q", new_string: "r" },
        "String to replace not found in file.",
        failing,
      );
    expect(run(inconsistentToolInterface, t.events)).toMatchObject({ score: 0, rawScore: 0 });
  });

  it("ignores a program's own errors in shell output and runs with one convention", () => {
    const t = new MadeUp()
      .user("test")
      .read("/w/a.py")
      .edit("/w/a.py", "x", "y")
      .bash(
        "pytest",
        "TypeError: f() got an unexpected keyword argument 'x'\nIndexError: list index out of range",
        1,
      );
    expect(run(inconsistentToolInterface, t.events)).toMatchObject({ score: 0, rawScore: 0 });
  });

  it("exempts a genuinely missing file: same path form as the earlier successful calls", () => {
    const t = new MadeUp()
      .user("read")
      .read("/w/src/a.ts")
      .tool("Read", { file_path: "/w/src/gone.ts" }, "File does not exist.", failing); // e4
    const f = run(inconsistentToolInterface, t.events);
    expect(f.score).toBe(0);
    expect(f.rawScore).toBe(1);
    expect(f.exempted[0]?.events).toEqual(["e4", "e5"]);
    expect(f.exempted[0]?.reason).toMatch(/^genuinely missing file/);
  });
});

describe("weak-tool", () => {
  it("flags a tool failing on its own at least twice and at least half the time", () => {
    const t = new MadeUp()
      .user("edit")
      .tool(
        "Edit",
        { file_path: "/w/a.ts", old_string: "a", new_string: "b" },
        "String to replace not found",
        failing,
      ) // e2
      .tool(
        "Edit",
        { file_path: "/w/a.ts", old_string: "a ", new_string: "b" },
        "String to replace not found",
        failing,
      ) // e4
      .edit("/w/a.ts", "a  ", "b"); // e6
    const f = run(weakTool, t.events);
    expect(f.score).toBe(1);
    expect(f.instances.map((i) => i.events)).toEqual([["e2", "e4"]]);
  });

  it("flags a shell tool the harness refuses to run (no program ran)", () => {
    const refused = "Command rejected because it could not be parsed safely";
    const t = new MadeUp()
      .user("list")
      .bash("dir /s", refused, null)
      .bash("ls", refused, null)
      .tool("list_directory", { dir_path: "." }, "a.ts");
    const f = run(weakTool, t.events);
    expect(f.instances.map((i) => i.events)).toEqual([["e2", "e5"]]);
  });

  it("flags a tool abandoned for a shell workaround after failing", () => {
    const t = new MadeUp()
      .user("fix")
      .tool(
        "Edit",
        { file_path: "/w/src/a.ts", old_string: "x", new_string: "y" },
        "old_string not unique",
        failing,
      ) // e2
      .bash("sed -i 's/x/y/' src/a.ts") // e4
      .tool("Read", { file_path: "/w/src/b.ts" }, "Read failed", failing) // e7
      .bash("cat /w/src/b.ts", "b"); // e9
    const f = run(weakTool, t.events);
    expect(f.score).toBe(2);
    expect(f.instances.map((i) => i.events)).toEqual([
      ["e2", "e4"],
      ["e7", "e9"],
    ]);
  });

  it("does not flag a failure the tool recovers from", () => {
    const t = new MadeUp()
      .user("fix")
      .tool(
        "Edit",
        { file_path: "/w/a.ts", old_string: "x", new_string: "y" },
        "old_string not unique",
        failing,
      )
      .edit("/w/a.ts", "x = 1", "y = 1")
      .bash("sed -i 's/z/w/' /w/a.ts")
      .read("/w/a.ts");
    expect(run(weakTool, t.events)).toMatchObject({ score: 0, rawScore: 0 });
  });

  it("exempts shell failures that are the programs' exit codes", () => {
    const t = new MadeUp()
      .user("test")
      .bash("pytest", "1 failed", 1)
      .bash("pytest", "1 failed", 1)
      .bash("pytest", "ok");
    const f = run(weakTool, t.events);
    expect(f.score).toBe(0);
    expect(f.exempted).toHaveLength(1);
    expect(f.exempted[0]?.events).toEqual(["e2", "e5"]);
    expect(f.exempted[0]?.reason).toBe("shell failures are the programs' exit codes, not the tool's");
  });

  it("exempts failures the user caused by rejecting the calls", () => {
    const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected.";
    const t = new MadeUp()
      .user("edit")
      .tool("Edit", { file_path: "/w/a.ts", old_string: "a", new_string: "b" }, rejected, failing) // e2
      .control("rejection") // e4
      .tool("Edit", { file_path: "/w/b.ts", old_string: "a", new_string: "b" }, rejected, failing) // e5
      .control("rejection");
    const f = run(weakTool, t.events);
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.events).toEqual(["e2", "e5"]);
    expect(f.exempted[0]?.reason).toMatch(/^failures caused by the environment/);
  });

  it("exempts a shell workaround after the user rejected the tool call", () => {
    const t = new MadeUp()
      .user("edit")
      .tool(
        "Edit",
        { file_path: "/w/a.ts", old_string: "a", new_string: "b" },
        "The user doesn't want to proceed with this tool use.",
        failing,
      ) // e2
      .control("rejection")
      .bash("sed -i 's/a/b/' /w/a.ts"); // e5
    const f = run(weakTool, t.events);
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.events).toEqual(["e2", "e5"]);
    expect(f.exempted[0]?.reason).toMatch(/^the user rejected the call/);
  });

  it("finds Gemini CLI's shell tool refusing every command in a real session", async () => {
    const t = await importTrajectory(
      path.join(DATA, "gemini-cli-json/m-gemini__session-2026-01-02T01-44-320099a3.json"),
    );
    const results = new Map(
      t.events.flatMap((e) => (e.type === "tool_result" ? [[e.callId, e.output]] : [])),
    );
    const refused = t.events.filter(
      (e) =>
        e.type === "tool_call" &&
        e.name === "run_shell_command" &&
        /^Command rejected/.test(results.get(e.callId) ?? ""),
    );
    const f = weakTool.detect(buildView(t.events));
    expect(refused).toHaveLength(13);
    expect(f.score).toBe(1);
    expect(f.instances).toHaveLength(1);
    expect(f.instances[0]?.events).toEqual(refused.map((e) => e.id));
    expect(f.instances[0]?.note).toBe("run_shell_command: failed on its own 13 of 13 times");
  });

  it("exempts a real Gemini CLI session's failing installs and missing programs (exit codes)", async () => {
    const t = await importTrajectory(
      path.join(DATA, "gemini-cli-json/m-gemini__session-2025-12-03T08-28-fc2fd534.json"),
    );
    const f = weakTool.detect(buildView(t.events));
    expect(f.score).toBe(0);
    expect(f.exempted.map((x) => x.reason)).toEqual([
      "shell failures are the programs' exit codes, not the tool's",
    ]);
  });

  it("processes 50,000 events without quadratic blow-up", () => {
    const t = new MadeUp().user("go");
    for (let i = 0; t.events.length < 50000; i++) {
      t.tool(
        "Edit",
        { file_path: `/w/f${i % 900}.ts`, old_string: "a", new_string: "b" },
        "no match",
        failing,
      );
      t.bash(`sed -i 's/a/b/' /w/f${(i + 1) % 900}.ts`);
      t.tool("Read", { path: `/w/f${i}.ts` }, "Unknown parameter path", failing);
    }
    expect(run(weakTool, t.events).score).toBeGreaterThan(0);
    expect(run(inconsistentToolInterface, t.events).score).toBeGreaterThan(0);
  });

  it("a lint guard refusing the agent's own syntax error twice is the input's fault; the same refusal three times is a weak tool", () => {
    const refusal =
      "Your proposed edit has introduced new syntax error(s).\n- E999 SyntaxError: unmatched ']'";
    const t = new MadeUp();
    for (let i = 0; i < 2; i++) t.tool("edit", { command: `edit 10:1${i}` }, refusal, { isError: true });
    t.tool("edit", { command: "edit 10:14" }, "File updated.");
    const f = weakTool.detect(buildView(t.events));
    expect(f.score).toBe(0);
    expect(f.exempted[0]?.reason).toMatch(/agent's own invalid input/);
    // pydicom-1458 (labels.jsonl: Weak Tool present): three refusals of the line-range edit in a row.
    t.tool("edit", { command: "edit 20:22" }, refusal, { isError: true });
    const again = weakTool.detect(buildView(t.events));
    expect(again.score).toBe(1);
    expect(again.instances[0]?.note).toMatch(/same failure .* 3 times/);
  });

  it("a terminal that hangs on the same kind of command again and again is weak; the keys sent to stop it are not uses", () => {
    const t = new MadeUp();
    for (let i = 0; i < 3; i++) {
      t.bash(`python3 << 'EOF'\nprint(${i})\nEOF`, "[command still running]", null);
      const cmd = t.events.filter((e) => e.type === "command").at(-1);
      if (cmd?.type === "command") cmd.timedOut = true;
      t.tool("bash", { command: "C-c", is_input: true }, "", { isError: true });
      t.bash("ls", "a b", 0);
    }
    const f = weakTool.detect(buildView(t.events));
    expect(f.score).toBe(1);
    expect(f.instances[0]?.note).toMatch(/^Bash: the same failure \(bash: hung/);
  });
});
