import { shownText, stripControls } from "./report.ts";
import type { TestCase, TestRun } from "./types.ts";

/**
 * Boundary-suite verdicts as JUnit XML, for CI (DESIGN.md "CI use"): one `<testcase>` per planned test,
 * `fail` → `<failure>`, a run the target could not answer → `<error>`, other `inconclusive` runs and tests
 * not run → `<skipped>`.
 */

/**
 * Escape text for XML element content and attribute values. Control characters are dropped as in
 * {@link stripControls} (C0 except `\n` and `\t`, DEL, C1; `\r\n` becomes `\n`), and so are the non-characters
 * U+FFFE and U+FFFF and unpaired surrogates, so the result is always valid XML 1.0.
 */
export function xmlEscape(text: string): string {
  return stripControls(text)
    .replace(/[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\n/g, "&#10;")
    .replace(/\t/g, "&#9;");
}

/** Element content keeps its line breaks readable; only attributes need them as character references. */
const textEscape = (text: string) => xmlEscape(text).replace(/&#10;/g, "\n").replace(/&#9;/g, "\t");

const seconds = (ms: number) => (ms / 1000).toFixed(3);

type Outcome = "pass" | "fail" | "error" | "skip";

/** The reason, the quoted turns (numbered from 1) and the target's error, each cut to `SHOWN_CHARS`. */
function details(run: TestRun): string {
  const { reason, quotes } = run.verdict;
  return [
    shownText(reason),
    ...quotes.map((q) => `turn ${q.turn + 1} ${q.speaker}: ${shownText(q.text)}`),
    ...(run.error ? [`target error: ${shownText(run.error)}`] : []),
  ].join("\n");
}

function testcase(test: TestCase, run: TestRun | undefined): { xml: string; outcome: Outcome } {
  const head = `    <testcase classname="${xmlEscape(test.kind)}" name="${xmlEscape(`${test.id} ${test.goal}`)}" time="${seconds(run?.ms ?? 0)}"`;
  const element = (tag: string, attrs: string, body?: string) =>
    `${head}>\n      <${tag} ${attrs}${body === undefined ? "/>" : `>${textEscape(body)}</${tag}>`}\n    </testcase>`;
  if (!run) return { xml: element("skipped", 'message="not run"'), outcome: "skip" };
  const { verdict, reason } = run.verdict;
  const message = `message="${xmlEscape(shownText(reason))}"`;
  if (verdict === "fail")
    return { xml: element("failure", `${message} type="fail"`, details(run)), outcome: "fail" };
  if (run.error)
    return { xml: element("error", `${message} type="target_error"`, details(run)), outcome: "error" };
  if (verdict === "pass") return { xml: `${head}/>`, outcome: "pass" };
  return { xml: element("skipped", message), outcome: "skip" };
}

/**
 * Render a plan's verdicts as a JUnit XML document (one `<testsuites>` holding one `<testsuite>`).
 * Each test becomes a `<testcase>` with classname = its kind (`functional` / `boundary`), name = `id goal`,
 * time in seconds from its run's `ms`. A failed test carries `<failure message=reason type="fail">`; a run
 * with a target error (the target could not answer: an outage, not a verdict on the agent) and no failure
 * `<error message=reason type="target_error">`, counted in `errors`; both bodies hold the reason, the quoted
 * turns (numbered from 1) and the target's error. Any other inconclusive run is `<skipped message=reason/>`,
 * a test without a run `<skipped message="not run"/>`. Texts are cut to `SHOWN_CHARS` and stripped of
 * control characters. When a test has several runs the last one counts; runs of tests not in `tests` are
 * ignored. Pure; never throws.
 */
export function toJunitXml(suiteName: string, tests: readonly TestCase[], runs: readonly TestRun[]): string {
  const byId = new Map(runs.map((r) => [r.testId, r]));
  const cases = tests.map((t) => testcase(t, byId.get(t.id)));
  const count = (o: Outcome) => cases.filter((c) => c.outcome === o).length;
  const ms = tests.reduce((sum, t) => sum + (byId.get(t.id)?.ms ?? 0), 0);
  const attrs = `name="${xmlEscape(suiteName)}" tests="${tests.length}" failures="${count("fail")}" errors="${count("error")}" skipped="${count("skip")}" time="${seconds(ms)}"`;
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
