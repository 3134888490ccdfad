import { describe, expect, it } from "vitest";
import { labelReply } from "../src/boundary/abstract.ts";
import { answerQuestion, offeredCapabilities } from "../src/boundary/answer.ts";
import { evaluateCheck } from "../src/boundary/judge.ts";
import { asRequest } from "../src/boundary/requests.ts";
import { slotNamedIn } from "../src/boundary/slots.ts";

/** What an insurance claims bot written apart from the rules taught them (issue 15 §1, §2). */

describe("services in a coordinated list (answer.ts offeredCapabilities)", () => {
  it("rebuilds 'X or Y claim', a bare verb and a list after a preposition", () => {
    expect(
      offeredCapabilities(
        "I can help you file a new home or car claim, check or withdraw an existing claim, or add a named driver to your car policy, and answer questions about deductibles, claim times and office hours.",
      ),
    ).toEqual([
      "file a new home claim",
      "file a car claim",
      "check an existing claim",
      "withdraw an existing claim",
      "add a named driver to your car policy",
      "answer questions about deductibles",
      "answer questions about claim times",
      "answer questions about office hours",
    ]);
    expect(asRequest("answer questions about deductibles")).toBe("ask about deductibles");
  });
  it("leaves plain verb lists as they are and says a noun as what the customer does with it", () => {
    expect(
      offeredCapabilities("I can help you check your balance, send a transfer or freeze your card."),
    ).toEqual(["check your balance", "send a transfer", "freeze your card"]);
    expect(offeredCapabilities("I can help with order status, or changing your delivery address.")).toEqual([
      "ask about order status",
      "changing your delivery address",
    ]);
  });
});

describe("slots said other ways (slots.ts)", () => {
  const slots = [
    "policy_number",
    "postcode",
    "last_name",
    "incident_date",
    "driver_date_of_birth",
    "claim_id",
  ];
  it.each([
    ["Could you give me your policy reference first?", "policy_number"],
    ["What's the surname on the policy?", "last_name"],
    ["Could you give me Oliver Clarke's date of birth, please?", "driver_date_of_birth"],
    ["Which date did this happen?", "incident_date"],
    ["What's the number?", undefined],
  ])("%s → %s", (sentence, slot) => expect(slotNamedIn(sentence, slots)).toBe(slot));
  it("answers a question for two slots with both values", () => {
    const persona = { postcode: "BS1 4DJ", last_name: "Clarke" };
    expect(answerQuestion("What's the postcode and last name on the policy?", persona)).toBe(
      "BS1 4DJ, Clarke",
    );
  });
});

describe("labels a paraphrase does not change (abstract.ts, judge.ts)", () => {
  it("reads a statement before a closing offer as information, and any information reply as `inform`", () => {
    const reply =
      "Put simply, the deductible is the first slice of a claim that you cover. Can I help with anything else?";
    const { activity } = labelReply(reply);
    expect(activity).toMatch(/^inform/);
    const check = { kind: "activity" as const, activity: ["inform_price", "inform"], from: 0 };
    const turns = [{ user: "what is a deductible?", reply: "It's £250 on your policy.", ms: 1 }];
    const labels = [{ userAction: "other", activity: "inform_money", provided: [], summary: "" }];
    expect(evaluateCheck(check, turns, labels).holds).toBe(true);
  });
  it("a refusal offering a hand-off is a refusal; 'which … would you like me to' asks, it is not a gate", () => {
    expect(
      labelReply(
        "We wouldn't be able to withdraw CL-62001 at this stage, as it's been paid out. I can put you through to a colleague if you'd like.",
      ).activity,
    ).toMatch(/^refuse/);
    expect(
      labelReply("Which claim would you like me to check? Your claims are CL-1 and CL-2.").activity,
    ).not.toBe("request_confirmation");
  });
});
