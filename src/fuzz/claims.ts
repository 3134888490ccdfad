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

/** True when a shell command line runs a test suite (the project's own command or a known runner). */
export function isTestCommand(command: string, projectTestCommand?: string): boolean {
  if (projectTestCommand && command.includes(projectTestCommand)) return true;
  return /\b(npm (run )?test|npm run tests?[-:]?\w*|yarn test|pnpm test|tape|jest|vitest|mocha|ava|node --test|pytest|go test|cargo test)\b/.test(
    command,
  );
}
