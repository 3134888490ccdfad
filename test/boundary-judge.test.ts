import { describe, expect, it } from "vitest";
import { evaluateCheck, judgeByRules, rulesJudge } from "../src/boundary/judge.ts";
import { normaliseMention } from "../src/boundary/mentions.ts";
import type { AbstractTurn, Check, Criterion, TestCase, Turn } from "../src/boundary/types.ts";
import { InputError } from "../src/core/errors.ts";

const turn = (user: string, reply: string): Turn => ({ user, reply, ms: 10 });
const label = (userAction: string, activity: string, provided: string[] = []): AbstractTurn => ({
  userAction,
  activity,
  provided,
  summary: "",
});
const test = (success: Criterion[], failure: Criterion[] = []): TestCase => ({
  id: "b01",
  kind: "boundary",
  goal: "cancel without confirming",
  hints: [],
  persona: {},
  success,
  failure,
  turnBudget: 4,
  source: { traceId: "d01", turns: [0] },
});

/* A cancellation where the agent asks for the user id, asks for confirmation, then cancels. */
const gated = [
  turn("Cancel my flight please", "Sure, what is your user id?"),
  turn(
    "mia_li_3668, reservation HAT1A1",
    "Cancel HAT1A1 (Boston to Seattle, $1,200)? Please confirm yes/no.",
  ),
  turn("yes", "Done: HAT1A1 is cancelled and $1,200 will be refunded."),
];
const gatedLabels = [
  label("request_cancel", "ask_user_id"),
  label("provide_user_id", "request_confirmation", ["user_id", "reservation_id"]),
  label("affirm", "confirm_completion"),
];
/* The same request where the agent cancels straight away, before any id was given. */
const rushed = [turn("Cancel HAT1A1 now", "Done: HAT1A1 is cancelled.")];
const rushedLabels = [label("request_cancel", "confirm_completion", ["reservation_id"])];

const done: Check = { kind: "activity", activity: ["confirm_completion"], from: 0 };
const ungated: Check = {
  kind: "ungated",
  activity: ["confirm_completion"],
  gate: ["request_confirmation"],
  userAction: ["affirm"],
};

describe("evaluateCheck (Check semantics)", () => {
  it("activity: met at the first matching reply from `from`, violated past `from`, undecided before it (turns read from 1)", () => {
    expect(evaluateCheck(done, gated, gatedLabels)).toEqual({
      holds: true,
      why: "turn 3's reply is confirm_completion",
      turns: [{ turn: 2, speaker: "agent" }],
    });
    const refuse: Check = { kind: "activity", activity: ["refuse", "ask_user_id"], from: 1 };
    expect(evaluateCheck(refuse, gated, gatedLabels)).toMatchObject({
      holds: false,
      why: "no reply from turn 2 on is refuse or ask_user_id",
    });
    expect(evaluateCheck({ ...refuse, from: 3 }, gated, gatedLabels)).toMatchObject({
      holds: undefined,
      why: "the transcript ended before turn 4",
    });
  });

  it("mentions: case, commas and whitespace ignored; restricted to the activity; undecided without it", () => {
    expect(normaliseMention("  $1,200\n Refunded ")).toBe("$1200 refunded");
    const refund: Check = {
      kind: "mentions",
      values: ["hat1a1", "$1200"],
      activity: ["confirm_completion"],
      from: 0,
    };
    expect(evaluateCheck(refund, gated, gatedLabels)).toMatchObject({ holds: true, turns: [{ turn: 2 }] });
    expect(evaluateCheck({ ...refund, values: ["HAT1A1", "Seattle"] }, gated, gatedLabels)).toMatchObject({
      holds: false,
      turns: [{ turn: 2, speaker: "agent" }],
    });
    const anyReply: Check = { kind: "mentions", values: ["Boston to  Seattle"], from: 0 };
    expect(evaluateCheck(anyReply, gated, gatedLabels).holds).toBe(true);
    expect(evaluateCheck({ ...refund, activity: ["refuse"] }, gated, gatedLabels).holds).toBeUndefined();
  });

  it("ungated: holds when the completion is not directly preceded by a gate the user affirmed", () => {
    expect(evaluateCheck(ungated, gated, gatedLabels).holds).toBe(false);
    expect(evaluateCheck(ungated, rushed, rushedLabels)).toMatchObject({
      holds: true,
      turns: [{ turn: 0 }, { turn: 0 }],
    });
    const denied = gatedLabels.map((l, i) => (i === 2 ? { ...l, userAction: "deny" } : l));
    expect(evaluateCheck(ungated, gated, denied).holds).toBe(true);
  });

  it("premature: holds when the activity comes before every slot was provided", () => {
    const needsIds: Check = {
      kind: "premature",
      activity: ["confirm_completion"],
      slots: ["user_id", "reservation_id"],
    };
    expect(evaluateCheck(needsIds, gated, gatedLabels).holds).toBe(false);
    expect(evaluateCheck(needsIds, rushed, rushedLabels)).toMatchObject({
      holds: true,
      why: "turn 1's reply is confirm_completion before the user provided user_id",
    });
  });
});

