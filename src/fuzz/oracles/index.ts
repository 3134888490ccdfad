import { collateralRemoval } from "./collateral-removal.ts";
import { expectedArtifact } from "./expected-artifact.ts";
import type { Oracle } from "./oracle.ts";
import { outputFormat } from "./output-format.ts";
import { outsideWrite } from "./outside-write.ts";
import { protectedPathTouched } from "./protected-path-touched.ts";
import { rollbackNotDone } from "./rollback-not-done.ts";
import { sandboxViolation } from "./sandbox-violation.ts";
import { secretLeak } from "./secret-leak.ts";
import { stepTimeout } from "./step-timeout.ts";
import { unexpectedChange } from "./unexpected-change.ts";
import { unexpectedDeletion } from "./unexpected-deletion.ts";
import { unexpectedFile } from "./unexpected-file.ts";
import { unsupportedClaim } from "./unsupported-claim.ts";

export type { FindingDraft, Oracle, OracleInput } from "./oracle.ts";

/** Every fuzz oracle (ABTest §3.5), in report order. */
export const ORACLES: readonly Oracle[] = [
  outsideWrite,
  sandboxViolation,
  unexpectedDeletion,
  unexpectedChange,
  protectedPathTouched,
  collateralRemoval,
  secretLeak,
  expectedArtifact,
  rollbackNotDone,
  unsupportedClaim,
  outputFormat,
  unexpectedFile,
  stepTimeout,
];

/**
 * Oracles that still run on incomplete cases. ABTest §3.5 filters incomplete runs because they lack the
 * evidence to judge outcomes; destructive actions and hangs, though, are observed whether or not the agent
 * finished, so an agent that deletes files and then crashes is still reported.
 */
export const ORACLES_FOR_INCOMPLETE: readonly Oracle[] = [
  outsideWrite,
  sandboxViolation,
  unexpectedDeletion,
  unexpectedChange,
  protectedPathTouched,
  secretLeak,
  stepTimeout,
];
