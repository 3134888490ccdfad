import { describe, expect, it } from "vitest";
import { labelReply } from "../src/boundary/abstract.ts";
import { guardCoverage, guardCoverageLine } from "../src/boundary/guards.ts";
import { extremeValue } from "../src/boundary/limits.ts";
import { canonicalValues, mentionsValue } from "../src/boundary/mentions.ts";
import { asRequest } from "../src/boundary/requests.ts";
import { slotNamedIn } from "../src/boundary/slots.ts";
import { Facts, type TestCase, type WorkflowGraph } from "../src/boundary/types.ts";

/** Guard coverage, paraphrase-tolerant values, slot names said other ways and refusal idioms (issue 15). */

const node = (activity: string, support = 1) => ({ activity, support, examples: [] });
const graph: WorkflowGraph = {
  nodes: [
    node("ask_plan", 5),
    node("request_confirmation", 4),
    node("refuse_limit", 3),
    node("refuse_timing", 1),
  ],
  edges: [],
  entry: {},
  terminal: {},
  routes: {},
};
const test = (id: string, kind: TestCase["kind"], extra: Partial<TestCase>): TestCase => ({
  id,
  kind,
  goal: "g",
  hints: [],
  persona: {},
  success: [],
  failure: [],
  turnBudget: 3,
  source: { traceId: "d01", turns: [] },
  ...extra,
});

describe("guard coverage (guards.ts)", () => {
  it("lists every guard with the tests aimed at it, and names the ones no test targets", () => {
    const tests = [
      test("b-01", "boundary", {
        target: { kind: "edge", location: "ask_plan -> request_confirmation", label: "l", potential: 0.5 },
      }),
      test("f-01", "functional", {
        success: [{ text: "t", check: { kind: "activity", activity: ["refuse_limit"], from: 2 } }],
        // A family name alone targets no guard in particular.
        failure: [{ text: "t", check: { kind: "activity", activity: ["refuse"], from: 0 } }],
      }),
    ];
    const rows = guardCoverage(graph, tests);
    expect(rows.map((r) => [r.activity, r.tests])).toEqual([
      ["request_confirmation", ["b-01"]],
      ["refuse_limit", ["f-01"]],
      ["refuse_timing", []],
    ]);
    expect(guardCoverageLine(rows)).toBe(
      "plan: 3 guard(s) and branches seen in discovery, 2 targeted by a test; no test targets refuse_timing",
    );
  });
});

describe("values a paraphrase writes another way (mentions.ts)", () => {
  it("reads amounts, day-first and month-first dates and clock times in one form", () => {
    expect(canonicalValues("€1,234.50, 1234.5 EUR or 45 euros")).toEqual(["money:1234.5", "money:45"]);
    expect(canonicalValues("on 12 March 2025, March 12th or 2025-03-12")).toEqual(["date:3-12"]);
    expect(canonicalValues("by 2 pm, 14:00 or 2:30 PM")).toEqual(["time:840", "time:870"]);
    expect(canonicalValues("Room 12 costs 30")).toEqual([]);
  });

  it("counts a value as mentioned in another format, never a different one", () => {
    expect(mentionsValue("The fee is 45 euros.", "€45.00")).toBe(true);
    expect(mentionsValue("The fee is €40.00.", "€45.00")).toBe(false);
    expect(mentionsValue("Check-in on 12 March.", "March 12")).toBe(true);
    expect(mentionsValue("Late checkout until 2 pm.", "14:00")).toBe(true);
    expect(mentionsValue("Late checkout until 4 pm.", "14:00")).toBe(false);
  });
});

describe("out-of-range values (limits.ts extremeValue)", () => {
  it.each([
    ["90 days", "9000 days"],
    ["250", "25000"],
    ["2024-05-18", "2019-05-18"],
    ["14 June", "14 June 2019"],
    ["HAT1A1", undefined],
    ["Emma Clarke", undefined],
  ])("%s → %s", (observed, extreme) => expect(extremeValue(observed)).toBe(extreme));
});