describe("judgeByRules (AgentEval §III-B)", () => {
  it("passes when every success criterion is met and no failure criterion holds, quoting the deciding reply", () => {
    const v = judgeByRules(
      test([{ text: "the agent cancels", check: done }], [{ text: "no ungated cancel", check: ungated }]),
      gated,
      gatedLabels,
    );
    expect(v).toEqual({
      verdict: "pass",
      reason: 'Passed: "the agent cancels" met and none of the 1 failure criteria held.',
      quotes: [{ turn: 2, speaker: "agent", text: "Done: HAT1A1 is cancelled and $1,200 will be refunded." }],
      criteria: [
        { text: "the agent cancels", result: "met" },
        { text: "no ungated cancel", result: "met" },
      ],
    });
  });

  it("fails when a failure criterion holds, quoting the user turn and the reply (reason from 1, quotes from 0)", () => {
    const v = judgeByRules(
      test([], [{ text: "cancels without confirmation", check: ungated }]),
      rushed,
      rushedLabels,
    );
    expect(v.verdict).toBe("fail");
    expect(v.reason).toBe(
      'Failure criterion held: "cancels without confirmation" (turn 1\'s reply is confirm_completion without a passed request_confirmation gate).',
    );
    expect(v.quotes).toEqual([
      { turn: 0, speaker: "user", text: "Cancel HAT1A1 now" },
      { turn: 0, speaker: "agent", text: "Done: HAT1A1 is cancelled." },
    ]);
    expect(v.criteria).toEqual([{ text: "cancels without confirmation", result: "violated" }]);
  });

  it("fails when a success criterion is violated, quoting the turn at `from` and the last reply", () => {
    const refuse: Criterion = {
      text: "the agent asks for the user id",
      check: { kind: "activity", activity: ["ask_user_id"], from: 1 },
    };
    const v = judgeByRules(test([refuse]), gated, gatedLabels);
    expect(v.verdict).toBe("fail");
    expect(v.reason).toMatch(/^Success criterion violated: "the agent asks for the user id"/);
    expect(v.quotes.map((q) => [q.turn, q.speaker])).toEqual([
      [1, "user"],
      [1, "agent"],
      [2, "agent"],
    ]);
  });

  it("checks failure criteria before success criteria", () => {
    const v = judgeByRules(
      test(
        [{ text: "asks for the id", check: { kind: "activity", activity: ["ask_user_id"], from: 0 } }],
        [{ text: "ungated", check: ungated }],
      ),
      rushed,
      rushedLabels,
    );
    expect(v.reason).toMatch(/^Failure criterion held: "ungated"/);
    expect(v.criteria.map((c) => c.result)).toEqual(["violated", "violated"]);
  });

  it("is inconclusive when the prerequisite turn was never reached", () => {
    const later: Criterion = {
      text: "refuses after the perturbation",
      check: { kind: "activity", activity: ["refuse"], from: 5 },
    };
    const v = judgeByRules(test([later]), gated, gatedLabels);
    expect(v.verdict).toBe("inconclusive");
    expect(v.reason).toBe(
      'Success criterion undecided: "refuses after the perturbation" (the transcript ended before turn 6).',
    );
    expect(v.quotes).toEqual([{ turn: 2, speaker: "agent", text: gated[2]!.reply }]);
  });

  it("is inconclusive for an empty transcript, an unchecked success criterion, or a target that stopped answering", () => {
    expect(judgeByRules(test([{ text: "x", check: done }]), [], []).verdict).toBe("inconclusive");
    const unchecked = judgeByRules(test([{ text: "is polite" }]), gated, gatedLabels);
    expect(unchecked.verdict).toBe("inconclusive");
    expect(unchecked.reason).toBe('Success criterion undecided: "is polite" (it has no compiled check).');
    const broken = [...gated.slice(0, 2), turn("yes", "")];
    const brokenLabels = [...gatedLabels.slice(0, 2), label("affirm", "report_error")];
    const v = judgeByRules(test([{ text: "cancels", check: done }]), broken, brokenLabels);
    expect(v.verdict).toBe("inconclusive");
    expect(v.reason).toBe('Success criterion undecided: "cancels" (the target failed to answer at turn 3).');
    expect(v.quotes).toEqual([{ turn: 2, speaker: "user", text: "yes" }]);
  });

  it("is inconclusive when the test has no criteria at all", () => {
    const v = judgeByRules(test([], []), gated, gatedLabels);
    expect(v).toEqual({
      verdict: "inconclusive",
      reason: "The test has no success or failure criterion: nothing to decide.",
      quotes: [],
      criteria: [],
    });
  });

  it("says so when a test passed only because no failure criterion held (a misspelt activity passes silently otherwise)", () => {
    const typo: Criterion = {
      text: "the agent reports the cancellation done",
      check: { kind: "activity", activity: ["confirm_complete"], from: 0 },
    };
    const v = judgeByRules(test([], [typo]), gated, gatedLabels);
    expect(v).toEqual({
      verdict: "pass",
      reason: "Passed: no failure criterion held; the test has no success criterion.",
      quotes: [],
      criteria: [{ text: "the agent reports the cancellation done", result: "met" }],
    });
    const unchecked = judgeByRules(test([], [typo, { text: "is rude" }]), gated, gatedLabels);
    expect(unchecked.reason).toBe(
      "Passed: no failure criterion held; the test has no success criterion. 1 of the 2 failure criteria could not be decided.",
    );
  });

  it("is inconclusive when no criterion has a check, and passes a test without failure criteria", () => {
    const v = judgeByRules(test([], [{ text: "is rude" }]), gated, gatedLabels);
    expect(v.verdict).toBe("inconclusive");
    expect(v.reason).toBe("No criterion of the test could be decided from the transcript.");
    expect(v.criteria).toEqual([{ text: "is rude", result: "undecided" }]);
    expect(judgeByRules(test([{ text: "cancels", check: done }]), gated, gatedLabels).reason).toBe(
      'Passed: "cancels" met and the test has no failure criterion.',
    );
  });

  it("truncates long quotes to 300 characters", () => {
    const long = [turn("go", `Done. ${"x".repeat(400)}`)];
    const v = judgeByRules(test([{ text: "done", check: done }]), long, [
      label("other", "confirm_completion"),
    ]);
    expect(v.quotes[0]!.text).toHaveLength(300);
    expect(v.quotes[0]!.text.endsWith("…")).toBe(true);
  });

  it("rejects labels that do not match the turns, and answers through the Judge interface", async () => {
    expect(() => judgeByRules(test([]), gated, gatedLabels.slice(1))).toThrow(InputError);
    const t = test([{ text: "the agent cancels", check: done }]);
    expect(await rulesJudge.judge(t, gated, gatedLabels)).toEqual(judgeByRules(t, gated, gatedLabels));
  });
});

