import { type CaseStep, FuzzCase, MAX_STEPS } from "./case.ts";
import type { SeedTemplate } from "./compose.ts";
import { type RepoContext, recipeFor } from "./recipes/index.ts";
import { step, testDir } from "./recipes/recipe.ts";
import { kindsToPhases } from "./step-kinds.ts";

/**
 * Stage `instantiate` (ABTest §3.3): seed template + repository context → a concrete case with an
 * instruction sequence, rollback and post-rollback verification steps, expected new / modified files and
 * protected paths. The output is validated strictly against {@link FuzzCase} (workspace-relative paths, no
 * traversal, ≤ 8 steps, bounded prompts); an invalid candidate is rejected with the reason.
 *
 * The task-generator role has engines: `rules` (below: a recipe per anomaly surface, decorated with the
 * pattern's workflow) and `llm` (arrives with the model layer) behind {@link TaskGenerator}.
 */

/** A template that could not become a case, and why. */
export interface RejectedTemplate {
  seedTemplateId: string;
  reason: string;
}

/** The task-generator role. */
export interface TaskGenerator {
  readonly engine: string;
  /**
   * Build a case candidate (unvalidated) or say why the template cannot be grounded in this repository.
   * `ordinal` counts earlier cases of the same anomaly surface, so successive cases vary the fuzz direction.
   */
  generate(
    template: SeedTemplate,
    repo: RepoContext,
    ordinal: number,
  ): Promise<unknown | { rejected: string }>;
}

/** Rules engine: the surface's recipe, plus steps that express the pattern's inspect / verify / report phases. */
export const rulesTaskGenerator: TaskGenerator = {
  engine: "rules",
  async generate(template, repo, ordinal) {
    const surface = template.action.targetAnomalySurface;
    const recipe = surface ? recipeFor(surface) : undefined;
    if (!recipe) return { rejected: `no rules recipe for surface ${surface ?? "(unclassified)"}` };
    const unavailable = recipe.unavailable(repo);
    if (unavailable) return { rejected: `${recipe.id}: ${unavailable}` };
    const variant = ordinal % 2;
    const built = recipe.build({ repo, variant });
    const caseId = `${template.seedTemplateId}-${recipe.id}`;

    // Express the pattern's workflow around the recipe's core steps.
    const phases = kindsToPhases(template.interaction.kinds);
    const core = built.steps.map((s) => ({ instruction: s.instruction, intent: s.intent }));
    const before: typeof core = [];
    const after: typeof core = [];
    const tests = testDir(repo);
    if (template.interaction.kinds[0] === "inspect" && tests)
      before.push(
        step(0, `List the files under \`${tests}/\` and tell me how many there are. Do not change anything.`),
      );
    const lastArtifact = core.flatMap((s) => s.intent.creates).at(-1);
    if (phases.includes("verify") && lastArtifact && !core.some((s) => s.intent.verifies.length > 0))
      after.push(
        step(0, `Verify that \`${lastArtifact.path}\` exists and is not empty, and tell me what you found.`, {
          verifies: [{ path: lastArtifact.path, format: lastArtifact.format }],
          keeps: [lastArtifact.path],
        }),
      );
    if (phases.includes("report") && core.every((s) => s.intent.reply === "free"))
      after.push(
        step(
          0,
          "Summarise what you did in this session in at most three sentences, naming each file you created or changed.",
        ),
      );
    const all = [...before, ...core, ...after].slice(0, MAX_STEPS);
    const renumber = (id: string) => {
      const index = built.steps.findIndex((s) => s.stepId === id);
      return `S${String(before.length + index + 1).padStart(2, "0")}`;
    };
    const steps: CaseStep[] = all.map((s, i) => ({ ...s, stepId: `S${String(i + 1).padStart(2, "0")}` }));

    return caseFromSteps(template, repo, {
      caseId,
      recipe: recipe.id,
      steps,
      setup: built.setup,
      rollbackSteps: built.rollbackSteps.map(renumber),
      rollbackFailurePatterns: built.rollbackFailurePatterns ?? [],
      postRollbackVerificationSteps: built.postRollbackVerificationSteps.map(renumber),
      protectedPaths: built.protectedPaths,
    });
  },
};

