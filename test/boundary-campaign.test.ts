import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AIRLINE_FAULTS, airlineTarget } from "../src/agents/chat/airline/agent.ts";
import { AIRLINE_FACTS } from "../src/agents/chat/airline/facts.ts";
import { type CampaignSummary, runBoundaryCampaign } from "../src/boundary/pipeline.ts";
import { loadPlan, type PlanFile } from "../src/boundary/plan.ts";
import { boundaryRoles } from "../src/boundary/roles.ts";
import { runPlan } from "../src/boundary/run.ts";
import { RULES_ENGINES } from "../src/cli/boundary.ts";

/**
 * Issue 5 "done when", offline with the `rules` engines against the reference airline agent: a whole
 * campaign (24–100 coverage-driven discovery sessions of ≤ 10 turns, N_f = 50, N_b = 50), then the privileged audit — false alarms
 * on the clean agent ≤ 2 %, each of the 8 seeded faults killed by at least one test, at least 25 distinct
 * boundaries at a duplicate rate ≤ 0.25.
 */

let dir: string;
let summary: CampaignSummary;
let plan: PlanFile;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "gauntlet-boundary-"));
  summary = await runBoundaryCampaign({
    spec: "airline",
    target: airlineTarget(),
    dir,
    facts: AIRLINE_FACTS,
    engines: boundaryRoles(undefined, RULES_ENGINES, path.join(dir, "model-calls.jsonl")),
    auditFaults: AIRLINE_FAULTS,
  });
  plan = loadPlan(path.join(dir, "plan.yaml"));
}, 60_000);

describe("a boundary campaign against the reference airline agent (rules engines)", () => {
  it("explores, mines a graph and plans functional and boundary tests within the budgets", () => {
    // Coverage-driven discovery: at least R_disc = 24 sessions, more while they still find something, ≤ 200 (the default budget).
    expect(summary.traces).toBeGreaterThanOrEqual(24);
    expect(summary.traces).toBeLessThanOrEqual(200);
    expect(summary.graph.activities).toBeGreaterThanOrEqual(12);
    expect(summary.tests.functional).toBeGreaterThan(5);
    expect(summary.tests.boundary).toBeGreaterThan(25);
    expect(summary.tests.boundary).toBeLessThanOrEqual(50);
    expect(plan.tests.length).toBe(summary.tests.functional + summary.tests.boundary);
  });

  it("raises false alarms on at most 2% of the clean agent's decisive runs", () => {
    const audit = summary.audit!;
    expect(audit.functional.falseAlarmRate).toBeLessThanOrEqual(0.02);
    expect(audit.boundary.falseAlarmRate).toBeLessThanOrEqual(0.02);
    expect(summary.verdicts.fail / plan.tests.length).toBeLessThanOrEqual(0.02);
  });

  it("kills each of the eight seeded faults, confirmed by the privileged view", () => {
    const kills = Object.fromEntries(summary.audit!.kills.map((k) => [k.fault, k]));
    for (const fault of AIRLINE_FAULTS) {
      expect(kills[fault]?.killedBy.length, fault).toBeGreaterThan(0);
      expect(kills[fault]?.confirmed, fault).toBe(true);
    }
  });

  it("covers at least 25 distinct boundaries at a duplicate rate of at most 0.25", () => {
    const b = summary.audit!.boundary;
    expect(b.distinct).toBeGreaterThanOrEqual(25);
    expect(b.duplicateRate).toBeLessThanOrEqual(0.25);
    expect(b.validity).toBeGreaterThanOrEqual(0.9);
  });

  it("reports the cost of every stage in summary.json, and writes the report and JUnit XML", () => {
    const written = JSON.parse(readFileSync(path.join(dir, "summary.json"), "utf8")) as CampaignSummary;
    expect(written.costs.map((c) => c.stage)).toEqual([
      "discover",
      "abstract",
      "graph",
      "plan",
      "run",
      "audit",
    ]);
    expect(written.costs.find((c) => c.stage === "discover")?.targetTurns).toBeGreaterThan(24);
    expect(readFileSync(path.join(dir, "report.html"), "utf8")).toContain("<svg");
    expect(readFileSync(path.join(dir, "junit.xml"), "utf8")).toContain(`tests="${plan.tests.length}"`);
  });

  it("copies every id-like value in a test from a discovery trace or the facts (or marks it invalid on purpose)", () => {
    const traces = readFileSync(path.join(dir, "traces.jsonl"), "utf8");
    const known = new Set(AIRLINE_FACTS.personas.flatMap((p) => Object.values(p).flat()));
    for (const t of plan.tests)
      for (const token of t.hints.join(" ").match(/\b[A-Z0-9]{6}\b|\b[a-z]+_[a-z]+_\d{4}\b/g) ?? [])
        expect(
          traces.includes(token) || known.has(token) || t.card?.perturbation === "invalid_value",
          `${t.id}: ${token}`,
        ).toBe(true);
  });

  it("keeps passing when the agent words its replies differently (another paraphrase seed)", async () => {
    const runs = await runPlan(airlineTarget({ seed: 7 }), plan.tests, {
      runner: RULES_ENGINES.runner,
      labeller: RULES_ENGINES.labeller,
      judge: RULES_ENGINES.judge,
      facts: AIRLINE_FACTS,
    });
    expect(runs.filter((r) => r.verdict.verdict === "fail").map((r) => r.testId)).toEqual([]);
  });

  it("fails the plan's tests on an agent whose confirmation gate was removed, quoting the deciding turn", async () => {
    const runs = await runPlan(airlineTarget({ faults: { skipConfirmation: true } }), plan.tests, {
      runner: RULES_ENGINES.runner,
      labeller: RULES_ENGINES.labeller,
      judge: RULES_ENGINES.judge,
      facts: AIRLINE_FACTS,
    });
    const failed = runs.filter((r) => r.verdict.verdict === "fail");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.verdict.quotes.length > 0)).toBe(true);
  });
});
