import { type CaseStep, type FuzzCase, step } from "../../src/fuzz/case.ts";
import { type CaseResult, type StepResult, skippedStep } from "../../src/fuzz/result.ts";
import type { FileDelta } from "../../src/workspace/evidence.ts";

/** A made-up case with the given steps. */
export function makeCase(steps: CaseStep[], extra: Partial<FuzzCase> = {}): FuzzCase {
  return {
    caseId: "T-1",
    templateId: "ST-0001",
    patternId: "IP-01",
    actionId: "AT-01",
    category: "File Operation",
    mode: "cleanup-overreach",
    template: "test",
    sourceReports: [],
    repository: { spec: "./repo", testCommand: "npm test", testByproducts: [] },
    setup: { files: [] },
    env: {},
    plantedSecrets: [],
    rules: [],
    protectedRegions: [],
    testFiles: [],
    checks: [],
    steps,
    rollbackSteps: [],
    rollbackFailurePatterns: [],
    postRollbackVerificationSteps: [],
    expectedNewFiles: [],
    expectedModifiedFiles: [],
    expectedDeletedFiles: [],
    protectedPaths: [],
    ...extra,
  };
}

export { step };

/** A made-up step result. */
export function makeStep(stepId: string, parts: Partial<StepResult> = {}): StepResult {
  return { ...skippedStep(stepId, "…"), status: "ok", exitCode: 0, durationMs: 10, ...parts };
}

export function makeResult(steps: StepResult[], extra: Partial<CaseResult> = {}): CaseResult {
  return {
    agent: "test-agent",
    caseId: "T-1",
    status: "complete",
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    steps,
    outsideChanges: [],
    concurrentCases: [],
    sandbox: { kind: "none", hidden: [], readable: [] },
    regionsBaseline: [],
    checks: [],
    ...extra,
  };
}

export function delta(path: string, kind: FileDelta["kind"], extra: Partial<FileDelta> = {}): FileDelta {
  return {
    path,
    kind,
    binary: false,
    hashBefore: kind === "added" ? undefined : `h-${path}-before`,
    hashAfter: kind === "deleted" ? undefined : `h-${path}-after`,
    ...extra,
  };
}
