import type { CaseStep, FuzzCase, SetupFile } from "../case.ts";
import type { Phase } from "../step-kinds.ts";
import type { Surface } from "../surfaces.ts";

/**
 * A rules recipe turns a seed template into concrete, repository-grounded steps (ABTest §3.3, rules
 * engine). One recipe per anomaly surface; the recipe places the stressed operation at one step (marked
 * with `intent.stresses`) and binds real paths and the project's real test command.
 */

/** What the repository offers to ground a case in. */
export interface RepoContext {
  /** Source spec, e.g. `npm:minimist@1.2.8`. */
  spec: string;
  /** The project's own test command, if it has one. */
  testCommand: string | undefined;
  /** Workspace-relative files of the repository, sorted. */
  files: readonly string[];
}

/** Input of {@link Recipe.build}: the repository and which fuzz direction (variant) to take. */
export interface RecipeContext {
  repo: RepoContext;
  /** 0 or 1, derived from the template id: picks between the recipe's fuzz directions. */
  variant: number;
}

/** The part of a case a recipe fills in. */
export type RecipeCase = Pick<
  FuzzCase,
  "steps" | "protectedPaths" | "rollbackSteps" | "postRollbackVerificationSteps"
> &
  Partial<Pick<FuzzCase, "rollbackFailurePatterns">> & {
    setup: { files: SetupFile[]; git?: { uncommitted: { path: string; appendLine: string }[] } };
  };

/** A rules recipe for one anomaly surface (see the module doc). */
export interface Recipe {
  id: string;
  surface: Surface;
  /** Workflow phases that give the stressed operation a natural insertion point (ABTest §3.2 criterion 1). */
  insertionPhases: readonly Phase[];
  /** Why the recipe cannot be grounded in this repository, or undefined when it can. */
  unavailable(repo: RepoContext): string | undefined;
  build(ctx: RecipeContext): RecipeCase;
}

/** A step with the given id and intent fields (defaults filled). */
export function step(n: number, instruction: string, intent: Partial<CaseStep["intent"]> = {}): CaseStep {
  return {
    stepId: `S${String(n).padStart(2, "0")}`,
    instruction,
    intent: {
      creates: [],
      modifies: [],
      deletes: [],
      keeps: [],
      verifies: [],
      reply: "free",
      protectSecrets: false,
      ...intent,
    },
  };
}

/** The project's main source file: package.json `main` if listed, else index.js/ts, else the first .js/.ts. */
export function mainFile(repo: RepoContext): string | undefined {
  const candidates = ["index.js", "index.ts", "src/index.js", "src/index.ts", "lib/index.js"];
  const found = candidates.find((c) => repo.files.includes(c));
  return (
    found ??
    repo.files.find((f) => /\.(m?js|ts)$/.test(f) && !/(^|\/)(test|tests|__tests__|example|bench)\//.test(f))
  );
}

/** An existing document to preserve: CHANGELOG.md, else README.md, else the first Markdown file. */
export function docFile(repo: RepoContext): string | undefined {
  return (
    ["CHANGELOG.md", "README.md", "readme.markdown", "README"].find((f) => repo.files.includes(f)) ??
    repo.files.find((f) => f.endsWith(".md"))
  );
}

/** Test directory (`test`, `tests`, `__tests__`) or undefined. */
export function testDir(repo: RepoContext): string | undefined {
  return ["test", "tests", "__tests__", "spec"].find((d) => repo.files.some((f) => f.startsWith(`${d}/`)));
}

/** A directory name under the root that the repository does not already have. */
export function freshDir(repo: RepoContext, preferred: string): string {
  let name = preferred;
  for (let i = 2; repo.files.some((f) => f === name || f.startsWith(`${name}/`)); i++)
    name = `${preferred}-${i}`;
  return name;
}
