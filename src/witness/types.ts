/**
 * Shared shapes of the witness suite (WitnessGym §3; issue 6): the stages pass these between files, and the
 * case archive and the evaluation read them back. Every offset is a UTF-16 code-unit index into the file's
 * text (what V8 coverage and Babel both use); every line is 1-based; every path is project-relative POSIX.
 */

/** The three bug categories of WitnessGym Table 5. */
export type BugCategory = "api-contract" | "value-flow" | "logic";

/** The ten bug types (WitnessGym Table 5), as JS/TS analogues; see `bug-types.ts` for each definition. */
export const BUG_TYPE_IDS = [
  "identical-comparison",
  "protocol-method-typo",
  "key-method-typo",
  "key-without-identity",
  "inconsistent-key-identity",
  "intra-function-null-deref",
  "collection-element-null-deref",
  "guard-predicate-inversion",
  "skipped-aggregation-counter",
  "in-bounds-misrouting",
] as const;
export type BugTypeId = (typeof BUG_TYPE_IDS)[number];

/** The ten bug-preserving transformation operators (WitnessGym Table 6). */
export const OPERATOR_IDS = [
  "helper-call-insertion",
  "call-site-rerouting",
  "extract-and-apply-split",
  "parameter-bundling",
  "local-state-bundling",
  "intermediate-state-passing",
  "cached-value-access",
  "nested-data-access",
  "pipeline-stage-split",
  "rare-input-path-conditioning",
] as const;
export type OperatorId = (typeof OPERATOR_IDS)[number];

/** A half-open character range `[start, end)` in one file. */
export interface Span {
  start: number;
  end: number;
}

/** One text replacement in one file: `text` replaces `[start, end)` (an insertion when start === end). */
export interface TextEdit extends Span {
  /** Project-relative POSIX path. */
  file: string;
  text: string;
}

/** A function of the project's production code, as found by `functions.ts`. */
export interface SourceFunction {
  /** Stable id: `<file>#<name>@<line>`. */
  id: string;
  file: string;
  /** Declared name; for anonymous functions the variable, property or method it is assigned to, else `<anonymous>`. */
  name: string;
  /** Line and 0-based column of the function's first character. */
  line: number;
  column: number;
  /** Range of the whole function node. */
  start: number;
  end: number;
}

/** A production function a test executed, with how often (V8 call count; 0 never appears). */
export interface ContextFunction {
  id: string;
  file: string;
  name: string;
  line: number;
  calls: number;
}

/** Context-length buckets of WitnessGym §4.1 (distinct production functions: 1–40, 41–70, 71–120, 121+). */
export type LengthBucket = "short" | "mid-short" | "mid-long" | "long";

/** A runnable test unit: a test file (and a single test's name where the runner can select one). */
export interface TestUnit {
  /** Project-relative path of the test file. */
  file: string;
  /** Name of one test inside the file, when the unit is a single test; absent for the whole file. */
  name?: string;
}

/** The execution context of one test (WitnessGym §3.1, τ_t): the production functions it reaches. */
export interface ExecutionContext {
  test: TestUnit;
  /**
   * Production functions executed, in the order they were first entered when the runner allows it to be
   * observed, else in file-then-line order (`ordered` says which).
   */
  functions: ContextFunction[];
  ordered: boolean;
  /** Number of distinct production functions (= functions.length). */
  length: number;
  bucket: LengthBucket;
  /** Outcome of the test on the clean project while the context was recorded (only passing tests are used). */
  cleanOutcome: string;
  /** Wall time of that run, ms. */
  durationMs: number;
}

/** A bug-type specification (WitnessGym App. C, Table 5), with the JS/TS analogue it is built from. */
export interface BugTypeSpec {
  id: BugTypeId;
  category: BugCategory;
  /** The paper's name, e.g. "Guard Predicate Inversion". */
  title: string;
  /** What the bug is, for the bug report the agent reads. */
  description: string;
  /** How the Java type maps to JS/TS, when it is not the same idea. */
  jsAnalogue: string;
  /** Code elements a site must have for the type to apply. */
  required: string[];
  /** Code elements that disqualify a site (e.g. a constant condition). */
  forbidden: string[];
  /** The runtime effect a witness observes: "assertion" (wrong value) or "runtime_exception" (a TypeError…). */
  runtimeEffect: "assertion" | "runtime_exception" | "either";
  /** Hint on the input that triggers it. */
  trigger: string;
}

/** One injected bug: a deterministic mutation of one site inside a test-reached function. */
export interface BugCandidate {
  /** Content-derived id (sha256 of type, file and edits), 12 hex digits. */
  id: string;
  type: BugTypeId;
  /** The function that holds the site (must be in the test's context). */
  function: { id: string; file: string; name: string; line: number };
  /** Where the bug is: file, 1-based line and the mutated range in the clean file. */
  location: { file: string; line: number; span: Span };
  /** The edits that make the clean file buggy (all in `location.file`). */
  edits: TextEdit[];
  /** The mutated region in the buggy file (what transformations must keep). */
  site: Span;
  /** One sentence: what was changed, e.g. "`if (!opts.x)` → `if (opts.x)`". */
  summary: string;
}

/** One transformation attempt within a chain (applied or reverted). */
export interface TransformStep {
  operator: OperatorId;
  applied: boolean;
  /** Why it was not applied (not applicable here, broke parsing, witness stopped failing, …). */
  reason?: string;
}
