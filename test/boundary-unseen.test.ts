import { describe, expect, it } from "vitest";
import { labelReply } from "../src/boundary/abstract.ts";
import { answerQuestion, offeredCapabilities } from "../src/boundary/answer.ts";
import { sentences } from "../src/boundary/asking.ts";
import { evaluateCheck } from "../src/boundary/judge.ts";
import { asRequest } from "../src/boundary/requests.ts";
import { rulesRunner } from "../src/boundary/run.ts";
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

/** Paraphrases of one state that a seed the plan never saw says (tuned bots' seeds 4–5; issue 15 §3). */
describe("one state, every paraphrase, one label (abstract.ts)", () => {
  it.each([
    // A rule stated as a condition, or a limit in a policy answer, informs.
    [
      "A deductible is the part of any claim you pay yourself. If a loss costs less than your deductible, there's nothing for us to pay. Anything else?",
      /^inform/,
    ],
    [
      "Cancellations are free up to 48 hours before arrival. Refunds are capped at €100 per booking, and late checkout is possible until 14:00.",
      /^inform/,
    ],
    // Refusals worded without the usual words.
    [
      "After three failed identity checks I have to lock chat access to the record. An advisor can verify you another way; would you like one?",
      /^refuse/,
    ],
    [
      "I'm sorry to hear that. Cancellations are handled by our membership team. Shall I connect you now?",
      /^refuse/,
    ],
    ["Sorry, no guest passes during a freeze; yours lasts until 1 December 2025.", /^refuse/],
    ["That one isn't checked out to you. Pick from: Charlotte's Web and The Wild Robot.", /^refuse/],
    [
      "That card was cancelled after a lost-card report. Please visit a branch with photo ID for a new one.",
      /^refuse/,
    ],
    ["No member record matches 21234500055555. Try the number again.", /^report_not_found$/],
    ["No problem, I won't renew Circe. It stays due Tue 18 Mar.", /^acknowledge_abort$/],
    // An example address names the e-mail; a bracketed aside ends its sentence.
    [
      "That doesn't look like an email address. Could you type it again, like name@example.com?",
      /^ask_email$/,
    ],
    [
      "It's been approved, and the payment of £900 is being processed. (Incident: theft on 11 April 2025, £900.) Is there anything else I can do for you?",
      /^inform/,
    ],
  ])("%s", (reply, label) => expect(labelReply(reply).activity).toMatch(label));
  it("splits after a bracketed sentence", () => {
    expect(sentences("Paid. (Ref: 12.) Anything else?")).toEqual(["Paid. (Ref: 12.)", "Anything else?"]);
  });
});

describe("a deliberate value stands (run.ts, mentions.ts)", () => {
  it("does not answer a re-asked slot with the persona's value once the hints that gave another are spent", async () => {
    const test = {
      id: "f-1",
      kind: "functional" as const,
      goal: "withdraw a claim",
      hints: ["withdraw my claim", "My claim id is CL-40113.", "My claim id is CL-40113."],
      persona: { claim_id: "CL-40112" },
      success: [],
      failure: [],
      turnBudget: 8,
      source: { traceId: "d1", turns: [0] },
    };
    const turns = test.hints.map((user) => ({
      user,
      reply: "There's no claim CL-40113. Which claim did you mean?",
      ms: 0,
    }));
    expect(await rulesRunner.next({ test, turns })).toBeUndefined();
    // No value given on purpose: the question is answered from the persona.
    const plain = { ...test, hints: ["withdraw my claim"] };
    const asked = [{ user: "withdraw my claim", reply: "Which claim id, please?", ms: 0 }];
    expect(await rulesRunner.next({ test: plain, turns: asked })).toMatch(/CL-40112/);
  });
  it("a record code the agent worked out may go unsaid, not be replaced by one the run never named", () => {
    const check = { kind: "mentions" as const, values: ["£660"], derived: ["WX19"], from: 1 };
    const turn = (user: string, reply: string) => ({ user, reply, ms: 0 });
    const label = { userAction: "other", activity: "confirm_completion", provided: [], summary: "" };
    const gate = turn("add Oliver", "Add Oliver to the Ford Focus, WX19 KLM, for £660? Yes or no?");
    const said = (reply: string) => evaluateCheck(check, [gate, turn("yes", reply)], [label, label]).holds;
    expect(said("Oliver has been added. Your premium is now £660.")).toBe(true);
    expect(said("Oliver is insured on WX19 KLM for £660.")).toBe(true);
    expect(said("Oliver is insured on policy HM-204999 for £660.")).toBe(false);
  });
});

describe("a re-ask after a value over the limit, and a declined write (abstract.ts)", () => {
  it.each([
    ["Refunds are capped at €20 here. Could you name an amount within that?", /^refuse_limit$/],
    ["I'm sorry, I can refund at most €20 on this booking. Would a smaller amount work?", /^refuse_limit$/],
    ["I can order at most 5 copies in one request, and you asked for 6. How many would you like?", /^refuse/],
    ["How much would you like refunded? I can refund up to €60 on this booking.", /^ask_/],
    [
      "Fine, I've dropped that request and your record is unchanged. What else can I do?",
      /^acknowledge_abort$/,
    ],
  ])("%s", (reply, label) => expect(labelReply(reply).activity).toMatch(label));
});
