import { lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CodingAgentSession, StepOutcome } from "../agents/coding/adapter.ts";
import { appendJsonl } from "../core/jsonl.ts";
import { agentEnvironment } from "../fuzz/agent-env.ts";
import type { FileDelta } from "../workspace/evidence.ts";
import { makeSandbox } from "../workspace/sandbox.ts";
import type { PreparedSource } from "../workspace/source.ts";
import { createWorkspace } from "../workspace/workspace.ts";
import type { CaseFile } from "./case-file.ts";
import type { EvalEvent, EvalOptions, EvalProject } from "./eval.ts";
import { auditChanges, isRunnableTest, sourceReadingReason } from "./eval-audit.ts";
import { type EvalSetting, feedbackPrompt, witnessPrompt } from "./eval-prompt.ts";
import { type AttemptStatus, EvalAttemptRecord, EvalResultRecord, type Usage } from "./eval-records.ts";
import { validateWitness, type WitnessFile, type WitnessValidation } from "./validate.ts";

/**
 * One evaluation session (issue 6 §1 eval): a fresh workspace holding only the buggy snapshot (no `.git`, the
 * build, results and clean trees hidden from the agent when sandboxed), one agent session, up to `attempts`
 * steps. After each step the workspace's content-hash evidence is audited (eval-audit.ts) and the witness is
 * validated by `validateWitness` in fresh clean and buggy copies; a rejection is fed back as the next step.
 */

/** Per-run state shared by the sessions. */
export interface Run {
  options: EvalOptions;
  runId: string;
  attempts: number;
  attemptsFile: string;
  resultsFile: string;
  bwrap: string | undefined;
  agentMs: number;
  usage: Usage;
}

/** Everything one (case, setting) needs. */
export interface Pair {
  c: CaseFile;
  setting: EvalSetting;
  project: EvalProject;
  source: PreparedSource;
  /** The clean tree: the snapshot with the oracle's originals overlaid. */
  clean: string;
  cleanRoot: string;
}

