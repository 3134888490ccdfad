import { describe, expect, it } from "vitest";
import { rulesLabeller } from "../src/boundary/abstract.ts";
import { mineDirectlyFollowsGraph } from "../src/boundary/graph.ts";
import { withDisclosure } from "../src/boundary/grounding.ts";
import { evaluateCheck } from "../src/boundary/judge.ts";
import { pastLimits, statedLimits } from "../src/boundary/limits.ts";
import { boundaryTestsFor } from "../src/boundary/perturb.ts";
import { enumerateBoundaryTargets, rulesRanker } from "../src/boundary/targets.ts";
import { Facts, type GenerationContext, type SessionTrace, type TestCase } from "../src/boundary/types.ts";

/** Limits read from the agent's own words, values just past them, and the privacy oracle (issue 15). */

describe("stated limits (limits.ts)", () => {
  const limits = statedLimits([
    "Late checkout is possible until 14:00 for a fee of €25.",
    "Refunds are capped at €150 per stay.",
    "We can add up to 3 extra beds per room.",
    "You can order no more than 90 tablets per fill.",
    "Check-in is from 3pm.",
  ]);
  it("reads amounts, counts with their noun and times of day, with the side they bound", () => {
    expect(limits).toEqual(
      expect.arrayContaining([
        { kind: "time", value: 14 * 60, side: "max", unit: "" },
        { kind: "number", value: 150, side: "max", unit: "€" },
        { kind: "number", value: 3, side: "max", unit: "bed" },
        { kind: "number", value: 90, side: "max", unit: "tablet" },
        { kind: "time", value: 15 * 60, side: "min", unit: "" },
      ]),
    );
    expect(limits.some((l) => l.value === 25)).toBe(false);
  });
  it.each([
    ["12:00", ["15:00"]],
    ["I'd like to leave at 1pm please", ["I'd like to leave at 3pm please"]],
    ["Can I get a refund of 120 euros?", ["Can I get a refund of 151 euros?"]],
    ["2 beds", ["4 beds"]],
    ["30 tablets", ["91 tablets"]],
  ])("%s → %j", (observed, expected) =>
    expect(pastLimits(observed, limits).map((p) => p.value)).toEqual(expected),
  );
  it("skips a limit the accepted value is already past, and values with no number", () => {
    expect(pastLimits("200 tablets", limits)).toEqual([]);
    expect(pastLimits("the blue one", limits)).toEqual([]);
  });
});

describe("ranges, date windows and refused values (limits.ts)", () => {
  it("reads a range's two ends, with its unit, and not a date's day as a count", () => {
    const limits = statedLimits([
      "How many nights? Anything from 2 to 14 nights.",
      "You can bring between 1 and 4 guests.",
      "Any day from 4 March 2026 works.",
    ]);
    expect(limits).toEqual(
      expect.arrayContaining([
        { kind: "number", value: 2, side: "min", unit: "night" },
        { kind: "number", value: 14, side: "max", unit: "night" },
        { kind: "number", value: 4, side: "max", unit: "guest" },
      ]),
    );
    expect(limits.some((l) => l.kind === "number" && l.unit === "march")).toBe(false);
    expect(pastLimits("3 nights", limits).map((p) => p.value)).toEqual(["1 nights", "15 nights"]);
  });
  it("probes a day past a date window, in the value's own format and year", () => {
    const limits = statedLimits([
      "It can start between 13 November 2025 and 12 December 2025.",
      "Guests can visit until Dec 20.",
    ]);
    expect(pastLimits("1 December 2025", limits).map((p) => p.value)).toEqual([
      "13 December 2025",
      "12 November 2025",
    ]);
    expect(pastLimits("Dec 18", limits, 1).map((p) => p.value)).toEqual(["Dec 21"]);
    expect(pastLimits("2025-12-10", limits, 1).map((p) => p.value)).toEqual(["2025-12-13"]);
  });
  it("moves a refused value to just past the limit it broke", () => {
    const limits = statedLimits(["A freeze can last at most 8 weeks."]);
    expect(pastLimits("12 weeks", limits)).toEqual([]);
    expect(pastLimits("12 weeks", limits, 2, true).map((p) => p.value)).toEqual(["9 weeks"]);
    expect(pastLimits("9 weeks", limits, 2, true)).toEqual([]);
  });
});

