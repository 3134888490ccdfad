import type { CaseFile } from "./case-file.ts";
import type { WitnessValidation } from "./validate.ts";

/**
 * The prompts of the `eval` stage (WitnessGym §4.1, App. D): the task, in the NoEC setting (bug report and
 * how to run a test) or the WithEC setting (the same plus the execution context), and the feedback after a
 * rejected attempt. Both settings carry exactly the same location information, so the execution context is
 * the only difference (WitnessGym's shipped WithEC context was often a bare count; notes §4 weak point 6).
 * Pure functions.
 */

/** NoEC: bug report and runner only; WithEC: the same plus the execution context. */
export type EvalSetting = "NoEC" | "WithEC";

/** Both settings, in the order they are run. */
export const EVAL_SETTINGS: readonly EvalSetting[] = ["NoEC", "WithEC"];

/** At most this many context functions are listed (a long context is still 121+; the rest is counted). */
const MAX_CONTEXT_LINES = 400;

/**
 * The first prompt of a session.
 * @param runCommand the command that runs one test file, shown with `exampleTest` as the file
 * @param exampleTest a path for the new test file that the project's runner picks up, e.g. `test/witness.test.js`
 */
export function witnessPrompt(
  c: CaseFile,
  setting: EvalSetting,
  runCommand: readonly string[],
  exampleTest: string,
): string {
  const parts = [
    `You are working in the project "${c.project.name}" (JavaScript/TypeScript; its tests use ${c.project.runner}). A bug has been reported in its production code.`,
    `## Bug report\n\n${c.report}`,
  ];
  if (setting === "WithEC") parts.push(contextSection(c));
  parts.push(
    [
      "## Your task",
      "",
      `Write a new test file under ${dirOf(exampleTest)}/ (for example ${exampleTest}) that fails on this bug and would pass once it is fixed: a bug witness.`,
      "- On the correct code the test must pass; on the current, buggy code it must fail with an assertion failure or a runtime error caused by the bug, every time it runs.",
      "- Test the behaviour: call the code and check what it returns or does. Do not read source files as text.",
      `- Do not modify, add or delete any non-test file, and do not fix the bug. Helper files under ${dirOf(exampleTest)}/ are fine.`,
      `- Run your test file with:\n\n    ${shellLine(runCommand)}\n\n  It should fail now, because the code is buggy.`,
      "",
      "When you are done, reply with the path of the test file you wrote.",
    ].join("\n"),
  );
  return parts.join("\n\n");
}

/**
 * The follow-up prompt after a rejected attempt: the rejection reason and, for a validation failure, what the
 * buggy-side run printed. Never the clean side's output (it would show the correct values) nor the clean code.
 */
export function feedbackPrompt(
  attempt: number,
  attempts: number,
  reason: string,
  validation: WitnessValidation | undefined,
): string {
  const lines = [`Your witness (attempt ${attempt} of ${attempts}) was not accepted: ${reason}.`];
  const buggy = validation?.buggy.at(-1);
  if (buggy?.evidence && buggy.evidence !== "exit code 0")
    lines.push(`On the buggy code your test ended with ${buggy.outcome}:\n\n${indent(buggy.evidence)}`);
  lines.push(
    `Fix your test (or write a new one) so that it passes on the correct code and fails on the buggy code because of the reported bug. The same rules apply: change only test files. You have ${attempts - attempt} attempt${attempts - attempt === 1 ? "" : "s"} left.`,
  );
  return lines.join("\n\n");
}

function contextSection(c: CaseFile): string {
  const order = c.context.ordered
    ? "in the order they were first called"
    : "in file and line order (call order could not be observed)";
  const shown = c.context.functions.slice(0, MAX_CONTEXT_LINES);
  const lines = shown.map(
    (f, i) => `${i + 1}. ${f.file}:${f.line} ${f.name} (called ${f.calls} time${f.calls === 1 ? "" : "s"})`,
  );
  if (c.context.functions.length > shown.length)
    lines.push(`… and ${c.context.functions.length - shown.length} more`);
  return [
    "## Execution context",
    "",
    `A passing test of this project that reaches the buggy code executed ${c.context.length === 1 ? "this production function" : `these ${c.context.length} production functions, ${order}`}:`,
    "",
    ...lines,
  ].join("\n");
}

/** A command as one shell line, quoting arguments that need it. */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(" ");
}

function dirOf(file: string): string {
  const i = file.lastIndexOf("/");
  return i < 0 ? "." : file.slice(0, i);
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}
