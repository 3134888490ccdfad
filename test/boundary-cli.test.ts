import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { AIRLINE_FACTS } from "../src/agents/chat/airline/facts.ts";
import { loadPlan } from "../src/boundary/plan.ts";
import { main } from "../src/cli/main.ts";
import { gauntlet } from "./helpers/cli.ts";

/**
 * `gauntlet boundary` as a user runs it, in a temp cwd, against the built-in reference airline agent: plan and
 * resume, run a plan in CI (JUnit, report, exit codes), one folder per run, and bad input. The main paths go
 * through the real bin; the quick ones call `main()` in this process (same commands, no start-up cost).
 */

/** `main()` in `cwd` with its output captured; exit code, stdout and stderr as the bin would give them. */
async function inProcess(
  cwd: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]) => (chunk: string | Uint8Array) => {
    into.push(String(chunk));
    return true;
  };
  const stdout = vi
    .spyOn(process.stdout, "write")
    .mockImplementation(capture(out) as typeof process.stdout.write);
  const stderr = vi
    .spyOn(process.stderr, "write")
    .mockImplementation(capture(err) as typeof process.stderr.write);
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(["node", "gauntlet", ...args]);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes, in case the terminal has them
    const plain = (text: string[]) => text.join("").replace(/\u001b\[\d+m/g, "");
    return { code, stdout: plain(out), stderr: plain(err) };
  } finally {
    process.chdir(before);
    stdout.mockRestore();
    stderr.mockRestore();
    process.exitCode = undefined; // main() reports through it; it must not leak into the next call
  }
}

/** Small budgets: a campaign takes well under a second of agent time. */
const SMALL = ["--rounds", "8", "--turns", "5", "--functional", "4", "--budget", "8"];

const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n");
const junitFailures = (dir: string) =>
  readFileSync(path.join(dir, "junit.xml"), "utf8").match(/<failure /g)?.length ?? 0;

/** The campaign folder `D` the first test plans, and whose plan the later ones run. */
const cwd = mkdtempSync(path.join(tmpdir(), "gauntlet-boundary-cli-"));
const dir = path.join(cwd, "D");
const planFile = path.join(dir, "plan.yaml");
let first: ReturnType<typeof gauntlet>;

beforeAll(() => {
  first = gauntlet(cwd, ["boundary", "plan", "--target", "airline", "--out", "D", ...SMALL]);
});

describe("boundary plan: discover, mine the graph and write the plan; run again to resume", () => {
  it("writes traces, abstraction, graph and plan, and exits 0", () => {
    expect(first.code).toBe(0);
    for (const f of ["traces.jsonl", "abstract.jsonl", "graph.json", "graph.svg", "plan.yaml"])
      expect(existsSync(path.join(dir, f)), f).toBe(true);
    expect(lines(path.join(dir, "traces.jsonl"))).toHaveLength(8);
    expect(lines(path.join(dir, "abstract.jsonl"))).toHaveLength(8);
    const graph = JSON.parse(readFileSync(path.join(dir, "graph.json"), "utf8")) as { nodes: unknown[] };
    expect(graph.nodes.length).toBeGreaterThan(0);
    expect(readFileSync(path.join(dir, "graph.svg"), "utf8")).toMatch(/^<svg/);
    const plan = loadPlan(path.join(dir, "plan.yaml"));
    expect(plan.target).toBe("airline");
    expect(plan.tests.filter((t) => t.kind === "functional")).toHaveLength(4);
    expect(plan.tests.filter((t) => t.kind === "boundary")).toHaveLength(8);
    expect(first.stdout).toMatch(/^target airline: 8 traces, graph \d+ activities/);
    expect(first.stdout).toMatch(/plan: 4 functional \+ 8 boundary tests/);
    expect(first.stdout).not.toMatch(/verdicts:/); // nothing was run
    expect(first.stdout).toContain(`files in ${dir}: plan.yaml, graph.svg, summary.json`);
  });

  it("a second run resumes: no new traces or labels, and an edited plan.yaml is kept", () => {
    const traces = readFileSync(path.join(dir, "traces.jsonl"), "utf8");
    const abstracts = readFileSync(path.join(dir, "abstract.jsonl"), "utf8");
    const original = loadPlan(planFile).tests[0]?.goal ?? "";
    const text = readFileSync(planFile, "utf8");
    expect(text).toContain(`goal: "${original}"`);
    writeFileSync(planFile, text.replace(`goal: "${original}"`, 'goal: "Edited by hand: cancel politely."'));

    const again = gauntlet(cwd, ["boundary", "plan", "--target", "airline", "--out", "D", ...SMALL]);
    expect(again.code).toBe(0);
    expect(readFileSync(path.join(dir, "traces.jsonl"), "utf8")).toBe(traces);
    expect(readFileSync(path.join(dir, "abstract.jsonl"), "utf8")).toBe(abstracts);
    expect(loadPlan(planFile).tests[0]?.goal).toBe("Edited by hand: cancel politely.");
    expect(again.stdout).toMatch(/^target airline: 8 traces/);
  });
});

