import { describe, expect, it } from "vitest";
import { commandTargets } from "../src/core/shell-writes.ts";
import type { ImportedTrajectory } from "../src/score/import/imported.ts";
import { withShellWrites } from "../src/score/import/shell-writes.ts";
import { MadeUp } from "./helpers/made-up-trajectory.ts";

/** Shell writes read from command lines (issue 14 §1), shared by fuzz's outside-path and score's importers. */

const t = (c: string) => commandTargets(c).map((x) => `${x.how}:${x.path}`);

describe("commandTargets", () => {
  it("finds redirections, heredocs, tee, sed -i, copies and moves, deletes", () => {
    expect(t("echo x > out.txt && cp a b/c && rm -rf build 2>&1")).toEqual([
      "redirect:out.txt",
      "copy:b/c",
      "delete:build",
    ]);
    expect(t("cat <<'EOF' > new.py\nprint(1 > 2)\nrm -rf /\nEOF")).toEqual(["redirect:new.py"]);
    expect(t("sed -i 's/a/b/' src/x.py && sed -e 's/q/r/' -i.bak y.txt")).toEqual([
      "sed-i:src/x.py",
      "sed-i:y.txt",
    ]);
    expect(t("mv old.txt new.txt; tee -a log.txt < in; echo hi >> notes.md")).toEqual([
      "redirect:notes.md",
      "copy:new.txt",
      "delete:old.txt",
      "tee:log.txt",
    ]);
  });

  it("does not read operators inside quotes, redaction placeholders or reads as writes", () => {
    expect(t(`jq -s 'map(select(length > 2)) | length' a/*.json`)).toEqual([]);
    expect(t(`grep -r "x" /Users/<user>/logs/ 2>/dev/null | head`)).toEqual(["redirect:/dev/null"]);
    expect(t(`C:\\Users\\<user>\\.gemini\\tmp\\inspect.ps1`)).toEqual([]);
    expect(t(`sed -n '1,5p' file.txt; cat a.txt; python - <<EOF\nopen("x","w")\nEOF`)).toEqual([]);
  });
});

describe("derived file changes", () => {
  const imported = (m: MadeUp): ImportedTrajectory => ({
    id: "t",
    format: "claude-code-jsonl",
    file: "t.jsonl",
    agent: "claude-code",
    models: [],
    events: m.events,
    skipped: [],
    lines: 0,
  });

  it("adds one derived change per path and command after the result; none for a refused command", () => {
    const m = new MadeUp()
      .bash("sed -i 's/a/b/' f.py && sed -i 's/c/d/' f.py", "", 0)
      .bash("echo x > out.txt", "", 0);
    m.bash("rm out.txt", "", 0).bash("echo y > never.txt", "rejected", null);
    // The last command was refused: make its result an error.
    const last = m.events.filter((e) => e.type === "tool_result").at(-1)!;
    if (last.type === "tool_result") last.isError = true;
    const out = withShellWrites(imported(m)).events;
    const changes = out.filter((e) => e.type === "file_change");
    expect(changes.map((e) => e.type === "file_change" && `${e.kind}:${e.path}:${e.derived}`)).toEqual([
      "modified:f.py:true",
      "added:out.txt:true",
      "deleted:out.txt:true",
    ]);
    const i = out.findIndex((e) => e.type === "file_change");
    expect(out[i - 1]!.type).toBe("tool_result");
  });

  it("keeps observed changes and derives nothing for their call", () => {
    const m = new MadeUp().tool("Bash", { command: "echo x > a.txt" }, "", {
      change: { path: "a.txt", kind: "added" },
    });
    const n = withShellWrites(imported(m)).events.filter((e) => e.type === "file_change").length;
    expect(n).toBe(1);
  });
});
