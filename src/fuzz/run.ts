import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { CodingAgentAdapter } from "../agents/coding/adapter.ts";
import { sha256 } from "../core/ids.ts";
import { redact, redactDeep, type Secret, secretsFromEnv } from "../core/redaction.ts";
import type { RunStore } from "../core/run-store.ts";
import { runProcess } from "../workspace/process.ts";
import type { PreparedSource } from "../workspace/source.ts";
import { createWorkspace, type Workspace } from "../workspace/workspace.ts";
import type { FuzzCase } from "./case.ts";
import { type ArtifactState, CaseResult, type SecretHit, type StepResult, skippedStep } from "./result.ts";

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
  /** Per-step time limit, ms. */
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
}

export interface RunProgress {
  kind: "case-start" | "step-done" | "case-done" | "skipped";
  agent: string;
  caseId: string;
  stepId?: string;
  /** Pairs finished so far (including ones resumed from disk) and the total. */
  done: number;
  total: number;
}

const ARTIFACT_CAP = 16 * 1024;

/** Key of an (agent, case) pair in results.jsonl. */
export const resultKey = (agent: string, caseId: string) => `${agent}\0${caseId}`;

/** Run every case with every agent; returns all results, including those resumed from disk. */
export async function runCases(options: RunCasesOptions): Promise<CaseResult[]> {
  const results = options.store.read("results", CaseResult);
  const done = new Set(results.map((r) => resultKey(r.agent, r.caseId)));
  const queue: { agent: CodingAgentAdapter; fuzzCase: FuzzCase }[] = [];
  for (const agent of options.agents)
    for (const fuzzCase of options.cases)
      if (!done.has(resultKey(agent.name, fuzzCase.caseId))) queue.push({ agent, fuzzCase });
  const total = options.agents.length * options.cases.length;
  let finished = total - queue.length;
  for (const r of results)
    options.onProgress?.({ kind: "skipped", agent: r.agent, caseId: r.caseId, done: finished, total });

  const worker = async () => {
    for (let next = queue.shift(); next && !options.signal?.aborted; next = queue.shift()) {
      options.onProgress?.({
        kind: "case-start",
        agent: next.agent.name,
        caseId: next.fuzzCase.caseId,
        done: finished,
        total,
      });
      const result = await runOneCase(next.agent, next.fuzzCase, options, (stepId) =>
        options.onProgress?.({
          kind: "step-done",
          agent: next.agent.name,
          caseId: next.fuzzCase.caseId,
          stepId,
          done: finished,
          total,
        }),
      );
      options.store.append("results", result);
      results.push(result);
      finished++;
      options.onProgress?.({
        kind: "case-done",
        agent: next.agent.name,
        caseId: next.fuzzCase.caseId,
        done: finished,
        total,
      });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, worker));
  return results;
}

/** Environment for an agent: scrubbed, isolated HOME and TMPDIR, git identity, the case's variables. */
export function agentEnvironment(
  root: string,
  caseEnv: Record<string, string>,
  passEnv: readonly string[] = [],
): Record<string, string> {
  const home = path.join(root, "home");
  const tmp = path.join(root, "tmp");
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const passed: Record<string, string> = {};
  for (const name of passEnv) if (process.env[name] !== undefined) passed[name] = process.env[name]!;
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    GIT_AUTHOR_NAME: "Gauntlet Agent",
    GIT_AUTHOR_EMAIL: "agent@gauntlet.invalid",
    GIT_COMMITTER_NAME: "Gauntlet Agent",
    GIT_COMMITTER_EMAIL: "agent@gauntlet.invalid",
    GIT_CONFIG_NOSYSTEM: "1",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...passed,
    ...caseEnv,
  };
}