/** One session of up to `attempts` steps; records each attempt and the result. "aborted" records no result. */
export async function runPair(run: Run, pair: Pair): Promise<"done" | "aborted"> {
  const { options } = run;
  const { c, setting, project } = pair;
  const caseTimeoutMs = options.caseTimeoutMs ?? 1_800_000;
  const emit = (e: EvalEvent) => options.onProgress?.(e);
  const ws = await createWorkspace(pair.source);
  try {
    const env = agentEnvironment(ws.root, {}, options.passEnv);
    const sandbox = run.bwrap
      ? makeSandbox(run.bwrap, ws.root, project.deps ? [project.deps] : [], [
          path.resolve(options.buildDir),
          path.resolve(options.outDir),
          pair.cleanRoot,
          ...(project.dir ? [project.dir] : []),
        ])
      : undefined;
    const session = await options.agent.startSession({
      dir: ws.dir,
      env,
      secretNames: [...(options.passEnv ?? [])],
      sandbox,
    });
    try {
      const example = exampleTestPath(pair.source.files);
      let prompt = witnessPrompt(c, setting, project.commandFor([example]), example);
      let agentMs = 0;
      const usage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
      let made = 0;
      let last = {
        reason: "no attempt was made",
        witness: undefined as string[] | undefined,
        success: false,
      };
      for (let attempt = 1; attempt <= run.attempts; attempt++) {
        const remaining = caseTimeoutMs - agentMs;
        if (remaining <= 0) {
          last = {
            ...last,
            reason: `${last.reason}; the case's time limit (${caseTimeoutMs} ms) was reached after ${made} attempts`,
          };
          break;
        }
        if (options.signal?.aborted) return "aborted";
        const stepId = `S${String(attempt).padStart(2, "0")}`;
        const started = Date.now();
        const outcome = await runStepSafely(session, {
          stepId,
          prompt,
          timeoutMs: Math.min(options.attemptTimeoutMs ?? 600_000, remaining),
          caseId: c.id,
          signal: options.signal,
        });
        const durationMs = outcome.durationMs || Date.now() - started;
        agentMs += durationMs;
        run.agentMs += durationMs;
        for (const k of ["inputTokens", "outputTokens", "costUsd"] as const) {
          usage[k] += outcome.usage[k];
          run.usage[k] += outcome.usage[k];
        }
        made = attempt;
        const judged = Date.now();
        const verdict: Verdict = options.signal?.aborted
          ? { status: "aborted", reason: "the evaluation was interrupted", changed: [] }
          : await judgeAttempt(run, pair, ws.dir, ws.captureStep().sinceBaseline, attempt);
        const record = EvalAttemptRecord.parse({
          runId: run.runId,
          caseId: c.id,
          setting,
          agent: options.agent.name,
          attempt,
          status: verdict.status,
          reason: verdict.reason,
          agentStatus: outcome.status,
          agentExitCode: outcome.exitCode,
          ...(outcome.error ? { agentError: outcome.error } : {}),
          durationMs,
          validationMs: Date.now() - judged,
          usage: outcome.usage,
          changed: verdict.changed,
          ...(verdict.audit ? { audit: verdict.audit } : {}),
          ...(verdict.validation ? { validation: verdict.validation } : {}),
          finishedAt: new Date().toISOString(),
        });
        appendJsonl(run.attemptsFile, record);
        emit({
          kind: "attempt",
          caseId: c.id,
          setting,
          attempt,
          status: verdict.status,
          reason: verdict.reason,
        });
        if (verdict.status === "aborted") return "aborted";
        const agentNote =
          outcome.status === "ok"
            ? ""
            : ` (agent ${outcome.status}${outcome.error ? `: ${outcome.error}` : ""})`;
        last = {
          reason:
            verdict.status === "accepted"
              ? `accepted on attempt ${attempt}: ${verdict.reason}`
              : `${verdict.reason}${agentNote}`,
          witness: verdict.status === "accepted" ? record.audit?.witnessFiles : undefined,
          success: verdict.status === "accepted",
        };
        if (last.success) break;
        prompt = feedbackPrompt(attempt, run.attempts, verdict.reason, verdict.rawValidation);
      }
      const result = EvalResultRecord.parse({
        runId: run.runId,
        caseId: c.id,
        setting,
        agent: options.agent.name,
        success: last.success,
        attempts: made,
        reason: last.reason,
        ...(last.witness ? { witness: last.witness } : {}),
        bugType: c.bug.type,
        category: c.bug.category,
        bucket: c.context.bucket,
        depth: c.metadata.depth.applied,
        durationMs: agentMs,
        usage,
        finishedAt: new Date().toISOString(),
      });
      appendJsonl(run.resultsFile, result);
      emit({
        kind: "result",
        caseId: c.id,
        setting,
        success: result.success,
        attempts: made,
        reason: result.reason,
      });
      return "done";
    } finally {
      await session.close().catch(() => undefined);
    }
  } finally {
    await ws.dispose();
  }
}

/** The verdict on one attempt, with what the attempt record keeps of it. */
interface Verdict {
  status: AttemptStatus;
  reason: string;
  changed: EvalAttemptRecord["changed"];
  audit?: EvalAttemptRecord["audit"];
  validation?: EvalAttemptRecord["validation"];
  /** The validator's own verdict (for the feedback prompt). */
  rawValidation?: WitnessValidation;
}

