import type { TestCase, TestRun } from "./types.ts";

/**
 * Boundary-suite verdicts as JUnit XML, for CI (DESIGN.md "CI use"): one `<testcase>` per planned test,
 * `fail` → `<failure>`, `inconclusive` and tests not run → `<skipped>`.
 */

/** Escape text for XML element content and attribute values; drops characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the control characters XML 1.0 forbids
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&apos;")
      .replace(/\n/g, "&#10;")
      .replace(/\r/g, "&#13;")
      .replace(/\t/g, "&#9;")
  );
}

/** Element content keeps its line breaks readable; only attributes need them as character references. */
const textEscape = (text: string) => xmlEscape(text).replace(/&#10;/g, "\n").replace(/&#9;/g, "\t");

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(
  test: TestCase,
  run: TestRun | undefined,
): { xml: string; outcome: "pass" | "fail" | "skip" } {
  const head = `    <testcase classname="${xmlEscape(test.kind)}" name="${xmlEscape(`${test.id} ${test.goal}`)}" time="${seconds(run?.ms ?? 0)}"`;
  if (!run) return { xml: `${head}>\n      <skipped message="not run"/>\n    </testcase>`, outcome: "skip" };
  const { verdict, reason, quotes } = run.verdict;
  if (verdict === "pass") return { xml: `${head}/>`, outcome: "pass" };
  if (verdict === "inconclusive")
    return {
      xml: `${head}>\n      <skipped message="${xmlEscape(reason)}"/>\n    </testcase>`,
      outcome: "skip",
    };
  const body = [
    reason,
    ...quotes.map((q) => `turn ${q.turn} ${q.speaker}: ${q.text}`),
    ...(run.error ? [`target error: ${run.error}`] : []),
  ].join("\n");
  return {
    xml: `${head}>\n      <failure message="${xmlEscape(reason)}" type="fail">${textEscape(body)}</failure>\n    </testcase>`,
    outcome: "fail",
  };
}

/**
 * Render a plan's verdicts as a JUnit XML document (one `<testsuites>` holding one `<testsuite>`).
 * Each test becomes a `<testcase>` with classname = its kind (`functional` / `boundary`), name = `id goal`,
 * time in seconds from its run's `ms`. A failed test carries `<failure message=reason>` whose body is the
 * reason and the quoted turns; an inconclusive one `<skipped message=reason/>`; a test without a run
 * `<skipped message="not run"/>`. When a test has several runs the last one counts; runs of tests not in
 * `tests` are ignored. Pure; never throws.
 */
export function toJunitXml(suiteName: string, tests: readonly TestCase[], runs: readonly TestRun[]): string {
  const byId = new Map(runs.map((r) => [r.testId, r]));
  const cases = tests.map((t) => testcase(t, byId.get(t.id)));
  const count = (o: string) => cases.filter((c) => c.outcome === o).length;
  const ms = tests.reduce((sum, t) => sum + (byId.get(t.id)?.ms ?? 0), 0);
  const attrs = `name="${xmlEscape(suiteName)}" tests="${tests.length}" failures="${count("fail")}" errors="0" skipped="${count("skip")}" time="${seconds(ms)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs}>`,
    `  <testsuite ${attrs}>`,
    ...cases.map((c) => c.xml),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
