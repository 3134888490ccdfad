import { z } from "zod";
import {
  ActionType as ActionSchema,
  type ActionType,
  type InteractionPattern,
  type Inventory,
  InteractionPattern as PatternSchema,
} from "./inventory.ts";
import type { FailureMode } from "./modes/schema.ts";
import { ORACLES } from "./oracles/index.ts";
import { kindsToPhases } from "./step-kinds.ts";

/**
 * Stage `compose` (ABTest §3.2): screen every Interaction Pattern × Action Type pair against the three
 * compatibility criteria, and keep the compatible pairs as seed templates:
 *  1. insertion point — the pattern's workflow has a phase where the action's stressed operation fits;
 *  2. coherence — pattern and action belong to the same task family, so the combination is one coherent
 *     task rather than unrelated steps glued together;
 *  3. observability — the targeted anomaly stays observable through traces, file state or artifacts.
 * The screening role has engines; `rules` (below) is the offline default, an `llm` engine plugs in through
 * {@link CompatibilityScreener}.
 */

export const CriterionResult = z.object({ ok: z.boolean(), reason: z.string() });

export const Screening = z
  .object({
    patternId: z.string(),
    actionId: z.string(),
    compatible: z.boolean(),
    insertion: CriterionResult.describe("Criterion 1: natural insertion point."),
    coherence: CriterionResult.describe("Criterion 2: coherent task sequence."),
    observability: CriterionResult.describe("Criterion 3: anomaly observable."),
    engine: z.string().describe("Engine that screened the pair (`rules` or `llm:<model>`)."),
  })
  .describe("Compatibility decision for one pattern × action pair.");
export type Screening = z.infer<typeof Screening>;

export const SeedTemplate = z
  .object({
    seedTemplateId: z.string().describe("`ST-NNNN`."),
    interaction: PatternSchema,
    action: ActionSchema,
    screening: Screening,
  })
  .describe("A compatible Interaction Pattern × Action Type pair (ABTest Figure 5).");
export type SeedTemplate = z.infer<typeof SeedTemplate>;

/** The compatibility-screening role (engines: rules, llm). */
export interface CompatibilityScreener {
  readonly engine: string;
  /** `mode` is the failure mode of the action type (undefined when the library no longer has it). */
  screen(
    pattern: InteractionPattern,
    action: ActionType,
    mode: FailureMode | undefined,
  ): Promise<Screening> | Screening;
}

/** Task families for criterion 2: categories in one family combine into coherent tasks. */
export const TASK_FAMILIES: Record<string, readonly string[]> = {
  "workspace state": [
    "File Operation",
    "Version Control",
    "Session / State",
    "Environment & Platform",
    "Configuration Setup",
  ],
  execution: [
    "Command Execution",
    "CLI / Terminal Interaction",
    "Resource Management",
    "Environment & Platform",
  ],
  "result reporting": ["Model Output Control", "Command Execution", "File Operation", "Session / State"],
};

function familiesOf(category: string): string[] {
  return Object.entries(TASK_FAMILIES)
    .filter(([, cats]) => cats.includes(category))
    .map(([family]) => family);
}

/** The deterministic rules engine of the compatibility screener. */
export const rulesScreener: CompatibilityScreener = {
  engine: "rules",
  screen(pattern, action, mode) {
    const phases = kindsToPhases(pattern.kinds);
    const fit = mode?.phases.find((p) => phases.includes(p));
    const insertion = !mode
      ? { ok: false, reason: `the mode library has no failure mode "${action.mode}"` }
      : fit
        ? {
            ok: true,
            reason: `the pattern's "${fit}" phase is a natural place for: ${action.stressedOperation}`,
          }
        : {
            ok: false,
            reason: `the pattern (${phases.join(" → ") || "no phases"}) has none of the phases the operation needs (${mode.phases.join(", ")})`,
          };

    const actionFamilies = familiesOf(action.category);
    const shared = pattern.categories.flatMap(familiesOf).find((f) => actionFamilies.includes(f));
    const coherence = shared
      ? { ok: true, reason: `pattern and action both belong to the "${shared}" task family` }
      : actionFamilies.length === 0
        ? {
            ok: true,
            reason: `${action.category} belongs to no known task family, so it is not held against the pair`,
          }
        : {
            ok: false,
            reason: `${action.category} does not combine coherently with the pattern's ${pattern.categories.join(", ")} workflow`,
          };

    const observability = !mode
      ? { ok: false, reason: `no failure mode "${action.mode}", so no oracle is known to observe it` }
      : { ok: true, reason: `observable via ${observers(mode)}` };

    return {
      patternId: pattern.id,
      actionId: action.id,
      compatible: insertion.ok && coherence.ok && observability.ok,
      insertion,
      coherence,
      observability,
      engine: "rules",
    };
  },
};

/** The oracles of a mode, each with what it observes: "a (…); b (…)". */
export function observers(mode: FailureMode): string {
  return mode.oracles
    .map((name) => `${name} (${ORACLES.find((o) => o.name === name)?.description ?? "?"})`)
    .join("; ");
}

/**
 * Screen all pairs and return every screening (for the audit trail) and the seed templates (compatible
 * pairs, numbered in pattern-major order).
 */
export async function composeSeedTemplates(
  inventory: Inventory,
  modes: readonly FailureMode[],
  screener: CompatibilityScreener = rulesScreener,
): Promise<{ screenings: Screening[]; templates: SeedTemplate[] }> {
  const modeOf = new Map(modes.map((m) => [m.id, m]));
  const pairs = inventory.patterns.flatMap((pattern) =>
    inventory.actionTypes.map((action) => ({ pattern, action })),
  );
  // All pairs are asked at once; a model-backed screener limits its own concurrency. Order stays pattern-major.
  // Every call settles before a failure (e.g. a spent budget) is reported, so usage is complete when written.
  const settled = await Promise.allSettled(
    pairs.map(({ pattern, action }) => screener.screen(pattern, action, modeOf.get(action.mode))),
  );
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
  const screenings = settled.map((r) => (r as PromiseFulfilledResult<Screening>).value);
  const templates: SeedTemplate[] = [];
  screenings.forEach((screening, i) => {
    if (screening.compatible)
      templates.push({
        seedTemplateId: `ST-${String(templates.length + 1).padStart(4, "0")}`,
        interaction: pairs[i]!.pattern,
        action: pairs[i]!.action,
        screening,
      });
  });
  return { screenings, templates };
}
