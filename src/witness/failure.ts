/**
 * Classifying one test run by why it failed, from the exit status and the text Node test runners print
 * (node:test in TAP and spec form, tape, mocha, jest, vitest). WitnessGym classifies failures by substring
 * too, but only logs the class (WitnessGym §1.5); here the class decides acceptance (issue 6 §1 validate).
 */

/** Why a test run ended. `assertion` and `runtime_exception` are the semantic failures. */
export type TestOutcome =
  | "pass"
  | "assertion"
  | "runtime_exception"
  | "syntax"
  | "import"
  | "timeout"
  | "no_tests"
  | "harness";

/** What {@link classifyTestRun} reads: the result of running a test command. */
export interface TestRunOutput {
  /** Exit code; null when the process was killed by a signal or never started. */
  exitCode: number | null;
  /** True when our own time limit killed the run. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Set when the command could not be started at all (e.g. ENOENT): the error message. */
  spawnError?: string;
}

/** The class of a run and the line(s) that decided it. */
export interface TestRunClassification {
  outcome: TestOutcome;
  /** The deciding line(s), trimmed (TAP `# ` prefix and colours removed), newline-joined; at most ~600 chars. */
  evidence: string;
}

/** True for the outcomes that show the code under test misbehaving: an assertion or a runtime exception. */
export function isSemanticFailure(outcome: TestOutcome): boolean {
  return outcome === "assertion" || outcome === "runtime_exception";
}

// Each rule is a list of line patterns; the first line matching any of them decides.
const NO_TESTS = [
  /^#\s*tests\s+0\b/, // node:test (TAP), tape
  /^ℹ\s*tests\s+0\b/, // node:test (spec reporter)
  /No test files found/, // vitest, mocha
  /No tests found/, // jest
  /No test suite found in file/, // vitest
  /^Could not find '.+'$/, // node --test with a missing file
];

/** Zero-tests markers that only mean "nothing ran" when the run exited 0 (mocha also prints them when all fail). */
const NO_TESTS_ON_SUCCESS = [...NO_TESTS, /^0 passing\b/];

const IMPORT = [
  /ERR_MODULE_NOT_FOUND/,
  /Cannot find (?:module|package) /,
  /does not provide an export named/, // ESM, printed as a SyntaxError
  /ERR_PACKAGE_PATH_NOT_EXPORTED/,
  /Failed to (?:load url|resolve import)/, // vitest
];

