import { writeFileSync } from "node:fs";
import { stringify } from "yaml";
import { z } from "zod";
import { InputError } from "../core/errors.ts";
import { loadYamlFile } from "../core/yaml-file.ts";
import { functionalTests } from "./functional.ts";
import { withDisclosure } from "./grounding.ts";
import { boundaryTestsFor } from "./perturb.ts";
import { enumerateBoundaryTargets, selectTargets } from "./targets.ts";
import {
  CUE,
  Facts,
  GENERIC_ACTIVITIES,
  type GenerationContext,
  type Generator,
  type RankedTarget,
  type Ranker,
  TestCase,
} from "./types.ts";

/**
 * The `plan` stage (AgentEval §V): functional tests from the discovery traces, then graph-guided boundary
 * tests (Alg. 2) — enumerate every node, edge, entry and terminal as a target, rank by boundary potential,
 * and generate tests for the best targets until the boundary budget is spent. The plan is a YAML file a
 * person can read, edit and commit, and `gauntlet boundary run --plan` re-runs it in CI.
 */

/** The plan file (`plan.yaml`). */
export const PlanFile = z
  .object({
    version: z.literal(1),
    target: z.string().describe("The target the plan was discovered on (`--target` spec)."),
    createdAt: z.string(),
    labeller: z
      .string()
      .default("rules")
      .describe("Engine that labelled the discovery turns; runs are labelled the same way before judging."),
    facts: Facts.describe("What the tester knows (personas), used by the runner to answer questions."),
    activities: z
      .array(z.string())
      .optional()
      .describe(
        "Activity labels of the workflow graph; checks may name these and the cue activities only (a typo is an error, not a test that can never fail).",
      ),
    tests: z.array(TestCase),
  })
  .strict();
export type PlanFile = z.output<typeof PlanFile>;

/** The `rules` generator: {@link functionalTests} and {@link boundaryTestsFor}. */
export const rulesGenerator: Generator = {
  async functional(context, max) {
    return functionalTests(context, max);
  },
  async boundary(target, context) {
    return boundaryTestsFor(target, context, 0);
  },
};

/** What {@link buildPlan} decided, for the report: every target with its rank and whether it got tests. */
export interface PlannedTests {
  tests: TestCase[];
  ranked: RankedTarget[];
  /** Locations (kind:location) of the targets that produced the boundary tests. */
  used: string[];
}

/**
 * Build the test plan (AgentEval §V, Alg. 2).
 * @param options.functionalMax N_f, the cap on functional tests (default 50)
 * @param options.boundaryBudget N_b, the cap on boundary tests (default 50): targets are taken best first
 *   until that many tests exist; a target the generator cannot perturb is passed over
 */
export async function buildPlan(
  context: GenerationContext,
  engines: { ranker: Ranker; generator: Generator },
  options: { functionalMax?: number; boundaryBudget?: number } = {},
): Promise<PlannedTests> {
  const functional = (await engines.generator.functional(context, options.functionalMax ?? 50)).map(
    (t, i) => ({
      ...t,
      id: `f-${String(i + 1).padStart(2, "0")}`,
    }),
  );
  const budget = options.boundaryBudget ?? 50;
  const ranked = await engines.ranker.rank(enumerateBoundaryTargets(context.graph), context.graph);
  const boundary: TestCase[] = [];
  const used: string[] = [];
  const seenHints = new Set<string>();
  for (const target of selectTargets(ranked, ranked.length)) {
    if (boundary.length >= budget) break;
    for (const test of await engines.generator.boundary(target, context)) {
      const key = JSON.stringify(test.hints);
      if (boundary.length >= budget || seenHints.has(key)) continue;
      seenHints.add(key);
      const n = String(boundary.length + 1).padStart(2, "0");
      boundary.push({
        ...test,
        id: `b-${n}-${(test.card?.perturbation ?? "boundary").replaceAll("_", "-")}`,
      });
      if (!used.includes(`${target.kind}:${target.location}`)) used.push(`${target.kind}:${target.location}`);
    }
  }
  // Every test also fails when the agent brings up another customer's details (grounding.ts).
  const tests = [...functional, ...boundary].map((t) => withDisclosure(t, context));
  return { tests, ranked, used };
}

/** Write a plan as YAML with a header saying what it is. */
export function writePlan(file: string, plan: PlanFile): void {
  const header = [
    "# Gauntlet boundary test plan (AgentEval §V). Edit freely: every test is goal, hints, persona,",
    "# success/failure criteria (with their compiled checks) and a turn budget.",
    "# Run it: gauntlet boundary run --plan <this file> --target <spec>",
    "",
  ].join("\n");
  writeFileSync(file, header + stringify(PlanFile.parse(plan), { lineWidth: 0 }));
}

/**
 * Read and validate a plan file.
 * @throws InputError naming the file, line and field of the first problem
 */
export function loadPlan(file: string): PlanFile {
  const plan = loadYamlFile(
    file,
    PlanFile,
    "fix the field, or re-create the plan with `gauntlet boundary plan`",
  );
  const ids = new Set<string>();
  const known = plan.activities
    ? new Set([...plan.activities, ...Object.values(CUE), ...GENERIC_ACTIVITIES])
    : undefined;
  plan.tests.forEach((t, i) => {
    for (const [side, list] of [
      ["success", t.success],
      ["failure", t.failure],
    ] as const)
      list.forEach((c, j) => {
        const named = c.check && "activity" in c.check ? (c.check.activity ?? []) : [];
        const unknown = known ? named.filter((a) => !known.has(a) && !a.startsWith("ask_")) : [];
        if (unknown.length)
          throw new InputError(
            { file, field: `tests.${i}.${side}.${j}.check.activity` },
            `test ${t.id} names unknown activit${unknown.length > 1 ? "ies" : "y"} ${unknown.join(", ")}`,
            `use one of the plan's activities: ${[...(plan.activities ?? [])].join(", ")}`,
          );
      });
  });
  for (const t of plan.tests) {
    if (ids.has(t.id))
      throw new InputError(
        { file, field: "tests" },
        `duplicate test id ${t.id}`,
        "give every test its own id",
      );
    ids.add(t.id);
  }
  return plan;
}
