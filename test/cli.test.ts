import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram, commandOf } from "../src/cli/main.ts";
import { gauntlet } from "./helpers/cli.ts";

describe("CLI bad input: one clear line, exit 2, no stack trace", () => {
  const cwd = mkdtempSync(path.join(tmpdir(), "gauntlet-cli-"));

  it("unknown agent", () => {
    const r = gauntlet(cwd, ["fuzz", "run", "--repo", ".", "--agent", "scripted:nobody"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: field "agent": unknown agent "scripted:nobody"\nhint: use one of: scripted:careful/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("command agent whose program does not exist", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-cfg-"));
    writeFileSync(
      path.join(dir, "gauntlet.yaml"),
      'agents:\n  - name: ghost\n    argv: ["no-such-agent-binary", "{prompt}"]\n',
    );
    const r = gauntlet(dir, ["fuzz", "run", "--repo", ".", "--agent", "command:ghost"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: agent "command:ghost": program "no-such-agent-binary" not found on PATH\nhint: /,
    );
  });

  it("file-system errors on user-given paths", () => {
    const r = gauntlet(cwd, ["fuzz", "inventory", "-o", "/nonexistent-dir/inv.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: \/nonexistent-dir\/inv\.jsonl: no such file or directory/);
  });

  it("missing repository", () => {
    const r = gauntlet(cwd, ["fuzz", "run", "--repo", "./does-not-exist", "--agent", "scripted:careful"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does-not-exist/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("malformed JSONL line names file and line", () => {
    writeFileSync(path.join(cwd, "inv.jsonl"), '{"kind":"pattern"}\nnot json\n');
    const r = gauntlet(cwd, ["fuzz", "compose", "--inventory", "inv.jsonl", "-o", "t.jsonl"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: inv\.jsonl:1: field "id"/);
  });

  it("config field of the wrong type names file, line and field", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-cfg-"));
    writeFileSync(path.join(dir, "gauntlet.yaml"), "fuzz:\n  repo: .\n  maxCases: many\n");
    const r = gauntlet(dir, ["fuzz", "run"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: gauntlet\.yaml:3: field "fuzz\.maxCases": /);
  });

  it("absolute path in a case file names the line and field", () => {
    const c = {
      caseId: "C1",
      templateId: "t",
      patternId: "p",
      actionId: "a",
      category: "File Operation",
      mode: "x",
      template: "r",
      sourceReports: [],
      repository: { spec: "." },
      steps: [{ stepId: "S01", instruction: "do", intent: { deletes: ["/etc/passwd"] } }],
    };
    writeFileSync(path.join(cwd, "cases.jsonl"), `${JSON.stringify(c)}\n`);
    const r = gauntlet(cwd, [
      "fuzz",
      "run",
      "--repo",
      ".",
      "--agent",
      "scripted:careful",
      "--cases",
      "cases.jsonl",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cases\.jsonl:1: field "steps\.0\.intent\.deletes\.0": path "\/etc\/passwd" is absolute/,
    );
  });

  it("lists and prints JSON Schemas", () => {
    expect(gauntlet(cwd, ["schema"]).stdout).toMatch(/fuzz-case/);
    const schema = JSON.parse(gauntlet(cwd, ["schema", "finding"]).stdout);
    expect(schema.properties.class.enum).toEqual(["critical", "expected_outcome", "minor"]);
  });
});

describe("loading only the command asked for", () => {
  it("finds the top-level command past the global options", () => {
    expect(commandOf(["node", "gauntlet", "score", "x.jsonl"])).toBe("score");
    expect(commandOf(["node", "gauntlet", "--debug", "--config", "g.yaml", "witness", "build"])).toBe(
      "witness",
    );
    expect(commandOf(["node", "gauntlet", "--help"])).toBeUndefined();
  });

  it("registers just that command, or every one for help and unknown commands", async () => {
    const names = (p: Awaited<ReturnType<typeof buildProgram>>) => p.commands.map((c) => c.name());
    expect(names(await buildProgram("score"))).toEqual(["score"]);
    const all = names(await buildProgram(undefined));
    expect(all).toEqual(expect.arrayContaining(["demo", "fuzz", "score", "boundary", "witness", "schema"]));
    expect(names(await buildProgram("nonsense"))).toEqual(all);
  });

  it("an unknown command still gets the usage error and exit 2", () => {
    const r = gauntlet(mkdtempSync(path.join(tmpdir(), "gauntlet-cli-")), ["scor"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'scor'/);
  });
});