/** Audit the workspace's changes, then validate the witness on fresh clean and buggy copies. */
async function judgeAttempt(
  run: Run,
  pair: Pair,
  dir: string,
  deltas: readonly FileDelta[],
  attempt: number,
): Promise<Verdict> {
  const { options } = run;
  const changed = deltas.map((d) => ({ path: d.path, kind: d.kind }));
  const audit = auditChanges(deltas);
  // A link under test/ could carry any file of the machine into the validation copies: not a witness file.
  for (const p of audit.witnessFiles.filter(
    (f) => !lstatSync(path.join(dir, f), { throwIfNoEntry: false })?.isFile(),
  )) {
    audit.witnessFiles = audit.witnessFiles.filter((f) => f !== p);
    audit.testFiles = audit.testFiles.filter((f) => f !== p);
    audit.productionEdits.push(p);
  }
  const files: WitnessFile[] = audit.witnessFiles.map((p) => ({
    path: p,
    content: readFileSync(path.join(dir, p), "utf8"),
  }));
  const saved = path.join(
    path.resolve(options.outDir),
    "witnesses",
    pair.c.id,
    pair.setting,
    `attempt-${attempt}`,
  );
  for (const f of files) {
    mkdirSync(path.dirname(path.join(saved, f.path)), { recursive: true });
    writeFileSync(path.join(saved, f.path), f.content);
  }
  const base = { changed, audit };
  if (audit.productionEdits.length > 0)
    return {
      ...base,
      status: "edited-production",
      reason: `edited production code: ${audit.productionEdits.join(", ")}`,
    };
  if (audit.testFiles.length === 0)
    return {
      ...base,
      status: "no-test",
      reason:
        audit.witnessFiles.length === 0
          ? "no test file was written"
          : `no runnable test file was written (only ${audit.witnessFiles.join(", ")})`,
    };
  for (const f of files) {
    const why = sourceReadingReason(f.path, f.content, pair.c.location.file);
    if (why !== undefined) return { ...base, status: "reads-source", reason: why };
  }
  const command = pair.project.commandFor(audit.testFiles);
  const v = await validateWitness({
    clean: pair.clean,
    buggy: path.join(options.buildDir, "cases", pair.c.id, "repo"),
    witness: files,
    command,
    ...(pair.project.deps ? { deps: pair.project.deps } : {}),
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    // The answer key must stay out of reach of the agent's test: the build (oracle), the results, the clean tree.
    hide: [options.buildDir, options.outDir, pair.clean, ...(pair.project.dir ? [pair.project.dir] : [])],
    repeats: options.repeats ?? 3,
    timeoutMs: options.testTimeoutMs ?? 60_000,
  });
  const runs = (rs: WitnessValidation["clean"]) =>
    rs.map((r) => ({
      attempt: r.attempt,
      outcome: r.outcome,
      evidence: r.evidence,
      durationMs: r.durationMs,
    }));
  return {
    ...base,
    status: v.accepted ? "accepted" : "not-a-witness",
    reason: v.reason,
    validation: {
      accepted: v.accepted,
      reason: v.reason,
      command,
      clean: runs(v.clean),
      buggy: runs(v.buggy),
    },
    rawValidation: v,
  };
}

/** `session.runStep`, with a thrown error (a contract breach) turned into an `error` outcome. */
async function runStepSafely(
  session: CodingAgentSession,
  request: Parameters<CodingAgentSession["runStep"]>[0],
): Promise<StepOutcome> {
  try {
    return await session.runStep(request);
  } catch (e) {
    return {
      status: "error",
      exitCode: null,
      finalMessage: "",
      events: [],
      durationMs: 0,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
      error: message(e),
    };
  }
}

/** A path for the new test that the project's runner will pick up: beside its existing tests, same suffix. */
function exampleTestPath(files: readonly string[]): string {
  const tests = files.filter(isRunnableTest);
  const count = (keys: string[]) => {
    const n = new Map<string, number>();
    for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
    return [...n].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  };
  const dir =
    count(tests.map((t) => t.split("/")[0]!).filter((d) => tests.some((t) => t.startsWith(`${d}/`)))) ??
    "test";
  const suffix =
    count(tests.map((t) => /(\.(?:test|spec))?\.[cm]?[jt]sx?$/.exec(t)?.[0] ?? ".js")) ?? ".test.js";
  return `${dir}/witness${suffix}`;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