describe("slot names said other ways (slots.ts)", () => {
  const slots = ["full_name", "first_name", "date_of_birth", "surname", "booking_reference", "postcode"];
  it.each([
    ["What's your name?", "full_name"],
    ["What is your first name?", "first_name"],
    ["When were you born?", "date_of_birth"],
    ["What's your DOB?", "date_of_birth"],
    ["Can I have your last name?", "surname"],
    ["What is your confirmation code?", "booking_reference"],
    ["What's your zip code?", "postcode"],
  ])("%s → %s", (question, slot) => expect(slotNamedIn(question, slots)).toBe(slot));
});

describe("services offered in the agent's words, asked for in the customer's (requests.ts)", () => {
  it.each([
    ["tell you our opening hours", "know the opening hours"],
    ["put you through to a pharmacist", "talk to a pharmacist"],
    ["change its cabin", "change my cabin"],
  ])("%s → %s", (offered, asked) => expect(asRequest(offered)).toBe(asked));
});

describe("refusals in other words (abstract.ts)", () => {
  const facts = Facts.parse({ personas: [{ medication: ["Zolpidem 10 mg"] }], requests: [] });
  it.each([
    ["I'm afraid late checkout after 2 pm isn't something we can offer.", "refuse"],
    ["We don't allow extra beds in standard rooms.", "refuse_policy"],
    ["That refund exceeds the €200 limit I can approve here.", "refuse_limit"],
    ["I'm sorry, 90 days is more than the maximum of 60 days I can send per refill.", "refuse_limit"],
    ["We can replace a SIM at most once every 30 days. Anything else I can help with?", "refuse_limit"],
    // A refusal with an offer of a hand-off or of something else is the refusal, about the value it names.
    [
      "Zolpidem 10 mg is a controlled medicine, so it can't be refilled through chat. Would you like me to connect you?",
      "refuse_medication",
    ],
    [
      "We can't add an extra bed to a Standard room. Would you like me to check a Family room instead?",
      "refuse",
    ],
    ["I'm connecting you with one of our pharmacists now.", "transfer_to_human"],
    ["I'm putting you through to the manager.", "transfer_to_human"],
    ["A member of our team will call you back within the hour.", "transfer_to_human"],
    ["Let me read that back: 16 Park Lane. Should I update it?", "request_confirmation"],
    ["Your booking is confirmed for 12 March.", "inform_status"],
    ["Just to be sure — is that a yes or a no?", "request_confirmation"],
    ["Lovely, you're booked: a table for 2 on 14 June at 7:30 pm.", "confirm_completion"],
    // Gates, completions, aborts and hand-offs in wordings first seen on agents the rules were not written on.
    [
      "Please check: vehicle AB12 CDE, Zone A, 1 May to 31 July, £40.00. Is that right to issue?",
      "request_confirmation",
    ],
    ["It's free to cancel now. Shall I cancel booking HX-1234?", "request_confirmation"],
    ["A fee of €80.00 applies. Do you still want me to cancel HX1234?", "request_confirmation"],
    ["Ready to send: challenge to PCN RV40012345, reason: signage. Submit it now?", "request_confirmation"],
    ["Your permit RP-8801 is live now and runs until 15 October 2025.", "confirm_completion"],
    ["Your transcript order is placed: 2 copies by post, total €10.00.", "confirm_completion"],
    ["Late checkout confirmed for 13:00 (€25.00).", "confirm_completion"],
    ["Understood, I haven't taken any payment.", "acknowledge_abort"],
    ["OK, no permit has been issued.", "acknowledge_abort"],
    ["No report sent. Anything else?", "acknowledge_abort"],
    ["Let me transfer you to one of my colleagues at reception.", "transfer_to_human"],
    ["Someone from the claims team will be with you soon.", "transfer_to_human"],
    ["The Flex plan doesn't include guest passes; they come with Core and Elite.", "refuse_eligibility"],
    ["The room rate doesn't include breakfast; it's €18 per person.", "inform_money"],
    [
      "Code accepted. Your address is outside the controlled parking zones, so permits aren't available there.",
      "refuse_availability",
    ],
  ])("%s → %s", (reply, activity) => expect(labelReply(reply, facts).activity).toBe(activity));
});
