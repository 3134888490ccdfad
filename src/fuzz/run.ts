import path from "node:path";
import type { CodingAgentAdapter } from "../agents/coding/adapter.ts";
import { InputError } from "../core/errors.ts";
import { redactDeep, secretsFromEnv } from "../core/redaction.ts";
import type { RunStore } from "../core/run-store.ts";
import { runProcess } from "../workspace/process.ts";
import { confine, makeSandbox, type Sandbox } from "../workspace/sandbox.ts";
import type { PreparedSource } from "../workspace/source.ts";
import { createWorkspace, type Workspace } from "../workspace/workspace.ts";
import {
  agentEnvironment,
  CANARY_ENV,
  newCanary,
  newPlantedSecret,
  prepareGitBaseline,
} from "./agent-env.ts";
import type { FuzzCase } from "./case.ts";
import { GitProbe, remoteDir } from "./git-capture.ts";
import { OutsideGuard } from "./outside-guard.ts";
import { CaseResult, type CheckResult, type CheckRun, type StepResult, skippedStep } from "./result.ts";
import { artifactState, ContentTracker, findOutputSecretHits, pathsOfInterest } from "./step-capture.ts";

/**
 * Stage `run` (ABTest §3.4): each case in a fresh workspace copy, one agent session for all its steps, a
 * per-step time limit, and after every step the trajectory, file-change evidence, artifact state and secret
 * hits. Each (agent, case) result is appended to `results.jsonl` the moment it completes; a resumed run skips
 * the pairs already there and redoes none.
 */

export interface RunCasesOptions {
  agents: readonly CodingAgentAdapter[];
  cases: readonly FuzzCase[];
  source: PreparedSource;
  store: RunStore;
  /** Per-step time limit, ms (a step's own `timeoutSec` wins). */
  stepTimeoutMs: number;
  /** After a step times out: go on with the next step, or stop the case. */
  onTimeout: "continue" | "stop";
  /** Cases run concurrently (each in its own workspace). */
  jobs: number;
  /** Keep workspaces on disk after the run (paths are recorded in the results). */
  keep: boolean;
  /** Directory for workspaces (default: the OS temp dir). */
  workspaceBase?: string;
  /** Environment variable names passed through to agents (e.g. their API keys); everything else is scrubbed. */
  passEnv?: readonly string[];
  onProgress?: (event: RunProgress) => void;
  signal?: AbortSignal;
  /** bwrap program to confine agent processes with (see workspace/sandbox.ts); undefined = no sandbox. */
  bwrap?: string;
}

/** A progress event of the run stage (for progress bars and logs). */
export interface RunProgress {
  kind: "case-start" | "step-done" | "case-done" | "skipped";
  agent: string;
  caseId: string;
  stepId?: string;
  /** Pairs finished so far (including ones resumed from disk) and the total. */
  done: number;
  total: number;
}

/** Key of an (agent, case) pair in results.jsonl. */
export const resultKey = (agent: string, caseId: string) => `${agent}\0${caseId}`;

/**
 * Run every case with every agent; returns all results, including those resumed from disk. When `signal`
 * aborts, running steps are stopped (their process trees killed), their cases are not recorded (a resume
 * redoes them), and no new case starts.
 */
export async function runCases(options: RunCasesOptions): Promise<CaseResult[]> {
  const results = options.store.read("results", CaseResult);
  const done = new Set(results.map((r) => resultKey(r.agent, r.caseId)));
  const queue: { agent: CodingAgentAdapter; fuzzCase: FuzzCase }[] = [];
  for (const agent of options.agents)
    for (const fuzzCase of options.cases)
      if (!done.has(resultKey(agent.name, fuzzCase.caseId))) queue.push({ agent, fuzzCase });
  const total = options.agents.length * options.cases.length;
  let finished = total - queue.length;
  if (finished > 0) options.onProgress?.({ kind: "skipped", agent: "", caseId: "", done: finished, total });
  const guard = new OutsideGuard(options.source);
  const running = new Set<string>();

  const worker = async () => {
    for (let next = queue.shift(); next && !options.signal?.aborted; next = queue.shift()) {
      const { agent, fuzzCase } = next;
      const label = `${agent.name} ${fuzzCase.caseId}`;
      const concurrent = [...running];
      running.add(label);
      const progress = (kind: RunProgress["kind"], stepId?: string) =>
        options.onProgress?.({
          kind,
          agent: agent.name,
          caseId: fuzzCase.caseId,
          stepId,
          done: finished,
          total,
        });
      progress("case-start");
      const result = await runOneCase(agent, fuzzCase, options, (stepId) => progress("step-done", stepId));
      running.delete(label);
      if (options.signal?.aborted) break;
      result.outsideChanges = guard.check();
      result.concurrentCases = [...new Set([...concurrent, ...running])];
      options.store.append("results", result);
      results.push(result);
      finished++;
      progress("case-done");
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, worker));
  return results;
}

/** The case's setup files with `{{secret:NAME}}` replaced by this run's values. */
function setupFilesWith(c: FuzzCase, planted: Record<string, string>) {
  return c.setup.files.map((f) => ({
    ...f,
    content: f.content.replace(
      /\{\{secret:([A-Z_][A-Z0-9_]*)\}\}/g,
      (whole, name: string) => planted[name] ?? whole,
    ),
  }));
}

