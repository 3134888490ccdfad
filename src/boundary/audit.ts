import { type AirlineFaults, airlineTarget, type PrivilegedView } from "../agents/chat/airline/agent.ts";
import { runTest } from "./run.ts";
import type {
  AuditRates,
  AuditSummary,
  Facts,
  Judge,
  KillRow,
  Labeller,
  Runner,
  TestCase,
  TestRun,
} from "./types.ts";

/**
 * The privileged audit of a plan against the reference airline agent (AgentEval §VI-B, Tables III and VII).
 * The auditor sees what the tester cannot: the agent's tool trace and database, and which faults are on.
 *
 * - Clean agent (no fault): it follows the policy by construction, so every `fail` is a false alarm (FP),
 *   every `pass` a true negative; FAR = FP / (FP + TN), accuracy = TN / N, inconclusive rate = INC / N.
 * - Validity: a test is valid when its clean run is decisive (not inconclusive) and every hint was sent
 *   (the test reached the place it perturbs).
 * - Distinct boundaries: valid boundary tests clustered by their card (capability, stressed activity,
 *   perturbation, the clean agent's observed reply to the perturbing turn; {@link cardKey}) — exact match,
 *   where the paper's auditor clusters cards semantically with a model; duplicate rate = 1 − distinct / valid.
 * - Kill matrix: with one fault switched on, a fault is killed when a test that passes on the clean agent
 *   fails; the kill is confirmed when the privileged view of that run differs from the clean run's (a
 *   different write to the database, or a different tool output the agent relayed).
 */

/** One run with the privileged fingerprint taken right after it. */
export interface AuditedRun {
  run: TestRun;
  /** Tool calls (name, arguments, output or error) and the database hash at the end of the run. */
  fingerprint: string;
}

/** Engines a run needs. */
export interface RunEngines {
  runner: Runner;
  labeller: Labeller;
  judge: Judge;
  facts: Facts;
}

const fingerprintOf = (view: PrivilegedView) =>
  JSON.stringify({
    calls: view.trace.map((c) => [c.name, c.args, c.result ?? null, c.error ?? null]),
    db: view.dbHash,
  });

/** Run every test against a fresh reference agent with `faults`, fingerprinting each run. */
export async function runAudited(
  tests: readonly TestCase[],
  engines: RunEngines,
  options: { faults?: AirlineFaults; seed?: number; onRun?: (run: TestRun) => void } = {},
): Promise<AuditedRun[]> {
  const target = airlineTarget({ seed: options.seed ?? 1, faults: options.faults ?? {} });
  const out: AuditedRun[] = [];
  for (const test of tests) {
    const run = await runTest(target, test, engines);
    out.push({ run, fingerprint: fingerprintOf(target.privileged()) });
    options.onRun?.(run);
  }
  await target.close();
  return out;
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 1000) / 1000);

/** Whether a clean run is valid (see module doc). */
export function isValidRun(test: TestCase, run: TestRun): boolean {
  if (run.verdict.verdict === "inconclusive" || run.error) return false;
  const sent = run.turns.map((t) => t.user);
  return test.hints.every((h) => sent.includes(h));
}

/**
 * The boundary card of a test as the audit sees it: capability (the first request in the clean run), the
 * activity where the perturbation lands, the perturbation, and the behaviour the clean agent actually showed
 * in reply to the perturbing turn — observed, not what the generator claimed. Two tests with the same card
 * stress the same boundary.
 */
export function cardKey(test: TestCase, run?: TestRun): string {
  const c = test.card;
  if (!c) return `test:${test.id}`;
  const site = c.guard.split(" -> ")[0] ?? c.guard;
  const labels = run?.labels ?? [];
  const capability = labels.find((l) => l.userAction.startsWith("request_"))?.userAction ?? c.capability;
  const last = test.hints.at(-1);
  const at = run ? run.turns.findIndex((t) => t.user === last) : -1;
  const observed = at >= 0 ? (labels[at]?.activity ?? "?") : c.expected.split("|").sort().join("|");
  return [capability, site, c.perturbation, observed].join(" · ");
}

function rates(
  tests: readonly TestCase[],
  runs: ReadonlyMap<string, TestRun>,
  boundary: boolean,
): AuditRates {
  let valid = 0;
  let fp = 0;
  let tn = 0;
  let inc = 0;
  const cards = new Set<string>();
  for (const t of tests) {
    const run = runs.get(t.id);
    if (!run) continue;
    const v = run.verdict.verdict;
    if (v === "fail") fp++;
    else if (v === "pass") tn++;
    else inc++;
    if (isValidRun(t, run)) {
      valid++;
      if (boundary) cards.add(cardKey(t, run));
    }
  }
  const n = fp + tn + inc;
  return {
    tests: tests.length,
    valid,
    validity: ratio(valid, tests.length),
    ...(boundary ? { distinct: cards.size, duplicateRate: ratio(valid - cards.size, valid) } : {}),
    falseAlarmRate: ratio(fp, fp + tn),
    accuracy: ratio(tn, n),
    inconclusiveRate: ratio(inc, n),
  };
}

/**
 * Audit a plan: run it on the clean reference agent and on each seeded fault alone.
 * @param faults fault names of {@link AirlineFaults} to switch on one at a time (default: all eight)
 * @returns the summary (rates and kill matrix) and every run, clean and per fault
 */
export async function auditPlan(
  tests: readonly TestCase[],
  engines: RunEngines,
  options: { faults: readonly (keyof AirlineFaults)[]; seed?: number; onProgress?: (line: string) => void },
): Promise<{ summary: AuditSummary; clean: AuditedRun[]; faulty: Record<string, AuditedRun[]> }> {
  const clean = await runAudited(tests, engines, { seed: options.seed ?? 1 });
  const cleanById = new Map(clean.map((r) => [r.run.testId, r]));
  options.onProgress?.(
    `audit clean agent: ${clean.filter((r) => r.run.verdict.verdict === "fail").length} fail of ${clean.length}`,
  );
  const faulty: Record<string, AuditedRun[]> = {};
  const kills: KillRow[] = [];
  for (const fault of options.faults) {
    const runs = await runAudited(tests, engines, { seed: options.seed ?? 1, faults: { [fault]: true } });
    faulty[fault] = runs;
    const killers = runs.filter((r) => {
      const base = cleanById.get(r.run.testId);
      return base?.run.verdict.verdict === "pass" && r.run.verdict.verdict === "fail";
    });
    kills.push({
      fault,
      killedBy: killers.map((r) => r.run.testId),
      confirmed: killers.some((r) => cleanById.get(r.run.testId)?.fingerprint !== r.fingerprint),
    });
    options.onProgress?.(
      `audit ${fault}: ${killers.length ? `killed by ${killers.length} test(s)` : "survived"}`,
    );
  }
  const runs = new Map(clean.map((r) => [r.run.testId, r.run]));
  return {
    summary: {
      functional: rates(
        tests.filter((t) => t.kind === "functional"),
        runs,
        false,
      ),
      boundary: rates(
        tests.filter((t) => t.kind === "boundary"),
        runs,
        true,
      ),
      kills,
    },
    clean,
    faulty,
  };
}
