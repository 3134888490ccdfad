import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { InputError, SetupError, StoppedError } from "../core/errors.ts";
import { appendJsonl, readJsonlIfExists } from "../core/jsonl.ts";
import { parseWith } from "../core/validate.ts";
import type { ModelClient } from "../models/client.ts";
import { ModelOutputError } from "../models/model-errors.ts";
import {
  InjectedPatch,
  injectedPatch,
  loadHistoricalPatches,
  matchPairs,
  positiveControls,
  type StudyPatch,
  shuffle,
  stratifiedSample,
} from "./realism-plan.ts";
import { type JudgmentTask, PairVerdict, planTasks, SingleVerdict } from "./realism-prompts.ts";
import { type JudgeRealism, realismStats, seededRandom } from "./realism-stats.ts";

/**
 * The `realism` stage of the witness suite: the blinded patch-realism study (WitnessGym App. H). Injected
 * patches are matched to historical bug patches, standardized and shown under blind ids; every model judge
 * gives each patch `singleRepeats` single-patch judgments (probability it was injected), each pair two
 * pairwise judgments with positions swapped (probability the left one is the more realistic), and each positive
 * control (an injected patch with an artefact) both orientations. Every judgment is a fresh call, appended to
 * `realism.jsonl` as it completes; a rerun in the same folder reuses the judgments already there (by key). The
 * figures of Tables 10–12 and the TOST verdicts go to `realism-summary.json`.
 *
 * This stage has only an `llm` engine: there is no rules-based judge of realism. Without a model judge
 * (`witness.models.judge`) it stops with a SetupError.
 */

export { CONTROL_ARTEFACTS } from "./realism-patches.ts";
export { HistoricalPatch, InjectedPatch, loadHistoricalPatches, type StudyPatch } from "./realism-plan.ts";
export { type JudgeRealism, realismStats } from "./realism-stats.ts";

/** Role name of the judge calls (in the usage ledger and the record/replay file). */
export const REALISM_ROLE = "realism-judge";

/** One judgment, a line of `realism.jsonl`. */
export const RealismJudgment = z
  .object({
    key: z
      .string()
      .describe("`<judge>/<task>/<subject>/<r1|injected-left|historical-left>`; a rerun skips done keys."),
    judge: z.string().describe("Judge name."),
    model: z.string().describe("Canonical model string of the judge."),
    task: z
      .enum(["single", "pairwise", "control"])
      .describe("Single-patch, main pairwise or positive-control pairwise."),
    cluster: z.string().describe("Bootstrap cluster (pairs sharing an injection or a historical control)."),
    pair: z.string().optional().describe("Pairwise/control: pair id `<case id>~<historical id>`."),
    patch: z.string().optional().describe("Single: `injected:<id>` or `historical:<id>`."),
    injected: z.boolean().optional().describe("Single: whether the patch was injected (the truth)."),
    repeat: z.number().int().positive().optional().describe("Single: 1-based repeat."),
    left: z
      .enum(["injected", "historical"])
      .optional()
      .describe("Pairwise/control: source of the LEFT patch."),
    artefact: z.string().optional().describe("Control: the artefact added to the injected patch."),
    blindIds: z.array(z.string()).describe("Blind ids shown to the judge (single; or LEFT, RIGHT)."),
    probability: z
      .number()
      .min(0)
      .max(1)
      .describe("probabilityInjected (single) or probabilityLeftMoreRealistic."),
    correct: z
      .boolean()
      .describe("Single: label (p ≥ 0.5 = injected) is right; pairwise: the historical patch was chosen."),
    rationale: z.string().describe("The judge's rationale."),
  })
  .describe("One judgment of the blinded patch-realism study (WitnessGym App. H).");
export type RealismJudgment = z.infer<typeof RealismJudgment>;

/** A model judge. */
export interface RealismJudge {
  /** Short name used in keys and tables, e.g. `A`. */
  name: string;
  client: ModelClient;
}

