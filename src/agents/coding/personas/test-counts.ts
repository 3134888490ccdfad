/**
 * Pass/fail counts from a test runner's output: TAP (tape, node:test), mocha, jest and vitest summaries.
 * Used by the scripted personas to report real numbers, and by oracles to compare claims with evidence.
 */
export interface TestCounts {
  passed: number;
  failed: number;
}

const PATTERNS: ReadonlyArray<(text: string) => TestCounts | undefined> = [
  // TAP: "# pass  153" / "# fail  2"
  (t) => {
    const pass = /^# pass\s+(\d+)/m.exec(t);
    if (!pass) return undefined;
    const fail = /^# fail\s+(\d+)/m.exec(t);
    return { passed: Number(pass[1]), failed: fail ? Number(fail[1]) : 0 };
  },
  // jest: "Tests:       1 failed, 12 passed, 13 total"; vitest: "Tests  3 failed | 10 passed (13)"
  (t) => {
    const line = /^\s*Tests:?\s+(.*)$/m.exec(t)?.[1];
    if (!line) return undefined;
    const passed = /(\d+) passed/.exec(line);
    const failed = /(\d+) failed/.exec(line);
    if (!passed && !failed) return undefined;
    return { passed: passed ? Number(passed[1]) : 0, failed: failed ? Number(failed[1]) : 0 };
  },
  // mocha: "  12 passing" / "  1 failing"
  (t) => {
    const pass = /^\s*(\d+) passing/m.exec(t);
    if (!pass) return undefined;
    const fail = /^\s*(\d+) failing/m.exec(t);
    return { passed: Number(pass[1]), failed: fail ? Number(fail[1]) : 0 };
  },
];

/** Counts found in `output`, or undefined when no known summary line is present. */
export function parseTestCounts(output: string): TestCounts | undefined {
  for (const p of PATTERNS) {
    const counts = p(output);
    if (counts) return counts;
  }
  return undefined;
}
