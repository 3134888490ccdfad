/**
 * Benchmark (issue 15): `gauntlet boundary` with the default `rules` engines on the four test agents —
 * the airline and bank agents the rules were built on, the telecom agent tuned on in issue 15, and a held-out
 * agent nobody tuning Gauntlet has read (bench/agents/heldout.ts). For each agent: discovery + plan against the
 * clean agent (paraphrase seed 1, the plan checked against seeds 2 and 3 as well, as the CLI does for the
 * built-in agent), then the plan run on the clean agent under seeds 1, 2, 3 and with each seeded fault on alone.
 *
 * Prints per agent: the share of the agent's designed states reached in discovery, graph size, tests, the
 * false-alarm rate (fails / decisive runs) and inconclusive rate over the three clean seeds, distinct
 * boundaries and duplicate rate (audit.ts cards), and the kill matrix (a fault is killed when a test passing on
 * the clean agent fails with it on; confirmed when the privileged fingerprint of that run differs), and the share
 * of discovery's replies whose label family holds when the same sessions are replayed under paraphrase seeds 2
 * and 3 (label-agreement.ts; `--verbose` lists the disagreeing label pairs, for a held-out agent by label family only). Targets on
 * the held-out agent: ≥ 80% of faults killed, FAR 0 over 3 seeds, ≥ 70% of designed states reached.
 *
 * Run: `npx tsx bench/boundary-agents.ts` (one agent: `BENCH_AGENTS=telecom`; `BENCH_ROUNDS=40` for R_disc, `BENCH_MAX_ROUNDS=200` for the coverage-driven budget, `BENCH_FUNCTIONAL=80` for N_f;
 * `--verbose` lists unreached states and surviving faults, except for the held-out agent; `BENCH_KEEP=1` keeps
 * the campaign directory of an agent not held out).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ChatTarget, TargetError } from "../src/agents/chat/target.ts";
import { cardKey, isValidRun } from "../src/boundary/audit.ts";
import { runBoundaryCampaign } from "../src/boundary/pipeline.ts";
import { loadPlan } from "../src/boundary/plan.ts";
import { boundaryRoles } from "../src/boundary/roles.ts";
import { runTest } from "../src/boundary/run.ts";
import { cueOf, type TestCase, type TestRun } from "../src/boundary/types.ts";
import { RULES_ENGINES } from "../src/cli/boundary.ts";
import type { TestbedAgent, TestbedTarget } from "./agents/testbed.ts";
import { labelAgreement } from "./label-agreement.ts";

/** The agents (module `./agents/<name>.ts` exporting `<name>Agent`), loaded when measured (`BENCH_AGENTS`). */
const AGENTS: readonly { name: string; role: string }[] = [
  { name: "airline", role: "built on" },
  { name: "bank", role: "built on" },
  { name: "telecom", role: "tuned on" },
  { name: "pharmacy", role: "tuned on" },
  { name: "insurance", role: "tuned on" },
  { name: "heldout", role: "tuned on" },
  { name: "heldout2", role: "tuned on" },
  { name: "parcel", role: "tuned on" },
  { name: "heldout3", role: "tuned on" },
  { name: "heldout4", role: "tuned on" },
  { name: "heldout5", role: "tuned on" },
  { name: "heldout6", role: "held out" },
  { name: "heldout7", role: "held out" },
  { name: "heldout8", role: "tuned on" },
  { name: "heldout9", role: "tuned on" },
  { name: "heldout10", role: "tuned on" },
  { name: "heldout11", role: "tuned on" },
  { name: "heldout12", role: "tuned on" },
  { name: "heldout13", role: "held out" },
  { name: "heldout14", role: "tuned on" },
  { name: "heldout15", role: "tuned on" },
  { name: "heldout16", role: "tuned on" },
  { name: "heldout17", role: "held out" },
  { name: "heldout18", role: "tuned on" },
  { name: "heldout19", role: "tuned on" },
  { name: "heldout20", role: "held out" },
  { name: "heldout21", role: "tuned on" },
  { name: "heldout22", role: "held out" },
];
/** The agent `name`, or undefined when its module is absent (the held-out agent is written apart). */
async function load(name: string): Promise<TestbedAgent | undefined> {
  const file = path.join(import.meta.dirname, "agents", `${name}.ts`);
  if (!existsSync(file)) return undefined;
  const mod = (await import(file)) as Record<string, TestbedAgent | undefined>;
  const agent = mod[`${name}Agent`];
  return agent && { ...agent, create: (options) => crashSafe(agent.create(options)) };
}