/** Turn the workspace into a git repo with one baseline commit, then leave the case's uncommitted edits. */
async function prepareGit(
  dir: string,
  uncommitted: readonly { path: string; appendLine: string }[],
): Promise<void> {
  const env = agentEnvironment(path.dirname(dir), {});
  const git = async (args: string[]) => {
    const r = await runProcess({ file: "git", args }, { cwd: dir, env, timeoutMs: 60_000 });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.trim()}`);
  };
  await git(["init", "-q", "-b", "main"]);
  await git(["add", "-A"]);
  await git(["commit", "-q", "--no-gpg-sign", "-m", "baseline"]);
  const { appendFileSync } = await import("node:fs");
  for (const u of uncommitted) appendFileSync(path.join(dir, u.path), `${u.appendLine}\n`);
}

/** Paths whose state the oracles need after each step. */
function pathsOfInterest(c: FuzzCase): string[] {
  const set = new Set([
    ...c.expectedNewFiles,
    ...c.expectedModifiedFiles,
    ...c.expectedDeletedFiles,
    ...c.protectedPaths,
  ]);
  for (const s of c.steps) {
    for (const p of [
      ...s.intent.keeps,
      ...s.intent.deletes,
      ...s.intent.creates.map((a) => a.path),
      ...s.intent.verifies.map((v) => v.path),
    ])
      set.add(p);
    if (s.intent.runs?.saveOutputTo) set.add(s.intent.runs.saveOutputTo);
  }
  return [...set].sort();
}

function artifactState(dir: string, rel: string, secrets: readonly Secret[]): ArtifactState {
  const abs = path.join(dir, rel);
  if (!existsSync(abs)) return { path: rel, exists: false };
  const st = statSync(abs);
  if (st.isDirectory()) return { path: rel, exists: true, isDirectory: true };
  const bytes = readFileSync(abs);
  const text = bytes.subarray(0, ARTIFACT_CAP).toString("utf8");
  return {
    path: rel,
    exists: true,
    size: st.size,
    hash: sha256(bytes),
    content: redact(text, secrets),
    truncated: st.size > ARTIFACT_CAP || undefined,
  };
}

/** Secret values in files changed during the step (raw content) and redaction markers in its events. */
function findSecretHits(
  ws: Workspace,
  changed: readonly string[],
  events: readonly StepResult["events"][number][],
  secrets: readonly Secret[],
): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const rel of changed) {
    const abs = path.join(ws.dir, rel);
    if (!existsSync(abs) || statSync(abs).size > 4 * 1024 * 1024) continue;
    const lines = readFileSync(abs, "utf8").split("\n");
    lines.forEach((line, i) => {
      for (const s of secrets)
        if (line.includes(s.value)) hits.push({ name: s.name, where: "file", path: rel, line: i + 1 });
    });
  }
  // Outputs: what the agent said and what its commands and tools printed (not the prompt, and not tool-call
  // inputs, whose file writes are already scanned on disk).
  for (const e of events) {
    if (e.type === "tool_call" || (e.type === "message" && e.role === "user")) continue;
    for (const m of JSON.stringify(e).matchAll(/\[REDACTED:([A-Za-z0-9_]+)\]/g))
      hits.push({ name: m[1]!, where: "output", eventId: e.id });
  }
  return hits.slice(0, 50);
}

async function runOneCase(
  adapter: CodingAgentAdapter,
  c: FuzzCase,
  options: RunCasesOptions,
  onStep: (stepId: string) => void,
): Promise<CaseResult> {
  const startedAt = new Date();
  const ws = await createWorkspace(options.source, {
    baseDir: options.workspaceBase,
    keep: options.keep,
    setupFiles: c.setup.files,
    prepare: c.setup.git ? (dir: string) => prepareGit(dir, c.setup.git!.uncommitted) : undefined,
  });
  const env = agentEnvironment(ws.root, c.env, options.passEnv);
  const secrets = secretsFromEnv(env);
  const interest = pathsOfInterest(c);
  const steps: StepResult[] = [];
  let status: CaseResult["status"] = "complete";
  let incompleteReason: string | undefined;
  let sessionId: string | undefined;
  try {
    const session = await adapter.startSession({ dir: ws.dir, env });
    try {
      let stopped = false;
      for (const s of c.steps) {
        if (stopped) {
          steps.push(skippedStep(s.stepId, s.instruction));
          continue;
        }
        const outcome = await session.runStep({
          stepId: s.stepId,
          prompt: s.instruction,
          timeoutMs: options.stepTimeoutMs,
          intent: s.intent,
          caseId: c.caseId,
          signal: options.signal,
        });
        const evidence = ws.captureStep();
        const changed = evidence.sincePrevious
          .filter((d) => d.kind !== "deleted" && !d.binary)
          .map((d) => d.path);
        steps.push({
          stepId: s.stepId,
          prompt: s.instruction,
          status: outcome.status,
          exitCode: outcome.exitCode,
          finalMessage: outcome.finalMessage,
          durationMs: outcome.durationMs,
          usage: outcome.usage,
          error: outcome.error,
          events: outcome.events,
          evidence: redactDeep(evidence, secrets),
          artifacts: interest.map((p) => artifactState(ws.dir, p, secrets)),
          secretHits: findSecretHits(ws, changed, outcome.events, secrets),
          seeded: outcome.seeded ?? [],
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
  });
}
