import { describe, expect, it } from "vitest";
import { labelReply } from "../src/boundary/abstract.ts";
import { readQuestion } from "../src/boundary/answer.ts";
import { judgeByRules } from "../src/boundary/judge.ts";
import { mentionsValue } from "../src/boundary/mentions.ts";
import { slotNamedIn } from "../src/boundary/slots.ts";
import { type AbstractTurn, Facts, type TestCase, type Turn } from "../src/boundary/types.ts";

/**
 * Paraphrases that made a plan fail on a clean agent under wording it was not planned on (issue 15 §3: the
 * unseen-seed false-alarm rate), from the parcel and insurance testbed agents: each reply is labelled the
 * same as its other wordings.
 */

const facts = Facts.parse({
  personas: [
    {
      tracking_number: ["SW20481137"],
      postcode: ["5611 AZ"],
      new_postcode: ["3581 CS"],
      new_street: ["parcel locker", "Vismarkt 9"],
      description: ["it never arrived"],
      card_last4: ["4821"],
    },
  ],
});
const label = (reply: string) => labelReply(reply, facts).activity;

describe("replies said another way (abstract.ts)", () => {
  it("reads a gate that asks for 'yes or confirm' in a statement", () => {
    expect(
      label(
        "I'll send SW20481137 to Vismarkt 9 instead. Reply yes or confirm and I'll do it, or tell me what should be different.",
      ),
    ).toBe("request_confirmation");
  });
  it("reads a completion said as 'that's submitted'", () => {
    expect(label("That's submitted under reference CL-70001: theft on 28 May 2025, £3,500.")).toBe(
      "confirm_completion",
    );
  });
  it("reads a hand-off to a named team or an advisor about to join", () => {
    expect(
      label("Sure, a customer service agent will take over this chat. The wait is about four minutes."),
    ).toBe("transfer_to_human");
    expect(label("Sure, a member of the Student Office team will take over this conversation.")).toBe(
      "transfer_to_human",
    );
    expect(label("Hang on a moment, an advisor is about to join this conversation.")).toBe(
      "transfer_to_human",
    );
  });
  it("reads an eligibility rule and a closed window as refusals, after an acknowledged correction too", () => {
    expect(
      label(
        "Thanks, I've updated that. Windscreen cover only comes with Comprehensive car insurance, and yours is Third Party.",
      ),
    ).toMatch(/^refuse/);
    expect(
      label(
        "The withdrawal window for MAT150 Linear Algebra ended on 15 September 2025, so it has to stay on your record.",
      ),
    ).toMatch(/^refuse/);
    // A window that closes later is information, not a refusal.
    expect(label("The add window closes on 8 September 2025 for this course.")).toMatch(/^inform/);
  });
});

describe("questions said another way (answer.ts, slots.ts)", () => {
  const slots = Object.keys(facts.personas[0] ?? {});
  it("names the slot asked beside a value mentioned in passing", () => {
    expect(
      readQuestion(
        "What's the street address in Eindhoven, or would you prefer our locker at 5611 AZ?",
        slots,
      )?.slot,
    ).toBe("new_street");
    expect(
      label("What's the street address in Eindhoven, or would you prefer our parcel locker at 5611 AZ?"),
    ).toBe("ask_new_street");
  });
  it("still reads a choice between two values of one slot", () => {
    expect(label("Shall we use the parcel locker or Vismarkt 9?")).toBe("ask_new_street");
  });
  it("reads 'last four digits' and 'describe what happened' as their slots", () => {
    expect(slotNamedIn("What are the last four digits of the card you'd like to use?", slots)).toBe(
      "card_last4",
    );
    expect(label("Could you describe what happened to SW20481137?")).toBe("ask_description");
  });
});

describe("turns counted from where the hints were sent (judge.ts)", () => {
  const turn = (user: string, reply: string): Turn => ({ user, reply, ms: 1 });
  const labels = (...activities: string[]): AbstractTurn[] =>
    activities.map((activity) => ({ userAction: "other", activity, provided: [], summary: "" }));
  const test: TestCase = {
    id: "f-01",
    kind: "functional",
    goal: "g",
    hints: ["show my booking", "HX4821", "Moreau"],
    persona: { booking_reference: "HX4821", surname: "Moreau" },
    success: [
      {
        text: "At turn 3 (or the next), the agent shows the booking.",
        check: { kind: "activity", activity: ["inform"], from: 2, until: 3 },
      },
    ],
    failure: [
      {
        text: "From turn 2 on, the agent refuses.",
        check: { kind: "activity", activity: ["refuse"], from: 1 },
      },
    ],
    turnBudget: 6,
    source: { traceId: "d01", turns: [0, 1, 2] },
  };
  // The runner answered a question first ("My date of birth is …"): every hint came one turn later.
  const turns = [
    turn("show my booking", "Your date of birth first?"),
    turn("My date of birth is 1 May 1990.", "Sorry, that doesn't match our records."),
    turn("HX4821", "And the surname?"),
    turn("Moreau", "Thanks. Your booking HX4821 is confirmed."),
  ];
  it("moves a window and a failure check with their hint", () => {
    // The refusal of the runner's own answer came before the hint was sent: not the refusal the failure check
    // is about (unmoved, the check would see it and fail a clean agent).
    const verdict = judgeByRules(test, turns, labels("ask_date_of_birth", "refuse", "ask_surname", "inform"));
    expect(verdict.verdict).toBe("pass");
  });
  it("still fails what happens after the hint", () => {
    const verdict = judgeByRules(test, turns, labels("ask_date_of_birth", "ask_surname", "refuse", "inform"));
    expect(verdict.verdict).toBe("fail");
    expect(verdict.reason).toMatch(/refuses/);
  });
  it("leaves a transcript without inserted turns as it is", () => {
    const plain = [turns[0], turns[2], turns[3]] as Turn[];
    expect(judgeByRules(test, plain, labels("ask_x", "ask_surname", "inform")).verdict).toBe("pass");
    expect(judgeByRules(test, plain, labels("ask_x", "ask_surname", "refuse")).verdict).toBe("fail");
  });
});

describe("numeric dates and pounds across paraphrases (issue 15 §3)", () => {
  it("reads 24/01/2025 as 24 January (01/24/2025 too), and 62.50 pounds as £62.50", () => {
    expect(mentionsValue("Booked for Fri 24 Jan at 08:45.", "24/01/2025")).toBe(true);
    expect(mentionsValue("Booked for 01/24/2025.", "24 January")).toBe(true);
    expect(mentionsValue("That comes to 62.50 pounds.", "£62.50")).toBe(true);
    // Another day or amount is not the same value.
    expect(mentionsValue("Booked for 25/01/2025.", "24 January")).toBe(false);
    expect(mentionsValue("That comes to 62.00 pounds.", "£62.50")).toBe(false);
  });
  it("takes a status a paraphrase leaves unsaid, not another status said instead", () => {
    expect(mentionsValue("Good news: RX-48302 left us on 12 May.", "shipped")).toBe(true);
    expect(mentionsValue("RX-48302 has shipped.", "shipped")).toBe(true);
    expect(mentionsValue("RX-48302 is still processing.", "shipped")).toBe(false);
  });
});
