import { runProcess } from "../workspace/process.ts";
import { confine, makeSandbox } from "../workspace/sandbox.ts";
import type { PreparedSource } from "../workspace/source.ts";
import { createWorkspace } from "../workspace/workspace.ts";
import { agentEnvironment } from "./agent-env.ts";

/**
 * Calibration run: the project's own test command, run once in a scratch workspace without any agent. It
 * shows which files the tests themselves write (reports such as `junit.xml`, caches), which oracles never
 * blame on an agent, and how long the tests take on this machine now, from which default step limits are
 * derived ({@link deriveStepLimitSec}) — so a busy machine gets longer limits instead of false timeouts. The
 * tests are code from the repository, so they run in the same sandbox as agents, and stop when `signal`
 * aborts.
 */

/** What the calibration run measured. */
export interface Calibration {
  /** Workspace-relative paths the test command added or modified, sorted. */
  byproducts: string[];
  /** Wall time of one test run, ms; undefined when there is no test command or it could not run. */
  testMs?: number;
  /** Exit code of that run (null when killed). */
  exitCode?: number | null;
}

/** Longest the calibration test run may take, ms. */
export const CALIBRATION_LIMIT_MS = 600_000;

/**
 * Run the project's tests once with no agent. Returns no byproducts and no time when there is no test
 * command, it could not run, or the run was aborted.
 */
export async function calibrate(
  source: PreparedSource,
  options: { timeoutMs?: number; signal?: AbortSignal; bwrap?: string } = {},
): Promise<Calibration> {
  if (!source.testCommand || options.signal?.aborted) return { byproducts: [] };
  const ws = await createWorkspace(source);
  try {
    const env = agentEnvironment(ws.root, {});
    const sandbox = options.bwrap
      ? makeSandbox(options.bwrap, ws.root, source.depsDir ? [source.depsDir] : [])
      : undefined;
    const r = await runProcess(confine({ shell: source.testCommand }, sandbox, ws.dir), {
      cwd: ws.dir,
      env,
      timeoutMs: options.timeoutMs ?? CALIBRATION_LIMIT_MS,
      signal: options.signal,
    });
    if (options.signal?.aborted) return { byproducts: [] };
    const byproducts = ws
      .captureStep()
      .sincePrevious.filter((d) => d.kind !== "deleted")
      .map((d) => d.path)
      .sort();
    return { byproducts, testMs: r.timedOut ? undefined : r.durationMs, exitCode: r.exitCode };
  } finally {
    await ws.dispose();
  }
}

/** Step-limit floors, seconds: what a step needs besides the tests (scripted agents act at once; real ones wait on a model). */
export const STEP_LIMIT_FLOOR_SEC = { scripted: 30, real: 120 } as const;

/**
 * The default per-step time limit, seconds, from the measured test duration: a step may run the tests a
 * few times, so 4× the calibrated run plus the floor of the slowest kind of agent under test. With no
 * measurement, the floor alone.
 * @param testMs calibrated test duration, ms (undefined: not measured)
 * @param realAgents true when any agent under test is a real CLI (not `scripted:`)
 */
export function deriveStepLimitSec(testMs: number | undefined, realAgents: boolean): number {
  const floor = realAgents ? STEP_LIMIT_FLOOR_SEC.real : STEP_LIMIT_FLOOR_SEC.scripted;
  return Math.ceil(floor + 4 * ((testMs ?? 0) / 1000));
}
