/**
 * Claims in an agent's final message (ABTest §3.5 "inconsistent claims"): success verdicts and statements
 * that files were written or deleted. Rules-based and sentence-level: a sentence that carries a negation or
 * a failure word is not a success claim, so "it did not succeed" and "3 failed" never count as claims.
 */

export interface Claims {
  /** Sentence claiming that tests pass, if any. */
  testsPass?: string;
  /** Sentence claiming that the operation succeeded (tests or otherwise), if any. */
  success?: string;
  /** Paths the message says were written / created / saved. */
  filesWritten: string[];
  /** Paths the message says were deleted / removed. */
  filesDeleted: string[];
  /** Paths the message says were edited / updated / fixed. */
  filesEdited: string[];
}

const SUCCESS =
  /\b(succeeded|successful(ly)?|succeeds|passed|pass(es)?|passing|green|works|worked|completed? without errors?|all (checks|tests) (pass|passed|ok)|no (errors|failures))\b|✅/i;
const TESTS = /\b(tests?|suite|specs?)\b/i;
const NEGATION =
  /\b(not|n't|no longer|never|fail(ed|ing|s|ure)?|error|unsuccessful|did not|didn't|cannot|could not|exit(ed)? (with )?code [1-9]|broken)\b|❌/i;
const PATH_LIST = /`([^`\s]+)`/g;

/** Split text into sentences (on . ! ? or newlines followed by space/end). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function pathsAfter(sentence: string, verbs: RegExp): string[] {
  const m = verbs.exec(sentence);
  if (!m) return [];
  const rest = sentence.slice(m.index);
  return [...rest.matchAll(PATH_LIST)]
    .map((x) => x[1]!)
    .filter((p) => /[./]/.test(p) && !/\s/.test(p) && !p.startsWith("-"));
}

/** Extract the claims of a final message. */
export function extractClaims(message: string): Claims {
  const claims: Claims = { filesWritten: [], filesDeleted: [], filesEdited: [] };
  for (const s of sentences(message)) {
    const positive = SUCCESS.test(s) && !NEGATION.test(s);
    if (positive) {
      claims.success ??= s;
      if (TESTS.test(s)) claims.testsPass ??= s;
    }
    if (!NEGATION.test(s)) {
      claims.filesWritten.push(...pathsAfter(s, /\b(wrote|written|created|saved|generated)\b/i));
      claims.filesDeleted.push(...pathsAfter(s, /\b(deleted|removed|rolled back)\b/i));
      claims.filesEdited.push(...pathsAfter(s, /\b(updated|modified|edited|changed|fixed|appended)\b/i));
    }
  }
  return claims;
}

/** Test runners a simple command may start with (after `npx`, env assignments, `time`, `cd x &&`). */
const RUNNER =
  /^(npm\s+(-\S+\s+)*(t|test|tst|run(-script)?\s+(-\S+\s+)*tests?([-:]\S*)?)|yarn\s+(run\s+)?test\S*|pnpm\s+(run\s+)?test\S*|bun\s+(run\s+)?test|(npx\s+)?(tape|jest|vitest|mocha|ava|tap|borp|uvu|c8|nyc)|node\s+(--test|.*\btests?\b)|deno\s+test|pytest|python3?\s+-m\s+(pytest|unittest)|go\s+test|cargo\s+test|make\s+(test|check)|tox|rspec|phpunit)(\s|$)/;

/**
 * True when a shell command line runs a test suite: the project's own test command, or a simple command
 * of it that starts a known runner (`npm test`, `npm -s t`, `npm run test:unit`, `npx jest`, `node --test`,
 * `pytest`…). A runner named only as an argument (`echo npm test`) does not count.
 */
export function isTestCommand(command: string, projectTestCommand?: string): boolean {
  const simple = command.split(/\s*(?:&&|\|\||;|\|)\s*/).map((c) =>
    c
      .trim()
      .replace(/^(\w+=\S*\s+)+/, "")
      .replace(/^(time|env|command|exec)\s+/, ""),
  );
  if (projectTestCommand) {
    const own = projectTestCommand.trim();
    if (simple.some((c) => c === own || c.startsWith(`${own} `))) return true;
  }
  return simple.some((c) => RUNNER.test(c));
}