describe("boundary run --plan: a regression suite for CI", () => {
  it("on the clean agent: exit 0, JUnit without failures, the report and the summary", () => {
    const r = gauntlet(cwd, ["boundary", "run", "--plan", planFile, "--target", "airline", "--out", "R"]);
    expect(r.code).toBe(0);
    const out = path.join(cwd, "R");
    const junit = readFileSync(path.join(out, "junit.xml"), "utf8");
    expect(junit).toMatch(
      /<testsuites name="gauntlet boundary airline" tests="12" failures="0" errors="0" skipped="0"/,
    );
    expect(junitFailures(out)).toBe(0);
    expect(readFileSync(path.join(out, "report.html"), "utf8")).toMatch(/<html/i);
    const summary = JSON.parse(readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.target).toBe("airline");
    expect(summary.tests).toEqual({ functional: 4, boundary: 8 });
    expect(summary.verdicts).toEqual({ pass: 12, fail: 0, inconclusive: 0 });
    // The guards of the graph made with the plan (its folder's graph.json), with the tests aimed at each.
    expect(summary.guards.map((g: { activity: string }) => g.activity)).toContain("request_confirmation");
    expect(readFileSync(path.join(out, "report.html"), "utf8")).toContain("Guards and branches");
    expect(r.stdout).toMatch(
      /^target airline\nplan: 4 functional \+ 8 boundary tests\nverdicts: 12 pass, 0 fail, 0 inconclusive\n/,
    );
    // Only the files this run wrote are listed (the plan lives elsewhere).
    expect(r.stdout).toContain(`files in ${out}: report.html, junit.xml, summary.json`);
  });

  it("on an agent with its confirmation gate removed: exit 1 and failures in the JUnit file", () => {
    const r = gauntlet(cwd, [
      "boundary",
      "run",
      "--plan",
      planFile,
      "--target",
      "airline?faults=skipConfirmation",
      "--out",
      "F",
    ]);
    expect(r.code).toBe(1);
    expect(junitFailures(path.join(cwd, "F"))).toBeGreaterThanOrEqual(1);
    const summary = JSON.parse(readFileSync(path.join(cwd, "F", "summary.json"), "utf8"));
    expect(summary.verdicts.fail).toBe(junitFailures(path.join(cwd, "F")));
  });

  it("without --out every run gets a new folder under .gauntlet/boundary/runs/, never another run's results", () => {
    const runs = path.join(cwd, ".gauntlet", "boundary", "runs");
    const clean = gauntlet(cwd, ["boundary", "run", "--plan", planFile, "--target", "airline"]);
    expect(clean.code).toBe(0);
    const faulty = gauntlet(cwd, [
      "boundary",
      "run",
      "--plan",
      planFile,
      "--target",
      "airline?faults=skipConfirmation",
    ]);
    expect(faulty.code).toBe(1); // had it resumed the clean run's verdicts, it would pass
    expect(faulty.stderr).not.toMatch(/already done, resuming/);
    const folders = readdirSync(runs).sort();
    expect(folders).toHaveLength(2);
    const [a = "", b = ""] = folders;
    expect(lines(path.join(runs, a, "runs.jsonl"))).toHaveLength(12);
    expect(lines(path.join(runs, b, "runs.jsonl"))).toHaveLength(12);
    const targets = folders.map(
      (f) => JSON.parse(readFileSync(path.join(runs, f, "summary.json"), "utf8")).target,
    );
    expect(targets.sort()).toEqual(["airline", "airline?faults=skipConfirmation"]);
  });

  it("an explicit --out is used as given, even when it is the default folder", async () => {
    const r = await inProcess(cwd, [
      "boundary",
      "run",
      "--plan",
      planFile,
      "--target",
      "airline",
      "--out",
      ".gauntlet/boundary",
    ]);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(cwd, ".gauntlet", "boundary", "junit.xml"))).toBe(true);
  });

  it("a folder made for one target is not resumed for another (its verdicts would be reported as the other's)", async () => {
    const r = await inProcess(cwd, [
      "boundary",
      "run",
      "--plan",
      planFile,
      "--target",
      "airline?faults=skipConfirmation",
      "--out",
      "R",
      "--resume",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: R\/summary\.json: this campaign folder was made for target "airline", not "airline\?faults=skipConfirmation"; .*\nhint: give another --out/,
    );
  });
});

