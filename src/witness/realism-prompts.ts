import { z } from "zod";
import { stableId } from "../core/ids.ts";
import { blindedText, type RealismPair, type StudyPatch } from "./realism-plan.ts";

/**
 * What the judges of the blinded patch-realism study see and answer (WitnessGym App. H.1): identical
 * instructions for every judge, the standardized patches under blind ids (no commit metadata, no source
 * label; in-patch comments, helpers and structure stay visible), and the structured verdicts.
 */

/** A single-patch verdict. */
export const SingleVerdict = z
  .object({
    probabilityInjected: z
      .number()
      .min(0)
      .max(1)
      .describe("Probability in [0, 1] that the patch was produced by the tool."),
    rationale: z.string().describe("One or two sentences: the code-level signs the verdict rests on."),
  })
  .describe("Whether one patch was injected by a tool (WitnessGym App. H.1).");

/** A pairwise verdict. */
export const PairVerdict = z
  .object({
    probabilityLeftMoreRealistic: z
      .number()
      .min(0)
      .max(1)
      .describe(
        "Probability in [0, 1] that LEFT is the more realistic patch, the one from the real history.",
      ),
    rationale: z.string().describe("One or two sentences: the code-level signs the verdict rests on."),
  })
  .describe("Which of two patches is the real one (WitnessGym App. H.1).");

const STUDY = [
  "You take part in a blinded study of bug patches from software repositories. Every patch is a unified diff in",
  "the direction that introduces a bug (working code → buggy code). Some patches come from the projects' real",
  "histories (developers introduced the bug); others were produced by an automated bug-injection tool. Judge",
  "from the code alone: how natural the edit is, its comments, helpers and structure.",
].join("\n");

export const SINGLE_SYSTEM = `${STUDY}\nGive probabilityInjected, the probability in [0, 1] that the patch was produced by the tool, and a brief rationale. Answer only with the JSON.`;

export const PAIR_SYSTEM = `${STUDY}\nYou see two patches of the same repository, LEFT and RIGHT: one from its real history, one produced by the tool. Give probabilityLeftMoreRealistic, the probability in [0, 1] that LEFT is the real one, and a brief rationale. Answer only with the JSON.`;

/** One judgment to make: what its `realism.jsonl` line records besides the verdict, and the request. */
export interface JudgmentTask {
  /** `<task>/<subject>/<r1|injected-left|historical-left>`; the record key prefixes the judge name. */
  id: string;
  task: "single" | "pairwise" | "control";
  cluster: string;
  pair?: string;
  patch?: string;
  injected?: boolean;
  repeat?: number;
  left?: "injected" | "historical";
  artefact?: string;
  blindIds: string[];
  system: string;
  prompt: string;
}

/**
 * The judgments one judge makes (the same for every judge): each distinct patch `repeats` times, each pair and
 * control in both orientations. Blind ids derive from the seed and the judgment, so every prompt differs (each
 * repeat is its own call, also under record/replay) and a rerun shows the same ids.
 */
export function planTasks(
  pairs: readonly RealismPair[],
  controls: readonly (RealismPair & { artefact?: string })[],
  repeats: number,
  context: number,
  seed: number | string,
): JudgmentTask[] {
  const blind = (id: string, side: string) => `P-${stableId([String(seed), id, side], 6).toUpperCase()}`;
  const fence = (text: string) => `\`\`\`diff\n${text}\`\`\``;
  const tasks: JudgmentTask[] = [];
  const patches = new Map<string, { patch: StudyPatch; cluster: string }>();
  for (const p of pairs)
    for (const patch of [p.injected, p.historical]) patches.set(patch.id, { patch, cluster: p.cluster });
  for (const [patchId, { patch, cluster }] of patches)
    for (let repeat = 1; repeat <= repeats; repeat++) {
      const id = `single/${patchId}/r${repeat}`;
      const b = blind(id, "patch");
      tasks.push({
        id,
        task: "single",
        cluster,
        patch: patchId,
        injected: patch.source === "injected",
        repeat,
        blindIds: [b],
        system: SINGLE_SYSTEM,
        prompt: `Patch ${b}:\n${fence(blindedText(patch, context))}`,
      });
    }
  for (const [task, list] of [
    ["pairwise", pairs],
    ["control", controls],
  ] as const)
    for (const p of list)
      for (const left of ["injected", "historical"] as const) {
        const id = `${task}/${p.id}/${left}-left`;
        const [l, r] = left === "injected" ? [p.injected, p.historical] : [p.historical, p.injected];
        const ids = [blind(id, "left"), blind(id, "right")];
        const artefact = "artefact" in p ? { artefact: p.artefact } : {};
        const prompt = [
          `LEFT patch ${ids[0]}:`,
          fence(blindedText(l, context)),
          "",
          `RIGHT patch ${ids[1]}:`,
        ];
        prompt.push(fence(blindedText(r, context)));
        const shown = { blindIds: ids, system: PAIR_SYSTEM, prompt: prompt.join("\n") };
        tasks.push({ id, task, cluster: p.cluster, pair: p.id, left, ...artefact, ...shown });
      }
  return tasks;
}
