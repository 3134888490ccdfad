import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { airlineTarget } from "../src/agents/chat/airline/agent.ts";
import { AIRLINE_FACTS } from "../src/agents/chat/airline/facts.ts";
import { loadPlan, writePlan } from "../src/boundary/plan.ts";
import { SessionTrace, TestRun } from "../src/boundary/types.ts";
import { readJsonl } from "../src/core/jsonl.ts";
import { BIN } from "./helpers/cli.ts";

/**
 * A whole small boundary campaign (`gauntlet boundary run`, discover → plan → run) against real targets on this
 * machine — an HTTP JSON bot, an OpenAI-compatible server and a line-per-turn program, each wrapping the
 * reference airline agent — and against a program that dies mid-conversation. Loopback only.
 */

/** R_disc 8, B_turn 5, N_f 2, N_b 2: a graph and both kinds of test in a few seconds (a program turn is a process). */
const BUDGETS = ["--rounds", "8", "--turns", "5", "--functional", "2", "--budget", "2"];
const FIXTURE = path.resolve(__dirname, "fixtures", "airline-bot.mjs");
const PROGRAM = `process:"${process.execPath}" "${FIXTURE}"`;
/** The same program, exiting (code 4) when its third turn arrives. */
const DYING = `${PROGRAM} --die-after 2`;

const cwd = mkdtempSync(path.join(tmpdir(), "gauntlet-boundary-e2e-"));
const factsFile = path.join(cwd, "facts.yaml");

interface Cli {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI as a child process, without blocking this process (its servers must keep answering). */
function gauntletAsync(args: string[]): Promise<Cli> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, encoding: "utf8", env: { ...process.env, CI: "1", NO_COLOR: "1" }, maxBuffer: 1 << 24 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

function reply(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(value));
}

/** A custom JSON bot: `{message, session}` in, `{reply}` out; one airline agent per session id. */
const sessions = new Map<string, ReturnType<typeof airlineTarget>>();
const jsonBot = createServer(async (req, res) => {
  const { message, session } = await body(req);
  if (typeof message !== "string" || typeof session !== "string")
    return reply(res, 400, { error: "need message and session" });
  const agent = sessions.get(session) ?? airlineTarget();
  sessions.set(session, agent);
  reply(res, 200, { reply: (await agent.send(message)).text });
});

/**
 * An OpenAI-compatible server: it gets the whole history each turn, replays the user turns into a fresh airline
 * agent, and answers the last one. It checks the history it was sent: the assistant turns must be its own
 * earlier replies (a client that drops or reorders history gets an HTTP 400, which the campaign would show).
 */
let completions = 0;
const models = new Set<unknown>();
const openAi = createServer(async (req, res) => {
  if (req.url !== "/v1/chat/completions") return reply(res, 404, { error: "not found" });
  completions++;
  const { messages, model } = (await body(req)) as {
    messages: { role: string; content: string }[];
    model: unknown;
  };
  models.add(model);
  const agent = airlineTarget();
  let last = "";
  for (const [i, m] of messages.entries()) {
    if (m.role === "user") last = (await agent.send(m.content)).text;
    else if (m.role === "assistant" && (m.content !== last || messages[i - 1]?.role !== "user"))
      return reply(res, 400, { error: `history turn ${i} is not what the agent said` });
  }
  if (messages.at(-1)?.role !== "user")
    return reply(res, 400, { error: "the last message is not the user's" });
  reply(res, 200, { choices: [{ message: { role: "assistant", content: last } }] });
});

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

/** The campaign folder of each target, and what the CLI said. */
const campaigns: Record<string, { dir: string; cli: Cli }> = {};
const specs: Record<string, string> = {};

/** `gauntlet boundary <args> --out <cwd>/<name>`, recorded under `name`. */
async function campaign(name: string, args: string[]): Promise<void> {
  const dir = path.join(cwd, name);
  campaigns[name] = { dir, cli: await gauntletAsync(["boundary", ...args, "--out", dir]) };
}

/**
 * A plan of the JSON campaign's first functional and first boundary test, for the dying program (each test is
 * a fresh process, so fewer tests keep the file fast).
 */
function smallPlan(): string {
  const plan = loadPlan(path.join(cwd, "json", "plan.yaml"));
  const file = path.join(cwd, "small-plan.yaml");
  const first = (kind: string) => plan.tests.filter((t) => t.kind === kind).slice(0, 1);
  writePlan(file, { ...plan, tests: [...first("functional"), ...first("boundary")] });
  return file;
}