/** Options of {@link runRealismStudy}. */
export interface RealismStudyOptions {
  injected: readonly InjectedPatch[];
  /** Historical patches: a JSONL file of {@link HistoricalPatch} lines, or patches loaded from one. */
  historical: string | readonly StudyPatch[];
  judges: readonly RealismJudge[];
  /** Seeds the sample, matching order, controls, blind ids, judgment order and bootstrap. */
  seed: number | string;
  /** Injected patches to sample, stratified by repository and bug type; default all (paper: 700 of 1,300). */
  sample?: number;
  /** Single-patch judgments per patch; default 3. */
  singleRepeats?: number;
  /** Positive-control pairs; default 100 (at most the number of pairs). */
  controls?: number;
  /** Context lines kept at each hunk edge; default 3. */
  contextLines?: number;
  /** Bootstrap resamples; default 10,000. */
  resamples?: number;
  /** Judgments in flight per judge; default 4. */
  concurrency?: number;
  /** Folder of `realism.jsonl` and `realism-summary.json`. */
  outDir: string;
  onProgress?: (event: { judge: string; key: string; done: number; total: number }) => void;
}

/** What {@link runRealismStudy} returns and writes to `realism-summary.json`. */
export interface RealismSummary {
  seed: number | string;
  sampled: number;
  pairs: number;
  controls: number;
  /** Sampled injected patches whose repository has no historical patch. */
  unmatched: string[];
  /** Judgments the design asks for, over all judges. */
  planned: number;
  /** Judgments made by this run / reused from `realism.jsonl`. */
  judged: number;
  reused: number;
  /** Judgments without a valid reply (left out of the figures; a rerun retries them). */
  failures: { key: string; problem: string }[];
  /** Why the run stopped early (budget), when it did. */
  stopped?: string;
  judges: JudgeRealism[];
}

/**
 * Run the study with every judge and compute its figures. Judges are model clients of one run, built as fuzz
 * and boundary build theirs: `const { client } = roleClients(run, true, "<outDir>/model-calls.jsonl")`, then
 * `{ name: "A", client: client(modelString, "witness.models.judge") }`. The run's ledger holds the budget (a
 * reached limit ends the study cleanly, `stopped` says why) and the record file makes the study replayable.
 * @throws SetupError without a judge (the stage has no rules engine), or when `realism.jsonl` holds a judge's
 *   judgments made with another model; InputError for bad inputs (naming the field, or `file:line` of the
 *   historical JSONL); model errors other than a budget stop or an invalid reply
 */