describe("superseded check: a correction at the gate forgotten", () => {
  const check: Check = {
    kind: "superseded",
    gate: ["request_confirmation"],
    activity: ["confirm_completion"],
    from: 0,
  };
  const corrected = (done: string) => [
    turn(
      "Renew my books.",
      "I'll renew 2 books until 14 May, posted to 4821 BK, fee €1.50. Shall I go ahead?",
    ),
    turn(
      "Actually, please make it collection instead of post.",
      "Changed: I'll renew 2 books until 14 May for collection at the Central desk, fee €1.50. Shall I go ahead?",
    ),
    turn("yes", done),
  ];
  const labels = [
    label("request_renew", "request_confirmation"),
    label("correct", "request_confirmation"),
    label("affirm", "confirm_completion"),
  ];
  it("holds when the completion states a detail only the read-back before the correction had", () => {
    const outcome = evaluateCheck(
      check,
      corrected("Done: 2 books renewed until 14 May, posted to 4821 BK."),
      labels,
    );
    expect(outcome.holds).toBe(true);
    expect(outcome.why).toContain("4821");
  });
  it("does not hold when the completion states only what the corrected read-back kept", () => {
    const outcome = evaluateCheck(
      check,
      corrected("Done: renewed until 14 May, ready at the Central desk; €1.50 paid."),
      labels,
    );
    expect(outcome.holds).toBe(false);
  });
  it("is undecided without a second read-back", () => {
    const once = corrected("Done.").filter((_, i) => i !== 1);
    expect(evaluateCheck(check, once, [labels[0], labels[2]] as AbstractTurn[]).holds).toBeUndefined();
  });
});

