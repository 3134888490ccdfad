import { parses } from "./functions.ts";
import { callSiteRerouting, extractAndApplySplit, helperCallInsertion } from "./operators/call-stack.ts";
import { rareInputPathConditioning } from "./operators/control-flow.ts";
import { cachedValueAccess, intermediateStatePassing, parameterBundling } from "./operators/data-flow.ts";
import { localStateBundling, nestedDataAccess } from "./operators/local-state.ts";
import { pipelineStageSplit } from "./operators/pipeline-stage.ts";
import type { OperatorId, Span, TransformStep } from "./types.ts";

/**
 * The transform stage of the witness suite (WitnessGym §3.3, App. C, Table 6): bug-preserving rewrites of the
 * code around an injected bug, applied as a checked chain. Each operator is a deterministic text splice located
 * with Babel: it copies every byte it does not add (no reformatting) and keeps the bug's text byte-identical.
 * Unlike the paper's pipeline (notes §4 item 4), every step is enforced: a step that does not parse, changes
 * nothing or makes the caller's witness check fail is rolled back and recorded, and the depth reported is the
 * number of steps actually applied.
 */

/** What an operator rewrites: one file and the bug's range in it. */
export interface OperatorInput {
  /** Project-relative path; its extension decides JS or TS. */
  file: string;
  text: string;
  /** The injected bug's range in `text`; its bytes must appear unchanged in the result. */
  site: Span;
  /** Seed for deterministic choices (fresh names, container shapes). */
  salt: string;
  /** The clean text the bug replaced, when known (Rare Input Path Conditioning needs it). */
  clean?: string;
  /** Which alternative to emit when an operator has several (predicates, …); 0 by default. */
  variant?: number;
}

/** An applied rewrite. */
export interface OperatorResult {
  text: string;
  /** Where the bug's bytes are in `text`. */
  site: Span;
  /** One sentence on what was rewritten, for the case record. */
  summary: string;
}

/** One of the ten bug-preserving transformation operators of WitnessGym Table 6. */
export interface TransformOperator {
  id: OperatorId;
  family: "call-stack" | "data-flow" | "control-flow";
  /** The paper's name, e.g. "Helper Call Insertion". */
  title: string;
  /** The exact rewrite, in one or two sentences. */
  description: string;
  /** How many alternatives `variant` can select (1 when there is one rewrite). */
  variants?: number;
  /** The rewrite, or undefined when it does not apply at this site (never throws on valid input). */
  apply(input: OperatorInput): OperatorResult | undefined;
}

/** The ten operators by id (WitnessGym Table 6). */
export const OPERATORS: Record<OperatorId, TransformOperator> = {
  "helper-call-insertion": helperCallInsertion,
  "call-site-rerouting": callSiteRerouting,
  "extract-and-apply-split": extractAndApplySplit,
  "parameter-bundling": parameterBundling,
  "local-state-bundling": localStateBundling,
  "intermediate-state-passing": intermediateStatePassing,
  "cached-value-access": cachedValueAccess,
  "nested-data-access": nestedDataAccess,
  "pipeline-stage-split": pipelineStageSplit,
  "rare-input-path-conditioning": rareInputPathConditioning,
};

/**
 * The caller's validation of a candidate step: re-run the construction witness on `text` (the transformed buggy
 * file) and say whether it still exposes the bug. The chain itself only guarantees that `text` parses.
 */
export type ChainCheck = (text: string, site: Span) => Promise<{ ok: boolean; reason?: string }>;

/** Chain input: the buggy file, the bug's range, the wanted depth and the check each step must pass. */
export interface TransformChainInput {
  file: string;
  text: string;
  site: Span;
  /** Number of operators to apply (WitnessGym uses 1, 3, 5 and 10). */
  depth: number;
  /** Preferred order (duplicates ignored); default the order of Table 6 (`OPERATOR_IDS`). */
  order?: readonly OperatorId[];
  check: ChainCheck;
  salt: string;
  /** Clean text of the site, passed to the operators (Rare Input Path Conditioning needs it). */
  clean?: string;
}

/** Chain result: the transformed file, where the bug now is, and what happened at every attempt. */
export interface TransformChainResult {
  text: string;
  site: Span;
  /** Every attempt in order, applied or reverted with its reason. */
  steps: TransformStep[];
  /** The operators actually applied, in order (its length is the real depth, at most the requested one). */
  applied: OperatorId[];
  /** One summary per applied operator, parallel to `applied`. */
  summaries: string[];
}

/**
 * Apply operators until `depth` have been applied. Rounds: each round tries every operator of the order once
 * (with each of its variants until one passes), so an operator is applied a second time only after all others
 * were tried; the chain stops after `depth` rounds or at the first round that applies nothing, so each operator
 * is tried at most `depth` times. A candidate is rolled back, with the reason recorded, when the operator does
 * not apply, the result does not parse, changes nothing, lost the bug's bytes, or fails `check`.
 */
export async function applyTransformChain(input: TransformChainInput): Promise<TransformChainResult> {
  const order = input.order?.length ? [...new Set(input.order)] : (Object.keys(OPERATORS) as OperatorId[]);
  const siteText = input.text.slice(input.site.start, input.site.end);
  let text = input.text;
  let site = input.site;
  const steps: TransformStep[] = [];
  const applied: OperatorId[] = [];
  const summaries: string[] = [];
  for (let round = 0; round < input.depth && applied.length < input.depth; round++) {
    let progress = false;
    for (const id of order) {
      if (applied.length >= input.depth) break;
      const op = OPERATORS[id];
      for (let variant = 0; variant < (op.variants ?? 1); variant++) {
        const salt = `${input.salt}/${applied.length}/${id}/${variant}`;
        const revert = (reason: string) =>
          steps.push({
            operator: id,
            applied: false,
            reason: variant ? `variant ${variant}: ${reason}` : reason,
          });
        let result: OperatorResult | undefined;
        try {
          result = op.apply({ file: input.file, text, site, salt, clean: input.clean, variant });
        } catch (error) {
          revert(`operator failed: ${(error as Error).message}`);
          continue;
        }
        if (!result) {
          revert("not applicable here");
          break;
        }
        if (result.text === text) {
          revert("changed nothing");
          continue;
        }
        if (!parses(input.file, result.text)) {
          revert("the result does not parse");
          continue;
        }
        if (result.text.slice(result.site.start, result.site.end) !== siteText) {
          revert("the bug's text did not survive");
          continue;
        }
        const verdict = await input.check(result.text, result.site);
        if (!verdict.ok) {
          revert(`the witness check failed${verdict.reason ? `: ${verdict.reason}` : ""}`);
          continue;
        }
        text = result.text;
        site = result.site;
        applied.push(id);
        summaries.push(result.summary);
        steps.push({ operator: id, applied: true });
        progress = true;
        break;
      }
    }
    if (!progress) break;
  }
  return { text, site, steps, applied, summaries };
}
