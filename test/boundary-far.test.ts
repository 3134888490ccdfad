import { mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pharmacyAgent } from "../bench/agents/pharmacy.ts";
import type { TestbedTarget } from "../bench/agents/testbed.ts";
import { openChatTarget } from "../src/agents/chat/spec.ts";
import { runBoundaryCampaign } from "../src/boundary/pipeline.ts";
import { loadPlan, type PlanFile } from "../src/boundary/plan.ts";
import { boundaryRoles } from "../src/boundary/roles.ts";
import { runPlan } from "../src/boundary/run.ts";
import { RULES_ENGINES } from "../src/cli/boundary.ts";

/**
 * Zero false alarms by construction (issue 15 §3): a plan made against a clean agent — here the pharmacy
 * testbed agent, whose replies are paraphrased by seed — passes against that agent on every seed, seeds the
 * plan never saw included, and over HTTP; and it still fails the agent with a seeded fault on.
 */

const ENGINES = {
  runner: RULES_ENGINES.runner,
  labeller: RULES_ENGINES.labeller,
  judge: RULES_ENGINES.judge,
  facts: pharmacyAgent.facts,
};

/** A JSON bot over loopback: `{message, session}` in, `{reply}` out; one pharmacy agent (seed 1) per session. */
const sessions = new Map<string, TestbedTarget>();
const server = createServer(async (req: IncomingMessage, res) => {
  let text = "";
  for await (const chunk of req) text += chunk;
  const { message, session } = JSON.parse(text) as { message: string; session: string };
  let agent = sessions.get(session);
  if (!agent) {
    agent = pharmacyAgent.create({ seed: 1 });
    await agent.reset();
    sessions.set(session, agent);
  }
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ reply: (await agent.send(message)).text }));
});

let plan: PlanFile;
let url: string;

beforeAll(async () => {
  url = await new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`),
    ),
  );
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-far-"));
  await runBoundaryCampaign({
    spec: "testbed:pharmacy",
    target: pharmacyAgent.create({ seed: 1 }),
    variants: [pharmacyAgent.create({ seed: 2 }), pharmacyAgent.create({ seed: 3 })],
    dir,
    facts: pharmacyAgent.facts,
    engines: boundaryRoles(undefined, RULES_ENGINES, path.join(dir, "model-calls.jsonl")),
    rounds: 30,
    until: "plan",
  });
  plan = loadPlan(path.join(dir, "plan.yaml"));
}, 120_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failing = async (target: Parameters<typeof runPlan>[0]) =>
  (await runPlan(target, plan.tests, ENGINES))
    .filter((r) => r.verdict.verdict !== "pass")
    .map((r) => `${r.testId}: ${r.verdict.reason}`);

describe("a plan made against a clean agent (pharmacy testbed, rules engines)", () => {
  it("has functional and boundary tests", () => {
    expect(plan.tests.filter((t) => t.kind === "functional").length).toBeGreaterThan(5);
    expect(plan.tests.filter((t) => t.kind === "boundary").length).toBeGreaterThan(5);
  });

  it("passes against that agent on every seed, seeds 4 and 5 it never saw included", async () => {
    for (const seed of [1, 2, 3, 4, 5]) expect(await failing(pharmacyAgent.create({ seed }))).toEqual([]);
  }, 60_000);

  it("passes against it over HTTP (a JSON chat endpoint on loopback)", async () => {
    expect(await failing(openChatTarget(`json:${url}`))).toEqual([]);
  }, 60_000);

  it("still fails the agent with a seeded fault on (the tests can fail)", async () => {
    expect(
      (await failing(pharmacyAgent.create({ seed: 1, faults: ["skipConfirm"] }))).length,
    ).toBeGreaterThan(0);
  }, 60_000);
});