beforeAll(async () => {
  writeFileSync(factsFile, stringify(AIRLINE_FACTS));
  specs.json = `json:${await listen(jsonBot)}/chat`;
  specs.openai = `openai:${await listen(openAi)}/v1#airline`;
  specs.process = PROGRAM;
  specs.reference = "airline";
  const run = (name: string) =>
    campaign(name, ["run", "--target", specs[name] ?? "", "--facts", factsFile, ...BUDGETS]);
  // Side by side, each a CLI process of its own; the dying program then runs part of the JSON campaign's plan.
  await Promise.all([
    run("json").then(() => campaign("dying-run", ["run", "--plan", smallPlan(), "--target", DYING])),
    run("openai"),
    run("process"),
    run("reference"),
    campaign("dying", ["discover", "--target", DYING, "--facts", factsFile, "--rounds", "2", "--turns", "5"]),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([jsonBot, openAi].map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The campaign `name` ran in beforeAll. */
function done(name: string): { dir: string; cli: Cli } {
  const c = campaigns[name];
  if (!c) throw new Error(`campaign ${name} did not run`);
  return c;
}
const tracesOf = (dir: string) => readJsonl(path.join(dir, "traces.jsonl"), SessionTrace);
const runsOf = (dir: string) => readJsonl(path.join(dir, "runs.jsonl"), TestRun);

describe.each(["json", "openai", "process"])(
  "a whole campaign against a %s target wrapping the airline agent",
  (name) => {
    it("completes: exit 0, traces, a non-empty graph, a plan, and runs with no failing verdict", () => {
      const { dir, cli } = done(name);
      expect(cli.stderr).not.toMatch(/error:|target error/);
      expect(cli.code).toBe(0);
      const traces = tracesOf(dir);
      expect(traces).toHaveLength(8);
      expect(traces.map((t) => t.stop)).not.toContain("target_error");
      expect(traces.every((t) => t.turns.every((turn) => turn.reply.length > 0))).toBe(true);
      const graph = JSON.parse(readFileSync(path.join(dir, "graph.json"), "utf8")) as {
        nodes: unknown[];
        edges: unknown[];
      };
      expect(graph.nodes.length).toBeGreaterThan(2);
      expect(graph.edges.length).toBeGreaterThan(1);
      const plan = loadPlan(path.join(dir, "plan.yaml"));
      expect(plan.target).toBe(specs[name]);
      expect(plan.tests.filter((t) => t.kind === "functional")).toHaveLength(2);
      expect(plan.tests.filter((t) => t.kind === "boundary").length).toBeGreaterThan(0);
      const runs = runsOf(dir);
      expect(runs.map((r) => r.testId)).toEqual(plan.tests.map((t) => t.id));
      expect(runs.filter((r) => r.verdict.verdict !== "pass")).toEqual([]);
      expect(readFileSync(path.join(dir, "junit.xml"), "utf8")).toMatch(
        /failures="0" errors="0" skipped="0"/,
      );
    });

    it("sees the same conversations as the built-in agent: the adapter adds and loses nothing", () => {
      const talk = (dir: string) => tracesOf(dir).map((t) => t.turns.map((turn) => [turn.user, turn.reply]));
      expect(talk(done(name).dir)).toEqual(talk(done("reference").dir));
      const verdicts = (dir: string) => runsOf(dir).map((r) => [r.testId, r.verdict.verdict]);
      expect(verdicts(done(name).dir)).toEqual(verdicts(done("reference").dir));
    });
  },
);

/** What the plan stage's runs against the agent took (stabilise.ts): conversations and target turns. */
function stabilised(dir: string): { conversations: number; targetTurns: number } {
  return JSON.parse(readFileSync(path.join(dir, "stabilise.json"), "utf8"));
}

describe("what each target saw", () => {
  it("the JSON bot: one fresh session id per conversation (discovery sessions and test runs)", () => {
    // Discovery sessions, the plan stage's runs of each test against the agent (stabilise.ts), and the test runs.
    const conversations =
      tracesOf(done("json").dir).length +
      stabilised(done("json").dir).conversations +
      runsOf(done("json").dir).length;
    expect(sessions.size).toBe(conversations);
  });

  it("the OpenAI-compatible server: one request per turn, each with the whole history", () => {
    const { dir } = done("openai");
    const turns =
      [...tracesOf(dir), ...runsOf(dir)].reduce((n, c) => n + c.turns.length, 0) +
      stabilised(dir).targetTurns;
    expect(completions).toBe(turns);
    expect([...models]).toEqual(["airline"]); // the #model of the spec
  });
});

describe("a target that dies mid-conversation", () => {
  it("discovery records target_error sessions with the program's last words, and completes", () => {
    const { dir, cli } = done("dying");
    expect(cli.stderr).not.toMatch(/internal error/);
    expect(cli.code).toBe(0);
    const traces = tracesOf(dir);
    expect(traces).toHaveLength(2);
    const failed = traces.filter((t) => t.stop === "target_error");
    expect(failed.length).toBeGreaterThan(0);
    for (const t of failed) {
      expect(t.turns).toHaveLength(3); // two answered turns, then the one the program died on
      expect(t.turns.at(-1)?.reply).toBe("");
      expect(t.error).toMatch(/program exited \(code 4\): airline-bot: dying after 2 turns/);
    }
    // The turn the target died on is not a step of the agent's workflow: the graph counts answered turns only.
    const graph = JSON.parse(readFileSync(path.join(dir, "graph.json"), "utf8")) as {
      nodes: { activity: string; support: number }[];
    };
    const answered = traces.reduce((n, t) => n + t.turns.filter((turn) => turn.reply !== "").length, 0);
    expect(graph.nodes.length).toBeGreaterThan(0);
    expect(graph.nodes.reduce((n, node) => n + node.support, 0)).toBe(answered);
  });

  it("running a plan against it makes the runs it dies in inconclusive (errors in JUnit), not failed, and exits 1", () => {
    const { dir, cli } = done("dying-run");
    expect(cli.stderr).not.toMatch(/internal error/);
    // A target that cannot answer fails the CI job, though no test failed.
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/test run\(s\) could not reach the target/);
    const runs = runsOf(dir);
    expect(runs).toHaveLength(2);
    const cut = runs.filter((r) => r.turns.length > 2);
    expect(cut.length).toBeGreaterThan(0);
    for (const r of cut) {
      expect(r.verdict.verdict).toBe("inconclusive");
      expect(r.error).toMatch(/program exited \(code 4\)/);
    }
    expect(runs.filter((r) => r.verdict.verdict === "fail")).toEqual([]);
    const junit = readFileSync(path.join(dir, "junit.xml"), "utf8");
    expect(junit).toContain(`errors="${cut.length}"`);
    expect(junit).toMatch(
      /<error message="The target failed to answer at turn 3: [^"]*" type="target_error">/,
    );
  });
});
