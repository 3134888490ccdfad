import { describe, expect, it } from "vitest";
import { toJunitXml, xmlEscape } from "../src/boundary/junit.ts";
import { clipText, costRows, stripControls, summarizeRuns } from "../src/boundary/report.ts";
import { renderBoundaryReport } from "../src/boundary/report-html.ts";
import type { AuditSummary, StageCost, TestCase, TestRun, Verdict } from "../src/boundary/types.ts";

const testCase = (id: string, kind: TestCase["kind"], goal = `goal of ${id}`): TestCase => ({
  id,
  kind,
  goal,
  hints: ["cancel HAT1A1"],
  persona: {},
  success: [
    {
      text: "asks for confirmation",
      check: { kind: "activity", activity: ["request_confirmation"], from: 0 },
    },
  ],
  failure: [{ text: "cancels without confirmation" }],
  turnBudget: 3,
  source: { traceId: "d01", turns: [0, 1] },
  ...(kind === "boundary"
    ? {
        target: {
          kind: "node",
          location: "request_confirmation",
          label: "confirmation gate",
          potential: 0.9,
        },
        card: {
          capability: "request_cancel",
          guard: "request_confirmation",
          perturbation: "premature_confirm",
          expected: "request_confirmation",
          forbidden: "confirm_completion",
        },
      }
    : {}),
});

const run = (
  testId: string,
  verdict: Verdict["verdict"],
  reason: string,
  reply = "Please confirm.",
): TestRun => ({
  testId,
  target: "airline",
  turns: [{ user: "cancel HAT1A1 & <refund>", reply, ms: 1200 }],
  labels: [{ userAction: "request_cancel", activity: "confirm_completion", provided: [], summary: "" }],
  verdict: {
    verdict,
    reason,
    quotes: [{ turn: 0, speaker: "agent", text: reply }],
    criteria: [
      { text: "asks for confirmation", result: verdict === "pass" ? "met" : "violated" },
      { text: "cancels without confirmation", result: "undecided" },
    ],
  },
  ms: 1500,
});

const tests = [
  testCase("f01", "functional"),
  testCase("b01", "boundary", 'push "past" <refusal>'),
  testCase("b02", "boundary"),
  testCase("b03", "boundary"),
];
const runs = [
  run("f01", "pass", "Passed."),
  run("b01", "fail", 'Failure criterion held: "cancels" <now>.', "Done <script>alert(1)</script>"),
  run("b02", "inconclusive", "Success criterion undecided: budget ran out."),
];