const SYNTAX = [
  // Compile-time SyntaxError; JSON.parse throws SyntaxError at run time (handled as a runtime exception).
  /(?:^|[\s(])SyntaxError(?:\s\[\w+\])?:\s(?!.*(?:JSON|does not provide an export named))/,
  /Jest encountered an unexpected token/,
  /Transform failed with \d+ error/, // vitest (esbuild)
  /\berror TS\d+:/, // TypeScript type errors count as compile-time failures
];

const RUNNER_TIMEOUT = [
  /failureType:\s*'testTimeoutFailure'/, // node:test
  /test timed out after \d+ ?ms/, // node:test
  /Timeout of \d+ms exceeded/, // mocha
  /Exceeded timeout of \d+ ?ms/, // jest
  /Test timed out in \d+ms/, // vitest
];

const ASSERTION = [
  /AssertionError/, // node:assert, chai (mocha, vitest)
  /ERR_ASSERTION/,
  /^operator:\s*(?!error\b)\w+/, // tape (operator `error` is a thrown exception)
  /expect\(received\)/, // jest
  /\bassert(?:\.\w+)?\((?:received|actual|value)\b/, // jest reporting a node:assert failure: `assert.strictEqual(received, expected)`
  /\bexpected .+ to (?:not )?(?:be|equal|deep|have|include|contain|match|throw|satisfy)/, // chai, vitest
];

const RUNTIME = [
  // A thrown error other than the classes above: stack header line or node:test YAML `name:` field.
  /(?:^|[\s(])(?:Uncaught\s+)?[A-Z]\w*Error(?:\s\[\w+\])?:\s/,
  /^name:\s*'[A-Z]\w*Error'/,
];

/** Lines that name a failing test, shown before the deciding line in the evidence. */
const FAILING_TEST = [/^not ok \d+/, /^✖ /, /^● /, /^FAIL /, /^\d+\) /];

/**
 * Classify one run of a Node test command.
 *
 * Precedence (first that applies wins; documented because one output often carries several markers):
 * 1. `harness`: the command could not start (`spawnError`), exited 126/127, or died by a signal we did not send;
 * 2. `timeout`: our time limit killed it (`timedOut`);
 * 3. exit 0: `no_tests` if a zero-tests marker is present (`# tests 0`, `0 passing`, …), else `pass`;
 * 4. `import`: a module or export could not be resolved (before syntax: ESM reports a missing export as a SyntaxError);
 * 5. `syntax`: compile-time SyntaxError, jest/vitest transform errors, `error TSnnnn` (so a SyntaxError wins over a
 *    later assertion line: the code never ran); a SyntaxError about JSON is a runtime exception instead;
 * 6. `timeout`: the runner's own per-test timeout (`Timeout of 2000ms exceeded`, `testTimeoutFailure`, …);
 * 7. `no_tests`: a zero-tests marker (`No test files found`, `Could not find '…'`, `# tests 0`);
 * 8. `assertion`: AssertionError / ERR_ASSERTION, tape `operator:` (other than `error`), jest `expect(received)`,
 *    chai `expected … to …` (before runtime: tape and chai stacks also print a generic `Error:` line);
 * 9. `runtime_exception`: any other `XxxError: …` line or node:test `name: 'XxxError'` (TypeError, ReferenceError,
 *    RangeError, custom errors). Whether it came from production or test code is not checked: an error in the
 *    witness itself also fails on clean code, which the differential check in `validateWitness` rejects;
 * 10. `harness`: a non-zero exit with none of the markers above (e.g. `process.exit(1)`).
 *
 * Pure; never throws. Source: WitnessGym §1.5 (`outcome_classifier.py` classes), issue 6 §1 validate.
 */
export function classifyTestRun(run: TestRunOutput): TestRunClassification {
  if (run.spawnError !== undefined) return { outcome: "harness", evidence: clip(run.spawnError.trim()) };
  if (run.timedOut) return { outcome: "timeout", evidence: "killed by the time limit" };
  if (run.exitCode === 126 || run.exitCode === 127) {
    return { outcome: "harness", evidence: clip(lastLine(run) ?? `exit code ${run.exitCode}`) };
  }
  if (run.exitCode === null) return { outcome: "harness", evidence: "killed by a signal" };

  const lines = linesOf(run);
  if (run.exitCode === 0) {
    const none = findLine(lines, NO_TESTS_ON_SUCCESS);
    return none === undefined
      ? { outcome: "pass", evidence: "exit code 0" }
      : decide("no_tests", lines, none);
  }
  const rules: [TestOutcome, RegExp[]][] = [
    ["import", IMPORT],
    ["syntax", SYNTAX],
    ["timeout", RUNNER_TIMEOUT],
    ["no_tests", NO_TESTS],
    ["assertion", ASSERTION],
    ["runtime_exception", RUNTIME],
  ];
  for (const [outcome, patterns] of rules) {
    const at = findLine(lines, patterns);
    if (at !== undefined) return decide(outcome, lines, at);
  }
  return {
    outcome: "harness",
    evidence: clip(
      `exit code ${run.exitCode}, no recognised failure marker; last line: ${lastLine(run) ?? "(none)"}`,
    ),
  };
}

/** Evidence: the deciding line, preceded by the failing test's header line when there is one before it. */
function decide(outcome: TestOutcome, lines: string[], at: number): TestRunClassification {
  const deciding = lines[at] ?? "";
  let header: string | undefined;
  for (let i = 0; i < at; i++) {
    const line = lines[i] ?? "";
    if (FAILING_TEST.some((p) => p.test(line))) header = line;
  }
  const evidence = header !== undefined && header !== deciding ? `${header}\n${deciding}` : deciding;
  return { outcome, evidence: clip(evidence) };
}

function findLine(lines: string[], patterns: RegExp[]): number | undefined {
  const i = lines.findIndex((line) => patterns.some((p) => p.test(line)));
  return i < 0 ? undefined : i;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI colour escapes is the point.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** stdout then stderr, split into lines without colours, surrounding blanks or the TAP comment `# ` prefix. */
function linesOf(run: TestRunOutput): string[] {
  return `${run.stdout}\n${run.stderr}`
    .replace(ANSI, "")
    .split(/\r?\n/)
    .map((l) => l.trim().replace(/^#\s+(?!tests\b)/, ""))
    .filter((l) => l.length > 0);
}

function lastLine(run: TestRunOutput): string | undefined {
  return linesOf(run).at(-1);
}

function clip(text: string, max = 600): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