/**
 * `target` with an exception thrown inside the agent (its own bug, a TypeError on an input it did not expect)
 * turned into a TargetError, as an HTTP bot's crash is a 500: that session ends, the measurement goes on.
 */
function crashSafe(target: TestbedTarget): TestbedTarget {
  const send = target.send.bind(target);
  target.send = async (text) => {
    try {
      return await send(text);
    } catch (error) {
      if (error instanceof TargetError) throw error;
      throw new TargetError(target.name, `the agent crashed: ${(error as Error).message}`);
    }
  };
  return target;
}
const SEEDS = [1, 2, 3];
/** Paraphrase seeds the plan never saw (stabilisation ran on SEEDS): the honest false-alarm rate. */
const UNSEEN = [4, 5];

/** A target that collects the designed states its sessions entered while `on`. */
function recording(target: TestbedTarget): { target: ChatTarget; reached: Set<string>; stop(): void } {
  const reached = new Set<string>();
  let on = true;
  const collect = () => {
    if (on) for (const s of target.statesVisited()) reached.add(s);
  };
  return {
    reached,
    stop() {
      collect();
      on = false;
    },
    target: {
      name: target.name,
      async reset() {
        collect();
        await target.reset();
      },
      send: (text) => target.send(text),
      async close() {
        collect();
        await target.close();
      },
    },
  };
}

const pct = (a: number, b: number) => (b === 0 ? "—" : `${((100 * a) / b).toFixed(0)}%`);
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Every test against `target`, with the privileged fingerprint taken right after each run. */
async function runAll(
  target: TestbedTarget,
  tests: readonly TestCase[],
  engines: Parameters<typeof runTest>[2],
) {
  const out = new Map<string, { run: TestRun; fingerprint: string }>();
  for (const test of tests) {
    const run = await runTest(target, test, engines);
    out.set(test.id, { run, fingerprint: target.fingerprint() });
  }
  return out;
}

interface AgentFigures {
  name: string;
  role: string;
  states: string;
  far: string;
  farUnseen: string;
  inconclusive: string;
  killed: string;
  distinct: number;
  duplicateRate: string;
  tests: string;
  graph: string;
  /** Share of discovery's replies whose label family holds across paraphrase seeds 2 and 3 (label-agreement.ts). */
  labels: string;
  ok?: boolean;
}

/**
 * A failed run in figures only, no wording (safe for the held-out agent): the test's kind, the side and check
 * kind of the criterion that decided it, and the activity cues expected and labelled.
 */
function failShape(tests: readonly TestCase[], r: TestRun): string {
  const test = tests.find((t) => t.id === r.testId);
  const side = r.verdict.reason.startsWith("Failure") ? "failure" : "success";
  const criterion = [...(test?.success ?? []), ...(test?.failure ?? [])].find((c) =>
    r.verdict.reason.includes(c.text),
  );
  const check = criterion?.check;
  const wanted =
    check && "activity" in check && check.activity
      ? ` wants ${[...new Set(check.activity.map(cueOf))].join("|")};`
      : "";
  const seen = [...new Set(r.labels.map((l) => cueOf(l.activity)))].join(",");
  return `${test?.card?.perturbation ?? test?.kind}; ${side} criterion, check ${check?.kind ?? "?"};${wanted} labelled ${seen}; ${r.turns.length} turns`;
}