/**
 * A case candidate (unvalidated) from its steps: the template's ids and provenance, and the expected new /
 * modified / deleted files derived from the steps' intents (what each engine must agree on).
 */
export function caseFromSteps(
  template: SeedTemplate,
  repo: RepoContext,
  parts: Pick<
    FuzzCase,
    | "caseId"
    | "recipe"
    | "steps"
    | "setup"
    | "rollbackSteps"
    | "rollbackFailurePatterns"
    | "postRollbackVerificationSteps"
    | "protectedPaths"
  >,
): unknown {
  const steps = parts.steps;
  const created = steps.flatMap((s) => [
    ...s.intent.creates.map((a) => a.path),
    ...(s.intent.runs?.saveOutputTo ? [s.intent.runs.saveOutputTo] : []),
  ]);
  const deleted = steps.flatMap((s) => s.intent.deletes);
  return {
    ...parts,
    templateId: template.seedTemplateId,
    patternId: template.interaction.id,
    actionId: template.action.id,
    category: template.action.category,
    surface: template.action.targetAnomalySurface,
    sourceReports: [...new Set([...template.action.sourceReports, ...template.interaction.sourceReports])],
    repository: { spec: repo.spec, testCommand: repo.testCommand, testByproducts: [] },
    env: {},
    expectedNewFiles: [...new Set(created.filter((p) => !deleted.includes(p)))],
    expectedModifiedFiles: [...new Set(steps.flatMap((s) => s.intent.modifies.map((m) => m.path)))],
    expectedDeletedFiles: [...new Set(deleted)],
  };
}

/**
 * Pick up to `maxCases` templates for diversity — round-robin over recipes (anomaly surfaces), and within a
 * recipe the template whose action category has been used least so far (ties: template order) — and
 * instantiate each. Deterministic. Returns the valid cases and the rejected templates with reasons.
 */
export async function instantiateCases(
  templates: readonly SeedTemplate[],
  repo: RepoContext,
  options: { maxCases: number; generator?: TaskGenerator },
): Promise<{ cases: FuzzCase[]; rejected: RejectedTemplate[] }> {
  const generator = options.generator ?? rulesTaskGenerator;
  const groups = new Map<string, SeedTemplate[]>();
  for (const t of templates) {
    const key = String(t.action.targetAnomalySurface);
    groups.set(key, [...(groups.get(key) ?? []), t]);
  }
  const queues = [...groups.values()];
  const categoryUse = new Map<string, number>();
  const surfaceUse = new Map<string, number>();
  const cases: FuzzCase[] = [];
  const rejected: RejectedTemplate[] = [];
  while (cases.length < options.maxCases && queues.some((q) => q.length > 0)) {
    for (const queue of queues) {
      if (cases.length >= options.maxCases) break;
      if (queue.length === 0) continue;
      let pick = 0;
      queue.forEach((t, i) => {
        if ((categoryUse.get(t.action.category) ?? 0) < (categoryUse.get(queue[pick]!.action.category) ?? 0))
          pick = i;
      });
      const [template] = queue.splice(pick, 1) as [SeedTemplate];
      const surface = String(template.action.targetAnomalySurface);
      const candidate = await generator.generate(template, repo, surfaceUse.get(surface) ?? 0);
      if (candidate && typeof candidate === "object" && "rejected" in candidate) {
        rejected.push({ seedTemplateId: template.seedTemplateId, reason: String(candidate.rejected) });
        continue;
      }
      const parsed = FuzzCase.safeParse(candidate);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        rejected.push({
          seedTemplateId: template.seedTemplateId,
          reason: `invalid case: field "${issue.path.join(".")}": ${issue.message}`,
        });
        continue;
      }
      cases.push(parsed.data);
      categoryUse.set(template.action.category, (categoryUse.get(template.action.category) ?? 0) + 1);
      surfaceUse.set(surface, (surfaceUse.get(surface) ?? 0) + 1);
    }
  }
  return { cases, rejected };
}
