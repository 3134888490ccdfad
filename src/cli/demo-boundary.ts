import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import pc from "picocolors";
import { AIRLINE_FACTS } from "../agents/chat/airline/facts.ts";
import { openChatTarget } from "../agents/chat/spec.ts";
import { runBoundaryCampaign } from "../boundary/pipeline.ts";
import { loadPlan } from "../boundary/plan.ts";
import { boundaryRoles } from "../boundary/roles.ts";
import { textTable } from "../report/tables.ts";
import { RULES_ENGINES } from "./boundary.ts";

/**
 * The boundary part of `gauntlet demo` (issue 5 §3): discover and plan on the built-in reference airline agent
 * (offline, `rules` engines), then run the plan as a regression suite against a version of the agent with two
 * seeded faults switched on — its confirmation gate removed and flight statuses masked — and audit the plan
 * with the agent's privileged view. Writes `<out>/boundary/{plan,faulty}/` and returns what went wrong:
 * a fail on the clean agent, or a seeded fault no test killed.
 */

/** The two faults the demo's "new version" of the airline agent ships with. */
export const DEMO_FAULTS = ["skipConfirmation", "maskFlightStatus"] as const;

/** Files the demo's campaigns write (removed before a new demo so nothing stale is resumed). */
const OWN_FILES = [
  "traces.jsonl",
  "abstract.jsonl",
  "graph.json",
  "graph.svg",
  "plan.yaml",
  "runs.jsonl",
  "stabilise.json",
  "audit.json",
  "summary.json",
  "report.html",
  "junit.xml",
  "model-calls.jsonl",
];

function fresh(dir: string): string {
  for (const f of OWN_FILES) if (existsSync(path.join(dir, f))) rmSync(path.join(dir, f));
  return dir;
}

/** Run the boundary demo into `<out>/boundary/`; returns the failed self-checks (empty when all is as designed). */
export async function boundaryDemo(out: string, log: (line: string) => void): Promise<string[]> {
  const planDir = fresh(path.join(out, "boundary", "plan"));
  const faultyDir = fresh(path.join(out, "boundary", "faulty"));
  const engines = (dir: string) =>
    boundaryRoles(undefined, RULES_ENGINES, path.join(dir, "model-calls.jsonl"));
  const clean = openChatTarget("airline");
  const planned = await runBoundaryCampaign({
    spec: "airline",
    target: clean,
    dir: planDir,
    facts: AIRLINE_FACTS,
    engines: engines(planDir),
    variants: [openChatTarget("airline?seed=2"), openChatTarget("airline?seed=3")],
    until: "run",
    onProgress: () => {},
  });
  const plan = loadPlan(path.join(planDir, "plan.yaml"));
  const spec = `airline?faults=${DEMO_FAULTS.join(",")}`;
  const faulty = openChatTarget(spec);
  const regression = await runBoundaryCampaign({
    spec,
    target: faulty,
    dir: faultyDir,
    facts: AIRLINE_FACTS,
    engines: engines(faultyDir),
    plan,
    auditFaults: DEMO_FAULTS,
    onProgress: () => {},
  });
  log("");
  const o = process.stdout;
  o.write(
    `\n${pc.bold("boundary")} — the reference airline agent: ${planned.traces} discovery sessions, workflow graph ${planned.graph.activities} activities / ${planned.graph.transitions} transitions, plan ${planned.tests.functional} functional + ${planned.tests.boundary} boundary tests\n\n`,
  );
  const audit = regression.audit;
  o.write(
    `${textTable([
      ["agent version", "pass", "fail", "inconclusive"],
      [
        "clean",
        String(planned.verdicts.pass),
        String(planned.verdicts.fail),
        String(planned.verdicts.inconclusive),
      ],
      [
        `faults: ${DEMO_FAULTS.join(", ")}`,
        String(regression.verdicts.pass),
        String(regression.verdicts.fail),
        String(regression.verdicts.inconclusive),
      ],
    ])}\n`,
  );
  if (audit)
    o.write(
      `audit: ${audit.boundary.distinct} distinct boundaries (duplicate rate ${audit.boundary.duplicateRate}), false-alarm rate ${audit.boundary.falseAlarmRate}; ${audit.kills.map((k) => `${k.fault} ${k.killedBy.length ? `killed by ${k.killedBy.length} test(s)` : "survived"}`).join(", ")}\n`,
    );
  o.write(`report: ${path.join(faultyDir, "report.html")}  (plan: ${path.join(planDir, "plan.yaml")})\n`);
  const problems: string[] = [];
  if (planned.verdicts.fail > 0)
    problems.push(
      `boundary: ${planned.verdicts.fail} test(s) failed on the clean reference agent (false alarms)`,
    );
  if (regression.verdicts.fail === 0)
    problems.push("boundary: no test failed on the agent with two seeded faults");
  for (const k of audit?.kills ?? [])
    if (!k.killedBy.length) problems.push(`boundary: seeded fault ${k.fault} was not killed by any test`);
  return problems;
}
