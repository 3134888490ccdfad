import type { Surface } from "../surfaces.ts";
import { boundedServer } from "./bounded-server.ts";
import { diagnosticsLog } from "./diagnostics-log.ts";
import { failingCommandVerdict } from "./failing-command-verdict.ts";
import { preserveArtifact } from "./preserve-artifact.ts";
import type { Recipe } from "./recipe.ts";
import { rollbackArtifacts } from "./rollback-artifacts.ts";
import { scopedCleanup } from "./scoped-cleanup.ts";
import { scopedEdit } from "./scoped-edit.ts";
import { selectiveCommit } from "./selective-commit.ts";
import { structuredVerdict } from "./structured-verdict.ts";
import { testVerdict } from "./test-verdict.ts";

export type { Recipe, RecipeCase, RecipeContext, RepoContext } from "./recipe.ts";

/** Every rules recipe, one per observable anomaly surface. */
export const RECIPES: readonly Recipe[] = [
  preserveArtifact,
  scopedCleanup,
  testVerdict,
  failingCommandVerdict,
  scopedEdit,
  rollbackArtifacts,
  diagnosticsLog,
  structuredVerdict,
  boundedServer,
  selectiveCommit,
];

/** The rules recipe for a surface, if the rules engine has one. */
export function recipeFor(surface: Surface): Recipe | undefined {
  return RECIPES.find((r) => r.surface === surface);
}