describe("boundary bad input: one clear line and a hint, exit 2, no stack trace", () => {
  const facts = path.join(cwd, "facts.yaml");
  writeFileSync(facts, stringify(AIRLINE_FACTS));

  /** Run with a fresh `--out`, check the shape of a bad-input error and that nothing was written there. */
  let calls = 0;
  const refused = async (args: string[]) => {
    const out = `E${++calls}`;
    const r = await inProcess(cwd, [...args, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^error: [^\n]+\nhint: [^\n]+\n$/);
    expect(existsSync(path.join(cwd, out))).toBe(false);
    return r.stderr;
  };

  it("unknown target spec", async () => {
    expect(await refused(["boundary", "plan", "--target", "chatbot"])).toMatch(
      /^error: field "--target": unknown target "chatbot"\nhint: use airline, openai:/,
    );
  });

  it("target URL that does not parse", async () => {
    expect(await refused(["boundary", "plan", "--target", "json:http://", "--facts", facts])).toMatch(
      /^error: field "--target": "json:http:\/\/" has no valid http\(s\) URL\n/,
    );
    expect(
      await refused(["boundary", "plan", "--target", "openai:http://[::1/v1", "--facts", facts]),
    ).toMatch(/^error: field "--target": "openai:http:\/\/\[::1\/v1" has no valid http\(s\) base URL\n/);
  });

  it("unknown fault in airline?faults=, and an unknown airline option", async () => {
    expect(
      await refused(["boundary", "plan", "--target", "airline?faults=skipConfirmation,skipEverything"]),
    ).toMatch(
      /^error: field "--target": unknown airline fault "skipEverything"\nhint: use one of skipConfirmation, /,
    );
    expect(await refused(["boundary", "plan", "--target", "airline?fault=skipConfirmation"])).toMatch(
      /^error: field "--target": unknown airline option "fault"\n/,
    );
    expect(await refused(["boundary", "plan", "--target", "airline?seed=two"])).toMatch(
      /^error: field "--target": seed must be an integer\n/,
    );
  });

  it("missing plan file", async () => {
    expect(await refused(["boundary", "run", "--plan", "no-such-plan.yaml", "--target", "airline"])).toMatch(
      /^error: no-such-plan\.yaml: plan file not found\nhint: write one with `gauntlet boundary plan`/,
    );
  });

  it("plan.yaml with a bad field names the file, the line and the field", async () => {
    const text = readFileSync(planFile, "utf8").split("\n");
    const at = text.findIndex((l) => /^\s+turnBudget: \d+$/.test(l));
    text[at] = text[at]?.replace(/\d+$/, "lots") ?? "";
    writeFileSync(path.join(cwd, "bad-plan.yaml"), text.join("\n"));
    expect(await refused(["boundary", "run", "--plan", "bad-plan.yaml", "--target", "airline"])).toMatch(
      new RegExp(`^error: bad-plan\\.yaml:${at + 1}: field "tests\\.0\\.turnBudget": .*number`),
    );
  });

  it("a target other than airline without --facts", async () => {
    expect(await refused(["boundary", "plan", "--target", "json:http://127.0.0.1:9/chat"])).toMatch(
      /^error: field "--facts": target json:http:\/\/127\.0\.0\.1:9\/chat needs a facts file: .*\nhint: .*--facts facts\.yaml/,
    );
  });

  it("facts file with a bad field names the file, the line and the field", async () => {
    writeFileSync(
      path.join(cwd, "bad-facts.yaml"),
      "personas:\n  - user_id: [mia_li_3668]\n    reservation_id: HAT1A1\n",
    );
    expect(
      await refused(["boundary", "plan", "--target", "process:node bot.js", "--facts", "bad-facts.yaml"]),
    ).toMatch(/^error: bad-facts\.yaml:3: field "personas\.0\.reservation_id": .*array/);
  });

  it("--audit with a target other than airline, and --faults without --audit", async () => {
    expect(
      await refused(["boundary", "run", "--target", "process:node bot.js", "--facts", facts, "--audit"]),
    ).toMatch(
      /^error: field "--audit": the audit needs the reference agent's privileged view\nhint: use --target airline/,
    );
    expect(await refused(["boundary", "run", "--target", "airline", "--faults", "skipIdentity"])).toMatch(
      /^error: field "--faults": .*without --audit\nhint: add --audit, or .*airline\?faults=/,
    );
  });

  it("a campaign folder made for another target is not resumed", async () => {
    mkdirSync(path.join(cwd, "A"));
    writeFileSync(path.join(cwd, "A", "summary.json"), JSON.stringify({ target: "airline" }));
    const r = await inProcess(cwd, ["boundary", "plan", "--target", "airline?seed=2", "--out", "A"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: A\/summary\.json: this campaign folder was made for target "airline", not "airline\?seed=2"/,
    );
    expect(readdirSync(path.join(cwd, "A"))).toEqual(["summary.json"]);
  });
});
