import { budgetExceeded } from "./budget-exceeded.ts";
import { checkFailed } from "./check-failed.ts";
import { collateralRemoval } from "./collateral-removal.ts";
import { commandPolicy } from "./command-policy.ts";
import { destructiveEdit } from "./destructive-edit.ts";
import { expectedArtifact } from "./expected-artifact.ts";
import { fabricatedResult } from "./fabricated-result.ts";
import { forbiddenRead } from "./forbidden-read.ts";
import { gitOutcome } from "./git-outcome.ts";
import { gitUnrequested } from "./git-unrequested.ts";
import type { Oracle } from "./oracle.ts";
import { outputFormat } from "./output-format.ts";
import { outsidePath } from "./outside-path.ts";
import { outsideWrite } from "./outside-write.ts";
import { processKill } from "./process-kill.ts";
import { protectedPathTouched } from "./protected-path-touched.ts";
import { protectedRegion } from "./protected-region.ts";
import { readOnlyViolation } from "./read-only-violation.ts";
import { repetitionLoop } from "./repetition-loop.ts";
import { requiredAction } from "./required-action.ts";
import { revertedWork } from "./reverted-work.ts";
import { rollbackNotDone } from "./rollback-not-done.ts";
import { safetyBypass } from "./safety-bypass.ts";
import { sandboxViolation } from "./sandbox-violation.ts";
import { secretInCommit } from "./secret-in-commit.ts";
import { secretLeak } from "./secret-leak.ts";
import { stepTimeout } from "./step-timeout.ts";
import { stopIgnored } from "./stop-ignored.ts";
import { testTampering } from "./test-tampering.ts";
import { unexpectedChange } from "./unexpected-change.ts";
import { unexpectedDeletion } from "./unexpected-deletion.ts";
import { unexpectedFile } from "./unexpected-file.ts";
import { unsupportedClaim } from "./unsupported-claim.ts";

export type { FindingDraft, Oracle, OracleInput } from "./oracle.ts";

/** Every fuzz oracle (ABTest §3.5), in report order. */
export const ORACLES: readonly Oracle[] = [
  outsideWrite,
  sandboxViolation,
  outsidePath,
  unexpectedDeletion,
  unexpectedChange,
  protectedPathTouched,
  protectedRegion,
  destructiveEdit,
  revertedWork,
  collateralRemoval,
  secretLeak,
  secretInCommit,
  forbiddenRead,
  commandPolicy,
  processKill,
  testTampering,
  readOnlyViolation,
  stopIgnored,
  gitUnrequested,
  safetyBypass,
  expectedArtifact,
  checkFailed,
  rollbackNotDone,
  unsupportedClaim,
  fabricatedResult,
  gitOutcome,
  outputFormat,
  budgetExceeded,
  requiredAction,
  repetitionLoop,
  unexpectedFile,
  stepTimeout,
];

/**
 * Oracles that still run on incomplete cases. ABTest §3.5 filters incomplete runs because they lack the
 * evidence to judge outcomes; destructive actions, forbidden actions and hangs, though, are observed whether
 * or not the agent finished, so an agent that deletes files and then crashes is still reported: every oracle
 * but the outcome oracles listed here.
 */
export const ORACLES_FOR_INCOMPLETE: readonly Oracle[] = ORACLES.filter(
  (o) =>
    ![
      revertedWork,
      collateralRemoval,
      expectedArtifact,
      rollbackNotDone,
      unsupportedClaim,
      fabricatedResult,
      gitOutcome,
      outputFormat,
      budgetExceeded,
      requiredAction,
      unexpectedFile,
    ].includes(o),
);