/** A small well-formedness check: tags nest and close, text holds no raw `<` or bare `&`. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  for (const m of body.matchAll(tag)) {
    const text = body.slice(last, m.index);
    if (/[<>]/.test(text) || /&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(text)) return false;
    if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(m[3] ?? "")) return false;
    last = m.index + m[0].length;
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else if (!m[4]) stack.push(m[2]!);
  }
  return stack.length === 0 && body.slice(last).trim() === "";
}

describe("toJunitXml", () => {
  const xml = toJunitXml("gauntlet boundary <airline>", tests, runs);

  it("is well-formed XML with one testcase per planned test and the right counts", () => {
    expect(wellFormed(xml)).toBe(true);
    expect(wellFormed("<a><b></a></b>")).toBe(false);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain(
      '<testsuite name="gauntlet boundary &lt;airline&gt;" tests="4" failures="1" errors="0" skipped="2" time="4.500">',
    );
  });

  it("maps fail to <failure> with quoted turns numbered from 1, inconclusive to <skipped>, and a missing run to not run", () => {
    expect(xml).toContain(
      '<testcase classname="boundary" name="b01 push &quot;past&quot; &lt;refusal&gt;" time="1.500">',
    );
    expect(xml).toContain(
      '<failure message="Failure criterion held: &quot;cancels&quot; &lt;now&gt;." type="fail">Failure criterion held: &quot;cancels&quot; &lt;now&gt;.\nturn 1 agent: Done &lt;script&gt;alert(1)&lt;/script&gt;</failure>',
    );
    expect(xml).toContain('<skipped message="Success criterion undecided: budget ran out."/>');
    expect(xml).toMatch(/name="b03 goal of b03" time="0.000">\s*<skipped message="not run"\/>/);
    expect(xml).toContain('<testcase classname="functional" name="f01 goal of f01" time="1.500"/>');
  });

  it("escapes markup, quotes, newlines and drops characters XML forbids", () => {
    expect(xmlEscape(`a<b>&"c'\nd\u0001`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;&#10;d");
    expect(xmlEscape("x\r\ny\u0000\u001b[31mred\u001b[0m\tz\uD800\uFFFF")).toBe("x&#10;yred&#9;z");
  });

  it("writes a run the target could not answer as <error>, counted in `errors`; other inconclusive runs stay <skipped>", () => {
    const down: TestRun = {
      ...run(
        "b02",
        "inconclusive",
        "The target failed to answer at turn 1: connect ECONNREFUSED 127.0.0.1:8000",
      ),
      turns: [{ user: "cancel HAT1A1", reply: "", ms: 3 }],
      labels: [],
      verdict: {
        verdict: "inconclusive",
        reason: "The target failed to answer at turn 1: connect ECONNREFUSED 127.0.0.1:8000",
        quotes: [],
        criteria: [],
      },
      error: "connect ECONNREFUSED 127.0.0.1:8000",
    };
    const undecided = run("b03", "inconclusive", "Success criterion undecided: budget ran out.");
    const xml = toJunitXml("gauntlet boundary", tests, [...runs.slice(0, 2), down, undecided]);
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('tests="4" failures="1" errors="1" skipped="1"');
    expect(xml).toContain(
      '<error message="The target failed to answer at turn 1: connect ECONNREFUSED 127.0.0.1:8000" type="target_error">The target failed to answer at turn 1: connect ECONNREFUSED 127.0.0.1:8000\ntarget error: connect ECONNREFUSED 127.0.0.1:8000</error>',
    );
    expect(xml).toMatch(
      /name="b03 goal of b03" time="1.500">\s*<skipped message="Success criterion undecided: budget ran out."\/>/,
    );
  });

  it("cuts huge quotes and target errors and strips control characters", () => {
    const noisy: TestRun = {
      ...run("b01", "fail", "Failure criterion held.", `Done\u0000\u001b[1m!\r\n${"y".repeat(5000)}`),
      error: "z".repeat(4005),
    };
    const xml = toJunitXml("gauntlet boundary", tests, [noisy]);
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain(`turn 1 agent: Done!\n${"y".repeat(3994)}… (1,006 more characters)\n`);
    expect(xml).toContain(`target error: ${"z".repeat(4000)}… (5 more characters)</failure>`);
  });
});

describe("stripControls and clipText", () => {
  it("keeps newlines and tabs, drops other control characters and ANSI colours, and notes what was cut", () => {
    expect(stripControls("a\r\nb\rc\td\u0000e\u001b[1;31mf\u001b[0m\u007f\u0085g")).toBe("a\nb\nc\tdefg");
    expect(clipText("abcdef", 4)).toBe("abcd… (2 more characters)");
    expect(clipText("abcd", 4)).toBe("abcd");
    expect(clipText("abc\u{1F600}z", 4)).toBe("abc… (3 more characters)");
  });
});

describe("summarizeRuns", () => {
  it("counts verdicts overall and by kind, the last run of a test counting", () => {
    const again = [...runs, run("b02", "pass", "Passed.")];
    expect(summarizeRuns(again, tests)).toEqual({
      pass: 2,
      fail: 1,
      inconclusive: 0,
      notRun: 1,
      total: 4,
      byKind: {
        functional: { pass: 1, fail: 0, inconclusive: 0, notRun: 0 },
        boundary: { pass: 1, fail: 1, inconclusive: 0, notRun: 1 },
      },
    });
    expect(summarizeRuns(runs)).toMatchObject({ pass: 1, fail: 1, inconclusive: 1, notRun: 0, total: 3 });
  });
});

const costs: StageCost[] = [
  { stage: "discover", calls: 12, inputTokens: 30_000, outputTokens: 2_000, ms: 65_000, targetTurns: 40 },
  { stage: "run", calls: 0, inputTokens: 0, outputTokens: 0, ms: 5_000, targetTurns: 3 },
];

describe("renderBoundaryReport", () => {
  const input = { target: "airline <v2>", createdAt: "2025-01-02T03:04:05Z", tests, runs, costs };

  it("renders counts, costs, every test id and the failures first, without an audit section", () => {
    const html = renderBoundaryReport(input);
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("airline &lt;v2&gt;");
    expect(html).toContain("1 pass</span>");
    expect(html).toContain("1 fail</span>");
    expect(html).toContain("1 inconclusive</span>");
    expect(html).toContain("1 not run</span>");
    for (const t of tests) expect(html).toContain(`id="test-${t.id}"`);
    const order = ["b01", "b02", "b03", "f01"].map((id) => html.indexOf(`id="test-${id}"`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(html).toContain("<code>premature_confirm</code>");
    expect(html).toContain("<code>request_confirmation</code> — confirmation gate (potential 0.90)");
    expect(html).not.toContain("<h2>Audit</h2>");
    expect(html).not.toMatch(/src="http|href="http/);
    expect(costRows(costs).at(-1)).toEqual(["total", "12", "30,000", "2,000", "70.0", "43"]);
  });

  it("escapes a <script> in an agent reply and in a goal", () => {
    const html = renderBoundaryReport(input);
    expect(html).toContain("Done &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("push &quot;past&quot; &lt;refusal&gt;");
  });

  it("shows failure criteria as held / did not happen and success criteria as met / violated", () => {
    const t: TestCase = {
      ...testCase("b05", "boundary"),
      success: [{ text: "asks to confirm" }, { text: "names the reservation" }],
      failure: [{ text: "cancels at once" }, { text: "charges a fee" }, { text: "is rude" }],
    };
    const r: TestRun = {
      ...run("b05", "fail", "Failure criterion held."),
      verdict: {
        ...run("b05", "fail", "Failure criterion held.").verdict,
        criteria: [
          { text: "asks to confirm", result: "met" },
          { text: "names the reservation", result: "violated" },
          { text: "cancels at once", result: "violated" },
          { text: "charges a fee", result: "met" },
          { text: "is rude", result: "undecided" },
        ],
      },
    };
    const html = renderBoundaryReport({ ...input, tests: [t], runs: [r] });
    expect(html).toContain('<li><span class="badge met">met</span> asks to confirm</li>');
    expect(html).toContain('<li><span class="badge violated">violated</span> names the reservation</li>');
    expect(html).toContain('<li><span class="badge violated">held</span> cancels at once</li>');
    expect(html).toContain('<li><span class="badge met">did not happen</span> charges a fee</li>');
    expect(html).toContain('<li><span class="badge undecided">undecided</span> is rude</li>');
  });

  it("lists the guards no test targets and the tests dropped at plan time with their failing run", () => {
    const html = renderBoundaryReport({
      ...input,
      guards: [
        { activity: "refuse_limit", family: "refuse", support: 3, tests: [] },
        { activity: "request_confirmation", family: "request_confirmation", support: 5, tests: ["b-01"] },
      ],
      rejected: [
        {
          id: "b-24-invalid-value",
          kind: "boundary",
          goal: "When asked for the date, an invalid value must not be accepted.",
          reason: "fail against bot: no reply from turn 4 to turn 5 is ask_date",
          turns: [{ user: "9999-99-99", reply: "What time would suit you?", activity: "ask_time" }],
        },
      ],
    });
    expect(html).toContain("Guards and branches");
    expect(html).toContain("2 seen in discovery, 1 targeted by a test");
    expect(html).toMatch(
      /<code>refuse_limit<\/code><\/td><td>3<\/td><td><span class="fail">no test targets it/,
    );
    expect(html).toContain("Dropped at plan time");
    expect(html).toContain("b-24-invalid-value");
    expect(html).toContain("What time would suit you?");
  });

  it("numbers turns from 1 in quotes, the transcript and the source", () => {
    const html = renderBoundaryReport(input);
    expect(html).toContain(
      '<div class="turn"><span class="muted">turn 1</span> <span class="who">agent</span>',
    );
    expect(html).toContain(
      '<div class="turn"><span class="muted">turn 1</span><div><span class="who">user</span>',
    );
    expect(html).not.toContain("turn 0");
    expect(html).toContain("d01 turns 1, 2");
  });

  it("cuts each transcript text at 4000 characters and strips control characters", () => {
    const huge = `Done\u0000\u001b[31m!\u0007\r\n${"x".repeat(1_000_000)}`;
    const html = renderBoundaryReport({ ...input, runs: [run("b01", "fail", "Failure\u0000 held.", huge)] });
    expect(html.length).toBeLessThan(40_000);
    expect(html).toContain(`<pre>Done!\n${"x".repeat(3994)}… (996,006 more characters)</pre>`);
    expect(html).toContain("Failure held.");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting none is left
    expect(html).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F]/);
  });

  it("renders the audit rates, the kill matrix, the graph and tokens per distinct boundary when given", () => {
    const audit: AuditSummary = {
      functional: { tests: 1, valid: 1, validity: 1, falseAlarmRate: 0, accuracy: 1, inconclusiveRate: 0 },
      boundary: {
        tests: 3,
        valid: 2,
        validity: 2 / 3,
        distinct: 1,
        duplicateRate: 0.5,
        falseAlarmRate: 0,
        accuracy: 0.5,
        inconclusiveRate: 0.5,
      },
      kills: [
        { fault: "skip_confirmation", killedBy: ["b01"], confirmed: true },
        { fault: "wrong_refund", killedBy: [], confirmed: false },
      ],
    };
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>request_confirmation</text></svg>';
    const graph = { nodes: [], edges: [], entry: { greet: 2 }, terminal: {}, routes: {} };
    const html = renderBoundaryReport({
      ...input,
      audit,
      graphSvg: svg,
      graph,
      tokensPerDistinctBoundary: 16_000.4,
    });
    expect(html).toContain("<h2>Audit</h2>");
    expect(html).toContain("<td>boundary</td><td>3</td><td>2</td><td>66.7%</td><td>1</td><td>50.0%</td>");
    expect(html).toContain("Kill matrix (1 of 2 seeded faults killed)");
    expect(html).toContain(
      '<code>skip_confirmation</code></td><td><span class="badge pass">killed</span></td><td><a href="#test-b01">b01</a>',
    );
    expect(html).toContain('<span class="badge fail">survived</span>');
    expect(html).toContain(`<div class="graph">${svg}</div>`);
    expect(html).toContain("0 activities, 0 edges, 1 entry and 0 terminal activities.");
    expect(html).toContain("Tokens per distinct boundary: <b>16,000</b>");
  });
});