export async function runRealismStudy(options: RealismStudyOptions): Promise<RealismSummary> {
  if (options.judges.length === 0)
    throw new SetupError(
      "the realism study needs an llm judge (`witness.models.judge`): this stage has no rules engine",
      "set `witness.models.judge` to a model string (e.g. anthropic:claude-sonnet-4-6)",
    );
  const names = options.judges.map((j) => j.name);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) throw new InputError({ field: "judges" }, `judge name "${repeated}" is used twice`);
  const { seed, outDir } = options;
  const context = options.contextLines ?? 3;
  const injected = options.injected.map((p, i) => {
    const record = parseWith(InjectedPatch, p, { field: `injected.${i}` });
    return { record, patch: injectedPatch(record, `injected.${i}.patch`) };
  });
  const ids = injected.map((i) => i.record.id);
  const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (twice >= 0) throw new InputError({ field: `injected.${twice}.id` }, `repeats case id "${ids[twice]}"`);
  const sample = stratifiedSample(
    injected,
    (i) => `${i.record.repo}\0${i.record.bugType ?? ""}`,
    options.sample ?? injected.length,
    seededRandom(`${seed}/sample`),
  );
  const historical =
    typeof options.historical === "string" ? loadHistoricalPatches(options.historical) : options.historical;
  const { pairs, unmatched } = matchPairs(
    sample.map((i) => ({ patch: i.patch, cluster: i.record.cluster ?? i.record.id })),
    historical,
  );
  const controls = positiveControls(pairs, options.controls ?? 100, seededRandom(`${seed}/controls`));
  const tasks = planTasks(pairs, controls, options.singleRepeats ?? 3, context, seed);

  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, "realism.jsonl");
  const done = new Map(
    readJsonlIfExists(file, RealismJudgment, { repairTornTail: true }).map((r) => [r.key, r]),
  );
  const state = {
    judged: 0,
    reused: 0,
    failures: [] as RealismSummary["failures"],
    stopped: "",
    halted: false,
  };
  const records: RealismJudgment[] = [];
  // Every judge's work is known (and checked against the earlier run) before the first call.
  const queues = options.judges.map((judge) => {
    const todo: JudgmentTask[] = [];
    for (const t of shuffle(tasks, seededRandom(`${seed}/${judge.name}/order`))) {
      const old = done.get(`${judge.name}/${t.id}`);
      if (old && old.model !== judge.client.model)
        throw new SetupError(
          `${file} holds judge ${judge.name}'s judgments made with ${old.model}, not ${judge.client.model}`,
          "use another output folder, or give the judge another name",
        );
      if (old) records.push(old);
      else todo.push(t);
    }
    state.reused += tasks.length - todo.length;
    return { judge, todo, next: 0, completed: 0 };
  });
  const worker = async (q: (typeof queues)[number]) => {
    while (!state.halted && !state.stopped && q.next < q.todo.length) {
      const task = q.todo[q.next++]!;
      try {
        const record = await judgeTask(q.judge, task);
        appendJsonl(file, record);
        records.push(record);
        state.judged++;
        q.completed++;
        options.onProgress?.({
          judge: q.judge.name,
          key: record.key,
          done: q.completed,
          total: q.todo.length,
        });
      } catch (error) {
        if (error instanceof StoppedError) state.stopped ||= error.message;
        else if (error instanceof ModelOutputError)
          state.failures.push({ key: `${q.judge.name}/${task.id}`, problem: error.message });
        else {
          state.halted = true;
          throw error;
        }
      }
    }
  };
  // Settle every worker before reporting a failure, so no call is still running when this returns.
  const workers = queues.flatMap((q) => Array.from({ length: options.concurrency ?? 4 }, () => worker(q)));
  const failed = (await Promise.allSettled(workers)).find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  const summary: RealismSummary = {
    seed,
    sampled: sample.length,
    pairs: pairs.length,
    controls: controls.length,
    unmatched,
    planned: tasks.length * options.judges.length,
    judged: state.judged,
    reused: state.reused,
    failures: state.failures,
    ...(state.stopped ? { stopped: state.stopped } : {}),
    judges: realismStats(
      records.sort((a, b) => a.key.localeCompare(b.key)),
      { seed, resamples: options.resamples ?? 10_000 },
    ),
  };
  writeFileSync(path.join(outDir, "realism-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

/** One judgment: a fresh structured call, scored against the truth. */
async function judgeTask(judge: RealismJudge, task: JudgmentTask): Promise<RealismJudgment> {
  const { id, system, prompt, ...base } = task;
  let verdict: { probability: number; rationale: string };
  if (base.task === "single") {
    const v = await judge.client.generateObject(REALISM_ROLE, { system, prompt, schema: SingleVerdict });
    verdict = { probability: v.probabilityInjected, rationale: v.rationale };
  } else {
    const v = await judge.client.generateObject(REALISM_ROLE, { system, prompt, schema: PairVerdict });
    verdict = { probability: v.probabilityLeftMoreRealistic, rationale: v.rationale };
  }
  const saysYes = verdict.probability >= 0.5;
  const correct =
    base.task === "single" ? saysYes === base.injected : saysYes === (base.left === "historical");
  return {
    key: `${judge.name}/${id}`,
    judge: judge.name,
    model: judge.client.model,
    ...base,
    ...verdict,
    correct,
  };
}