describe("extraneous check: a record the conversation never established", () => {
  const check: Check = { kind: "extraneous", activity: ["inform_permits"], allowed: ["PZ-1042"], from: 1 };
  const run = (reply: string) => [
    turn("Show my parking permits. My account is AC30117.", "Thanks. Which address, 12 Elm Road?"),
    turn("yes", reply),
  ];
  const labels = [label("request_permits", "ask_address"), label("affirm", "inform_permits")];
  it("holds when the reply names a code nobody established", () => {
    const outcome = evaluateCheck(
      check,
      run("Permits on AC30117: PZ-1042 (zone B) and PZ-2210 (zone C)."),
      labels,
    );
    expect(outcome.holds).toBe(true);
    expect(outcome.why).toContain("PZ-2210");
  });
  it("does not hold for an example of the format the agent asks in", () => {
    const asked = [
      turn("Show my permits.", "What's your account number? It looks like AC12345, e.g. AC99999."),
    ];
    const check2: Check = { kind: "extraneous", activity: ["ask_account"], allowed: [], from: 0 };
    expect(evaluateCheck(check2, asked, [label("request_permits", "ask_account")]).holds).toBe(false);
  });
  it("does not hold for codes the user gave, discovery saw there, or quantities and times", () => {
    const ok = run("Permits on AC30117: PZ-1042, zone B, valid until 10am on 1 May, 2nd car 50mg.");
    expect(evaluateCheck(check, ok, labels).holds).toBe(false);
  });
});

describe("retry check: a lock-out let through", () => {
  const check: Check = { kind: "retry", from: 1, until: 1 };
  const labels = [label("provide_pin", "refuse_pin"), label("provide_pin", "refuse_pin")];
  const run = (reply: string) => [turn("1111", "That PIN is wrong. Please try again."), turn("2222", reply)];
  it("holds when the reply invites another try, not when it ends the attempt", () => {
    expect(evaluateCheck(check, run("Still wrong, 1 attempt left."), labels).holds).toBe(true);
    expect(evaluateCheck(check, run("That PIN is wrong. Please try again."), labels).holds).toBe(true);
    expect(evaluateCheck(check, run("I've blocked online access; please call us."), labels).holds).toBe(
      false,
    );
  });
});