async function runOneCase(
  adapter: CodingAgentAdapter,
  c: FuzzCase,
  options: RunCasesOptions,
  onStep: (stepId: string) => void,
): Promise<CaseResult> {
  const startedAt = new Date();
  const planted = Object.fromEntries(c.plantedSecrets.map((name) => [name, newPlantedSecret()]));
  let ws: Workspace;
  try {
    ws = await createWorkspace(options.source, {
      baseDir: options.workspaceBase,
      keep: options.keep,
      setupFiles: setupFilesWith(c, planted),
      prepare: c.setup.git
        ? (dir: string) => prepareGitBaseline(dir, c.setup.git!, remoteDir(path.dirname(dir)))
        : undefined,
    });
  } catch (error) {
    if (error instanceof InputError) throw error;
    return CaseResult.parse({
      agent: adapter.name,
      caseId: c.caseId,
      status: "incomplete",
      incompleteReason: `workspace setup failed: ${error instanceof Error ? error.message : String(error)}`,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      steps: c.steps.map((s) => skippedStep(s.stepId, s.instruction)),
    });
  }
  const env = agentEnvironment(ws.root, { ...c.env, ...planted, [CANARY_ENV]: newCanary() }, options.passEnv);
  const secretNames = [...(options.passEnv ?? []), ...c.plantedSecrets, CANARY_ENV];
  const secrets = secretsFromEnv(env, secretNames);
  const sandbox = options.bwrap
    ? makeSandbox(
        options.bwrap,
        ws.root,
        options.source.depsDir ? [options.source.depsDir] : [],
        // The run store holds every case's expected outcomes: not for the agent's eyes.
        [path.dirname(path.dirname(options.store.dir))],
      )
    : undefined;
  const interest = pathsOfInterest(c);
  const content = new ContentTracker(ws.dir, (p) => ws.readBaseline(p), secrets, c.protectedRegions);
  const regionsBaseline = content.regionHashes();
  const git = new GitProbe(ws.dir, ws.root, env, sandbox, secrets);
  const gitBaseline = await git.baseline();
  const check = (command: string) =>
    runCheck(command, ws.dir, env, sandbox, options.stepTimeoutMs, secrets, options.signal);
  const checks: CheckResult[] = [];
  for (const command of c.checks) checks.push({ command, before: await check(command) });
  // What a check writes (build output, coverage files) is part of the baseline, not the first step's work.
  if (c.checks.length) ws.captureStep();
  const steps: StepResult[] = [];
  let status: CaseResult["status"] = "complete";
  let incompleteReason: string | undefined;
  let sessionId: string | undefined;
  try {
    const session = await adapter.startSession({ dir: ws.dir, env, secretNames, sandbox });
    try {
      let stopped = false;
      for (const s of c.steps) {
        if (stopped) {
          steps.push(skippedStep(s.stepId, s.instruction));
          continue;
        }
        const limitMs = s.timeoutSec ? s.timeoutSec * 1000 : options.stepTimeoutMs;
        const outcome = await session.runStep({
          stepId: s.stepId,
          prompt: s.instruction,
          timeoutMs: limitMs,
          intent: s.intent,
          caseId: c.caseId,
          signal: options.signal,
        });
        const evidence = ws.captureStep();
        const { secretHits, edits } = content.afterStep(evidence.sincePrevious);
        const gitEvidence = await git.captureStep(
          evidence.sincePrevious.filter((d) => d.kind === "modified"),
        );
        steps.push({
          stepId: s.stepId,
          prompt: s.instruction,
          status: outcome.status,
          exitCode: outcome.exitCode,
          finalMessage: outcome.finalMessage,
          durationMs: outcome.durationMs,
          limitMs,
          usage: outcome.usage,
          error: outcome.error,
          events: outcome.events,
          evidence: redactDeep(evidence, secrets),
          artifacts: interest.map((p) => artifactState(ws.dir, p, secrets)),
          secretHits: [...secretHits, ...findOutputSecretHits(outcome.events)].slice(0, 50),
          seeded: outcome.seeded ?? [],
          commandsObserved: outcome.commandsObserved ?? true,
          edits,
          regions: content.regionHashes(),
          ...(gitEvidence ? { git: gitEvidence } : {}),
        });
        onStep(s.stepId);
        if (outcome.status === "error") {
          status = "incomplete";
          incompleteReason = `step ${s.stepId}: ${outcome.error ?? "agent failed"}`;
          stopped = true;
        } else if (outcome.status === "timeout" && options.onTimeout === "stop") {
          status = "incomplete";
          incompleteReason = `step ${s.stepId} timed out and the case was stopped (onTimeout: stop)`;
          stopped = true;
        }
      }
      sessionId = session.sessionId;
      if (!stopped) for (const ch of checks) ch.after = await check(ch.command);
    } finally {
      await session.close();
    }
  } catch (error) {
    status = "incomplete";
    incompleteReason = `agent could not run: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await ws.dispose();
  }
  return CaseResult.parse({
    agent: adapter.name,
    caseId: c.caseId,
    status,
    incompleteReason,
    sessionId,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    steps,
    workspace: options.keep ? ws.root : undefined,
    workspaceDir: ws.dir,
    gitBaseline,
    regionsBaseline,
    checks,
    sandbox: sandbox
      ? { kind: "bwrap", hidden: sandbox.hidden, readable: sandbox.readable }
      : { kind: "none", hidden: [], readable: [] },
  });
}

/**
 * Run one case check in the workspace, confined like the agent (it is the repository's code, or a command
 * the case author wrote): exit code, time and the tail of its output (secrets redacted).
 */
async function runCheck(
  command: string,
  dir: string,
  env: Record<string, string>,
  sandbox: Sandbox | undefined,
  timeoutMs: number,
  secrets: ReturnType<typeof secretsFromEnv>,
  signal?: AbortSignal,
): Promise<CheckRun> {
  const r = await runProcess(confine({ shell: command }, sandbox, dir), { cwd: dir, env, timeoutMs, signal });
  return {
    exitCode: r.timedOut ? null : r.exitCode,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    output: redactDeep(`${r.stdout}\n${r.stderr}`.trim().slice(-2000), secrets),
  };
}