async function measure(agent: TestbedAgent, role: string, verbose: boolean): Promise<AgentFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `gauntlet-bench-boundary-${agent.name}-`));
  const started = performance.now();
  try {
    const spec = `testbed:${agent.name}`;
    const engines = boundaryRoles(undefined, RULES_ENGINES, path.join(dir, "model-calls.jsonl"));
    const rounds = process.env.BENCH_ROUNDS ? Number(process.env.BENCH_ROUNDS) : undefined;
    const base = {
      spec,
      dir,
      facts: agent.facts,
      engines,
      ...(rounds ? { rounds } : {}),
      ...(process.env.BENCH_MAX_ROUNDS ? { maxRounds: Number(process.env.BENCH_MAX_ROUNDS) } : {}),
      ...(process.env.BENCH_FUNCTIONAL ? { functionalMax: Number(process.env.BENCH_FUNCTIONAL) } : {}),
      onProgress: () => {},
    };
    const discovery = recording(agent.create({ seed: 1 }));
    await runBoundaryCampaign({ ...base, target: discovery.target, until: "discover" });
    discovery.stop();
    const variants = SEEDS.slice(1).map((seed) => agent.create({ seed }));
    const summary = await runBoundaryCampaign({
      ...base,
      target: agent.create({ seed: 1 }),
      variants,
      until: "plan",
    });
    const plan = loadPlan(path.join(dir, "plan.yaml"));
    if (verbose && role !== "held out") {
      for (const t of plan.tests) console.log(`  test ${t.id}: ${t.goal}`);
      if (existsSync(path.join(dir, "stabilise.json"))) {
        const stable = JSON.parse(readFileSync(path.join(dir, "stabilise.json"), "utf8")) as {
          rejected: {
            id: string;
            goal: string;
            reason: string;
            turns: { user: string; reply: string; activity: string }[];
          }[];
        };
        for (const r of stable.rejected) {
          console.log(`  rejected ${r.id}: ${r.goal}\n    ${r.reason}`);
          for (const t of r.turns)
            console.log(
              `    U: ${t.user}\n    A(${t.activity}): ${t.reply.replace(/\n/g, " ").slice(0, 200)}`,
            );
        }
      }
    }
    const run = {
      runner: engines.runner,
      labeller: engines.labeller,
      judge: engines.judge,
      facts: agent.facts,
    };
    const clean = new Map<number, Map<string, { run: TestRun; fingerprint: string }>>();
    for (const seed of SEEDS) clean.set(seed, await runAll(agent.create({ seed }), plan.tests, run));
    let fail = 0;
    let pass = 0;
    let inc = 0;
    for (const [seed, runs] of clean)
      for (const { run: r } of runs.values()) {
        if (r.verdict.verdict === "fail") {
          fail++;
          console.log(`  clean seed ${seed} fails ${r.testId} (${failShape(plan.tests, r)})`);
        } else if (r.verdict.verdict === "pass") pass++;
        else inc++;
      }
    let unseenFail = 0;
    let unseenRuns = 0;
    for (const seed of UNSEEN)
      for (const { run: r } of (await runAll(agent.create({ seed }), plan.tests, run)).values()) {
        unseenRuns++;
        if (r.verdict.verdict !== "fail") continue;
        unseenFail++;
        if (verbose && role === "held out")
          console.log(`  unseen seed ${seed} fails ${r.testId} (${failShape(plan.tests, r)})`);
        else if (verbose)
          console.log(
            `  unseen seed ${seed} fails ${r.testId}: ${r.verdict.reason}\n${r.turns.map((t, i) => `    U: ${t.user}\n    A(${r.labels[i]?.activity}): ${t.reply.replace(/\n/g, " ").slice(0, 200)}`).join("\n")}`,
          );
      }
    const first = clean.get(1) as Map<string, { run: TestRun; fingerprint: string }>;
    const cards = new Set<string>();
    let valid = 0;
    for (const t of plan.tests.filter((x) => x.kind === "boundary")) {
      const r = first.get(t.id)?.run;
      if (r && isValidRun(t, r)) {
        valid++;
        cards.add(cardKey(t, r));
      }
    }
    const kills: { fault: string; acted: number; by: string[]; confirmed: boolean }[] = [];
    for (const fault of agent.faults) {
      const runs = await runAll(agent.create({ faults: [fault], seed: 1 }), plan.tests, run);
      const by = [...runs].filter(
        ([id, r]) => first.get(id)?.run.verdict.verdict === "pass" && r.run.verdict.verdict === "fail",
      );
      // Tests in which the fault acted (the privileged fingerprint differs from the clean run's): a fault that
      // acted but killed nothing is a detection gap, one that never acted a reach gap.
      const acting = [...runs].filter(([id, r]) => first.get(id)?.fingerprint !== r.fingerprint);
      const acted = acting.length;
      // A detection gap, shown for the agents tuned on: the first test in which the fault acted, clean and
      // faulty run side by side with the verdicts.
      const shown = acting[0];
      if (verbose && role !== "held out" && shown && by.length === 0) {
        const [id, faulty] = shown;
        const cleanRun = first.get(id)?.run;
        const lines = (r: TestRun) =>
          r.turns
            .map(
              (t, i) =>
                `      U: ${t.user}\n      A(${r.labels[i]?.activity}): ${t.reply.replace(/\n/g, " ").slice(0, 200)}`,
            )
            .join("\n");
        console.log(
          `  ${fault} acted in ${id} (${plan.tests.find((t) => t.id === id)?.goal}) but passed: ${faulty.run.verdict.reason}\n    faulty run:\n${lines(faulty.run)}${cleanRun ? `\n    clean run:\n${lines(cleanRun)}` : ""}`,
        );
      }
      kills.push({
        fault,
        acted,
        by: by.map(([id]) => id),
        confirmed: by.some(([id, r]) => first.get(id)?.fingerprint !== r.fingerprint),
      });
    }
    const killed = kills.filter((k) => k.by.length).length;
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const heldOut = role === "held out";
    console.log(
      `\n## ${agent.name} (${role}) — ${agent.description}\n` +
        `discovery: ${summary.traces} sessions, ${discovery.reached.size} of ${agent.states.length} designed states reached (${pct(discovery.reached.size, agent.states.length)}); graph ${summary.graph.activities} activities / ${summary.graph.transitions} transitions\n` +
        `plan: ${summary.tests.functional} functional + ${summary.tests.boundary} boundary tests; clean agent over seeds ${SEEDS.join(", ")}: ${pass} pass, ${fail} fail, ${inc} inconclusive (FAR ${ratio(fail, fail + pass).toFixed(3)}, inconclusive rate ${ratio(inc, pass + fail + inc).toFixed(3)}); unseen seeds ${UNSEEN.join(", ")}: ${unseenFail} of ${unseenRuns} runs fail (FAR ${ratio(unseenFail, unseenRuns).toFixed(3)})\n` +
        `boundaries: ${valid} valid, ${cards.size} distinct, duplicate rate ${ratio(valid - cards.size, valid).toFixed(3)}\n` +
        `kill matrix (${killed} of ${kills.length} seeded faults killed, ${pct(killed, kills.length)}; ${secs} s):`,
    );
    for (const k of kills)
      console.log(
        `  ${k.fault.padEnd(24)} ${k.by.length ? `killed by ${String(k.by.length).padStart(2)} test(s)${k.confirmed ? ", confirmed" : ", not confirmed by the privileged view"}` : "survived"} (acted in ${k.acted} test(s))`,
      );
    // Aggregates only (no wording, no states): safe to print for the held-out agent too.
    const traces = readFileSync(path.join(dir, "traces.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { stop: string; turns: { user: string; reply: string }[] });
    const stops = new Map<string, number>();
    for (const t of traces) stops.set(t.stop, (stops.get(t.stop) ?? 0) + 1);
    const stable = existsSync(path.join(dir, "stabilise.json"))
      ? (JSON.parse(readFileSync(path.join(dir, "stabilise.json"), "utf8")) as Record<string, unknown>)
      : {};
    console.log(
      `  sessions: ${(traces.reduce((n, t) => n + t.turns.length, 0) / Math.max(1, traces.length)).toFixed(1)} turns on average; stops ${[...stops].map(([k, n]) => `${k} ${n}`).join(", ")}; stabilisation dropped ${stable.droppedTests ?? 0} test(s), ${stable.droppedCriteria ?? 0} criteria, ${stable.droppedValues ?? 0} value(s), rejected ${(stable.rejected as unknown[] | undefined)?.length ?? 0}`,
    );
    // The labeller on the same sessions under the plan's other paraphrase seeds (figures only when held out).
    const agreement = await labelAgreement(agent, agent.facts, traces, [2, 3]);
    console.log(
      `  labels across paraphrases: ${agreement.agree} of ${agreement.turns} replies keep their seed-1 label family (${pct(agreement.agree, agreement.turns)})`,
    );
    // (A held-out agent's disagreements by label family only: no wording, no topic.)
    if (verbose && heldOut)
      for (const p of agreement.families.slice(0, 8)) console.log(`    ${p.count}× ${p.pair}`);
    else if (verbose)
      for (const p of agreement.pairs.slice(0, 12))
        console.log(
          `    ${p.count}× ${p.pair}\n      1: ${p.seed1.replace(/\n/g, " ").slice(0, 160)}\n      s: ${p.other.replace(/\n/g, " ").slice(0, 160)}`,
        );
    const guards = summary.guards;
    const open = guards.filter((g) => !g.tests.length);
    console.log(
      `  guards and branches: ${guards.length} seen in discovery, ${guards.length - open.length} targeted by a test${open.length && !heldOut ? ` (not: ${open.map((g) => g.activity).join(", ")})` : ""}`,
    );
    if (verbose && !heldOut) {
      const missing = agent.states.filter((s) => !discovery.reached.has(s));
      console.log(`  states not reached: ${missing.join(", ") || "none"}`);
    }
    const figures: AgentFigures = {
      name: agent.name,
      role,
      states: pct(discovery.reached.size, agent.states.length),
      far: ratio(fail, fail + pass).toFixed(3),
      farUnseen: ratio(unseenFail, unseenRuns).toFixed(3),
      inconclusive: ratio(inc, pass + fail + inc).toFixed(3),
      killed: `${killed}/${kills.length} (${pct(killed, kills.length)})`,
      distinct: cards.size,
      duplicateRate: ratio(valid - cards.size, valid).toFixed(3),
      tests: `${summary.tests.functional}+${summary.tests.boundary}`,
      graph: `${summary.graph.activities}/${summary.graph.transitions}`,
      labels: pct(agreement.agree, agreement.turns),
    };
    if (heldOut)
      figures.ok =
        killed >= 0.8 * kills.length && fail === 0 && discovery.reached.size >= 0.7 * agent.states.length;
    for (const v of variants) await v.close();
    return figures;
  } finally {
    // BENCH_KEEP=1 keeps the campaign directory (traces, graph, plan, stabilisation) to read afterwards.
    if (process.env.BENCH_KEEP && role !== "held out") console.log(`  kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_AGENTS?.split(",").map((s) => s.trim());
  const verbose = process.argv.includes("--verbose");
  const rows: AgentFigures[] = [];
  for (const { name, role } of AGENTS) {
    if (only && !only.includes(name)) continue;
    const agent = await load(name);
    if (agent) rows.push(await measure(agent, role, verbose));
    else console.log(`\n## ${name}: bench/agents/${name}.ts is absent or exports no ${name}Agent; skipped`);
  }
  console.log(
    "\nboundary-agents (rules engines, defaults; FAR and inconclusive rate over the clean agent's seeds 1–3, the plan's own; FAR unseen over seeds 4–5)",
  );
  const head = [
    "agent",
    "role",
    "states reached",
    "graph",
    "tests f+b",
    "FAR",
    "FAR unseen",
    "inconclusive",
    "distinct",
    "dup rate",
    "faults killed",
    "labels agree",
  ];
  const table = [
    head,
    ...rows.map((r) => [
      r.name,
      r.role,
      r.states,
      r.graph,
      r.tests,
      r.far,
      r.farUnseen,
      r.inconclusive,
      String(r.distinct),
      r.duplicateRate,
      r.killed,
      r.labels,
    ]),
  ];
  const widths = head.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
  for (const row of table) console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  "));
  for (const held of rows.filter((r) => r.role === "held out"))
    console.log(
      `held-out targets on ${held.name} (≥ 80% killed, FAR 0 over 3 seeds, ≥ 70% states reached): ${held.ok ? "met" : "NOT met"}`,
    );
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await main();