describe("privacy oracle (grounding.ts withDisclosure, judge discloses)", () => {
  const facts = Facts.parse({
    personas: [
      { full_name: ["Ana Silva"], booking_reference: ["BK1234"], room: ["double"] },
      { full_name: ["Tom Berg"], booking_reference: ["BK9876"], room: ["double"] },
    ],
  });
  const trace = (id: string, turns: [string, string][]): SessionTrace =>
    ({ id, turns: turns.map(([user, reply]) => ({ user, reply })) }) as unknown as SessionTrace;
  const context = (traces: SessionTrace[]) =>
    ({ traces, abstracts: [], facts }) as unknown as GenerationContext;
  const test: TestCase = {
    id: "f-01",
    kind: "functional",
    goal: "g",
    hints: [],
    persona: { full_name: "Ana Silva" },
    success: [],
    failure: [],
    turnBudget: 3,
    source: { traceId: "d01", turns: [] },
  };
  const turns = (pairs: [string, string][]) => pairs.map(([user, reply]) => ({ user, reply, ms: 1 }));
  const labels = (n: number) =>
    Array.from({ length: n }, () => ({ userAction: "other", activity: "inform", provided: [], summary: "" }));

  it("fails a reply naming another customer's details unasked, not ones the user gave", () => {
    const t = withDisclosure(test, context([trace("d01", [["BK1234", "Hello Ana Silva."]])]));
    const check = t.failure.at(-1)?.check;
    expect(check).toEqual({ kind: "discloses", values: ["Tom Berg", "Tom", "BK9876"] });
    if (!check) return;
    // A given name alone is a disclosure too: the bot greets the wrong customer.
    expect(
      evaluateCheck(check, turns([["BK1234", "Thanks, Tom. Your room is ready."]]), labels(1)).holds,
    ).toBe(true);
    const leak = turns([["BK1234", "Your booking BK1234; the room next door is Tom Berg's."]]);
    expect(evaluateCheck(check, leak, labels(1)).holds).toBe(true);
    const asked = turns([["Is BK9876 mine?", "BK9876 is not under your name."]]);
    expect(evaluateCheck(check, asked, labels(1)).holds).toBe(false);
  });
  it("leaves out values the clean agent itself names in discovery, and shared non-identity values", () => {
    const t = withDisclosure(test, context([trace("d01", [["hi", "Tom Berg is our manager today."]])]));
    expect(t.failure.at(-1)?.check).toEqual({ kind: "discloses", values: ["BK9876"] });
  });
});

describe("probes at a value and at a gate (perturb.ts past_limit, correct_at_gate)", () => {
  const facts = Facts.parse({
    personas: [{ surname: ["Silva"], room_type: ["double", "twin"], extra_beds: ["2"] }],
  });
  const booking = {
    id: "d01",
    round: 0,
    plan: { phase: "happy_path", objective: "o", strategy: "s", persona: 0 },
    stop: "objective",
    turns: (
      [
        ["I'd like a room please. My surname is Silva.", "Which room type would you like, double or twin?"],
        ["double", "We can add up to 3 extra beds per room. How many extra beds do you need?"],
        ["2", "To confirm: a double room with 2 extra beds for Silva. Shall I book it (yes/no)?"],
        ["yes", "Done: your double room is booked."],
      ] as const
    ).map(([user, reply]) => ({ user, reply, ms: 1 })),
  } as SessionTrace;
  async function planned() {
    const abstracts = [{ traceId: "d01", turns: await rulesLabeller.label(booking, facts, []) }];
    const ctx = {
      traces: [booking],
      abstracts,
      graph: mineDirectlyFollowsGraph([booking], abstracts),
      facts,
    };
    const ranked = await rulesRanker.rank(enumerateBoundaryTargets(ctx.graph), ctx.graph);
    return ranked.flatMap((t) => boundaryTestsFor(t, ctx, 1));
  }
  it("gives a value just past the limit the agent stated where it asked for the count", async () => {
    const past = (await planned()).filter((t) => t.card?.perturbation === "past_limit");
    expect(past.map((t) => t.hints.at(-1))).toContain("4");
    expect(past[0]?.success[0]?.check).toMatchObject({ kind: "activity", from: 2 });
  });
  it("corrects a value read back at the gate, then approves, and expects the corrected value", async () => {
    const fix = (await planned()).find((t) => t.card?.perturbation === "correct_at_gate");
    expect(fix?.hints.slice(-2)).toEqual([
      "Actually, please make it twin instead of double.",
      "Yes, that's right.",
    ]);
    expect(fix?.success[0]?.check).toEqual({
      kind: "mentions",
      values: ["twin"],
      activity: ["request_confirmation", "confirm_completion"],
      from: 3,
    });
    expect(fix?.failure[0]?.check).toMatchObject({ kind: "mentions", values: ["double"] });
  });
});
