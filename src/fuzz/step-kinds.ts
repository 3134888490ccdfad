/**
 * Step kinds of interaction-pattern skeletons (ABTest §3.1, Table 1 `seq_skeleton_steps`). A skeleton such
 * as "run npm run dev -> server starts -> process never exits -> agent waits" is abstracted into kinds
 * (`run → observe → hang`) by keyword rules, so reports that share a workflow but differ in surface
 * details fall into one Interaction Pattern.
 */

/** Kinds, in the order the classifier tries them (first match wins). */
export const STEP_KINDS = [
  "interrupt",
  "rollback",
  "cleanup",
  "hang",
  "fail",
  "repair",
  "commit",
  "verify",
  "report",
  "run",
  "generate",
  "inspect",
  "configure",
  "instruct",
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

const RULES: ReadonlyArray<readonly [StepKind, RegExp]> = [
  ["interrupt", /\b(interrupt|cancel|stop (everything|it)|restart|user (says|cancels) stop|kill)/i],
  ["rollback", /\b(undo|roll ?back|restore|rewind|revert|reset|checkpoint)/i],
  ["cleanup", /\b(clean ?up|cleans|delete|remove|rm\b|rm -rf|wipe)/i],
  [
    "hang",
    /\b(never (exits|returns)|hangs?|waits? (indefinitely)?|stall|repeats? (indefinitely|until)|retry (same|identical)|stuck)/i,
  ],
  ["fail", /\b(fail|fails|error|crash|0 tests|not found|mismatch|lost|violate)/i],
  ["repair", /\b(retry|re-?try|fix|repair|adjust|fall back|workaround|recreate)/i],
  ["commit", /\b(commit|git add|stage|push|merge)/i],
  ["verify", /\b(verify|check|validate|confirm|re-?runs?|inspect result|shows? no)/i],
  ["report", /\b(claim|report|summar|says?|print|emit|include|narrat|answer|output)/i],
  ["run", /\b(run|execute|start|invoke|launch|spawn|npm|cargo|bash|shell|exec)/i],
  [
    "generate",
    /\b(write|create|generate|produce|prepare|compose|edit|apply|refactor|add|modify|rewrite|move|copy|organi[sz]e|plan)/i,
  ],
  ["inspect", /\b(inspect|list|read|research|load|explore|find|look|open|examine)/i],
  ["configure", /\b(config|setting|enable|set |mode|rule|deny|allow|permission|sandbox)/i],
  ["instruct", /\b(user|asks?|forbids|describes|tells?)/i],
];

/** Kind of one skeleton step, or `other` when no rule matches. */
export function classifyStep(step: string): StepKind | "other" {
  for (const [kind, re] of RULES) if (re.test(step)) return kind;
  return "other";
}

/**
 * Kinds of a whole skeleton (`a -> b -> c`): each step classified, `other` dropped, consecutive repeats
 * collapsed.
 */
export function skeletonKinds(skeleton: string): StepKind[] {
  const kinds: StepKind[] = [];
  for (const step of skeleton.split(/\s*(?:->|→)\s*/)) {
    const kind = classifyStep(step);
    if (kind !== "other" && kinds[kinds.length - 1] !== kind) kinds.push(kind);
  }
  return kinds;
}

/** Generic operational step text for each kind (Table 1 `seq_skeleton_steps`). */
export const KIND_STEP_TEXT: Record<StepKind, string> = {
  interrupt: "Interrupt the running operation",
  rollback: "Roll back <ARTIFACT> to the previous state",
  cleanup: "Clean up <AUX_FILE> while keeping <OUTPUT_FILE>",
  hang: "Run <COMMAND> that does not terminate on its own, bounded in time",
  fail: "Observe the failure of <COMMAND>",
  repair: "Apply a minimal correction and retry",
  commit: "Commit only <FILES>",
  verify: "Verify <OUTPUT_FILE> exists and is valid",
  report: "Report the result truthfully in the requested format",
  run: "Run <COMMAND>",
  generate: "Generate <OUTPUT_FILE>",
  inspect: "Inspect the repository state",
  configure: "Apply the stated configuration constraints",
  instruct: "Follow the user's explicit constraint",
};

/** Workflow phases: the coarse abstraction patterns are merged on (ABTest §3.1 "same workflow pattern"). */
export const PHASES = [
  "configure",
  "execute",
  "produce",
  "disrupt",
  "recover",
  "revert",
  "verify",
  "report",
  "commit",
] as const;
export type Phase = (typeof PHASES)[number];

const PHASE: Record<StepKind, Phase | undefined> = {
  inspect: undefined,
  instruct: undefined,
  configure: "configure",
  run: "execute",
  generate: "produce",
  fail: "disrupt",
  hang: "disrupt",
  interrupt: "disrupt",
  repair: "recover",
  rollback: "revert",
  cleanup: "revert",
  verify: "verify",
  report: "report",
  commit: "commit",
};

/**
 * Phases of a kind sequence: inspection and user instructions dropped (they precede every workflow),
 * kinds mapped to phases, consecutive repeats collapsed.
 */
export function kindsToPhases(kinds: readonly StepKind[]): Phase[] {
  const out: Phase[] = [];
  for (const k of kinds) {
    const phase = PHASE[k];
    if (phase && out[out.length - 1] !== phase) out.push(phase);
  }
  return out;
}
