import { describe, expect, it } from "vitest";
import { spanMismatch } from "../src/boundary/consistency.ts";
import { evaluateCheck } from "../src/boundary/judge.ts";

describe("a period's dates against the length it states (consistency.ts)", () => {
  it.each([
    "To confirm: a resident permit, valid 16 April 2025 until 15 October 2025 (6 months), costing £45.00.",
    "Zone A, 12 months from 16 April to 15 April, £80.00 added.",
    "3 nights, 12 March to 15 March, €300.",
    "A 2-week freeze from Monday 3 March to Monday 17 March.",
    "Your rental: pick-up 3 May, return 8 May, 5 days.",
    "Stay: 2025-06-01 to 2025-06-04 (3 nights).",
    // A limit or an offset is not the period's length; working days are not calendar days.
    "You can book from 13 November to 12 December, up to 4 weeks ahead.",
    "We'll decide within 28 days of 3 May, by 31 May.",
    "Open 3 May to 9 May; allow 5 working days for delivery.",
    "Two weeks, from 1 March to 20 March, or three weeks, from 1 March to 22 March?",
  ])("agrees: %s", (reply) => expect(spanMismatch(reply)).toBeUndefined());

  it.each([
    [
      "Valid 16 April 2025 until 15 November 2025 (6 months).",
      '"6 months" from 16 April 2025 to 15 November 2025 is 213 days',
    ],
    ["3 nights, 12 March to 16 March.", '"3 nights" from 12 March to 16 March is 4 days'],
    [
      "A 2-week freeze from Monday 3 March to Friday 21 March.",
      '"2-week" from 3 March to 21 March is 18 days',
    ],
    ["Pick-up 3 May, return 10 May, five days.", '"five days" from 3 May to 10 May is 7 days'],
  ])("disagrees: %s", (reply, why) => expect(spanMismatch(reply)).toBe(why));

  it("is a failure check the rules judge decides from the transcript", () => {
    const turns = [
      {
        user: "A permit for 6 months please",
        reply: "Six months from 1 May to 31 October. Shall I issue it?",
        ms: 1,
      },
      { user: "Yes", reply: "Done: valid 1 May to 30 November (6 months).", ms: 1 },
    ];
    const out = evaluateCheck({ kind: "inconsistent", from: 0 }, turns, []);
    expect(out.holds).toBe(true);
    expect(out.why).toContain("turn 2");
    expect(evaluateCheck({ kind: "inconsistent", from: 0 }, turns.slice(0, 1), []).holds).toBe(false);
  });
});
