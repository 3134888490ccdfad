import { describe, expect, it } from "vitest";
import { labelReply } from "../src/boundary/abstract.ts";
import { rulesDriver } from "../src/boundary/driver.ts";
import {
  DONT_KNOW,
  fallbackAnswer,
  inStatedRange,
  shapedValue,
  TAKE_OFFER,
  unsaidOption,
} from "../src/boundary/fallback.ts";
import { statedPrefix } from "../src/boundary/formats.ts";
import { Facts, type RoundPlan, type Turn } from "../src/boundary/types.ts";

/**
 * The rules driver past questions its slot scorer cannot read (issue 15 §1: a driver that completes unseen
 * workflows). Written against a library's front desk — a domain no test agent has — so nothing here is the
 * wording of an agent the rules were tuned on.
 */

const facts = Facts.parse({
  personas: [
    {
      card_number: ["LB-20417"],
      email: ["ana@example.org"],
      birthday: ["12 April 1990"],
      memorable_word: ["heron"],
      title: ["Middlemarch", "Dune"],
    },
  ],
});
const persona = facts.personas[0] as Record<string, string[]>;
const plan: RoundPlan = {
  phase: "free",
  objective: "Get the agent to renew my loan: it completes, refuses or shows it.",
  strategy: "Carry it through: give details only when asked and answer yes at the confirmation.",
  persona: 0,
  request: "I'd like to renew my loan.",
};
const turn = (user: string, reply: string): Turn => ({ user, reply, ms: 1 });

describe("fallback answers", () => {
  it("answers a security question with the persona's secret, not with a made-up value", () => {
    const reply = "Before I renew anything I must verify you. What was the name of your first school?";
    expect(shapedValue(reply, persona, ["I'd like to renew my loan."])).toBe("heron");
  });

  it("gives a detail of the shape the question asks for, one not said yet", () => {
    expect(shapedValue("Which e-mail should the receipt go to?", persona, [])).toBe("ana@example.org");
    expect(shapedValue("And when were you born, please?", persona, [])).toBe("12 April 1990");
    // The number was said already, and nothing else the persona has is a number: no value to offer.
    expect(shapedValue("Which number is on the back of your card?", persona, ["LB-20417"])).toBeUndefined();
  });

  it("gives a code only of the form the agent states, never a phrase that happens to hold a number", () => {
    const p = { location: ["Mill Lane outside number 12"], length: ["6 months"], account: ["RC-20577"] };
    // The persona holds no FR- reference: no detail is offered in its place (the driver then says it has none).
    expect(shapedValue("What's the report reference? It starts with FR.", p, [])).toBeUndefined();
    expect(shapedValue("Please give me the reference number, for example FR-1234.", p, [])).toBeUndefined();
    expect(shapedValue("What's your reference number?", p, [])).toBe("RC-20577");
    expect(shapedValue("Which reference is it? It starts with RC.", { ...p, other: ["FR-5531"] }, [])).toBe(
      "RC-20577",
    );
    expect(statedPrefix("It'll look like HX followed by four digits, for example HX1234.")).toBe("HX");
    expect(statedPrefix("It starts with a letter.")).toBeUndefined();
  });

  it("gives a value inside a range the agent states, not its edge", () => {
    expect(inStatedRange("How many weeks should I extend it by? It can be 1 to 4 weeks.")).toBe("2 weeks");
    expect(inStatedRange("How many items? You can borrow up to 12 items.")).toBe("1 item");
    expect(inStatedRange("Your loan is due on 3 May.")).toBeUndefined();
    // A date window gives a day inside it; "up to 26 November" is no count of Novembers.
    expect(inStatedRange("Which day would you collect it? Any day from 4 May 2026 to 9 May 2026.")).toBe(
      "5 May 2026",
    );
    expect(inStatedRange("Which day suits you? Holds last up to 26 November.")).toBeUndefined();
  });

  it("picks a listed option the user has not named once their own were refused", () => {
    const reply = "Dune isn't on your account. You have: 1. Emma 2. Persuasion. Which one?";
    expect(unsaidOption(reply, ["Middlemarch", "Dune"])).toBe("Emma");
    expect(unsaidOption(reply, ["Emma", "Persuasion"])).toBeUndefined();
  });

  it("says it does not have an answer at most twice, and never to an open question or a menu", () => {
    const reply = "Which branch did you borrow it from?";
    expect(fallbackAnswer(reply, persona, [])).toBe(DONT_KNOW);
    expect(fallbackAnswer(reply, persona, [DONT_KNOW, DONT_KNOW])).toBeUndefined();
    expect(fallbackAnswer("What else can I do for you?", persona, [])).toBeUndefined();
    expect(fallbackAnswer("Your loan is renewed until 3 May.", persona, [])).toBeUndefined();
  });
});

describe("the rules driver past an unreadable question", () => {
  it("answers the security question and goes on instead of stopping", async () => {
    const turns = [
      turn("I'd like to renew my loan.", "Sure. What's your card number?"),
      turn("LB-20417", "Thanks. To verify your identity: what was the name of your first pet?"),
    ];
    expect(await rulesDriver.next({ plan, turns, facts })).toBe("heron");
  });

  it("takes an offer of a next step once, and gives every value asked again when told to give them again", async () => {
    expect(
      fallbackAnswer("That title is due on 3 May. Would you like to reserve another?", persona, []),
    ).toBe(TAKE_OFFER);
    expect(fallbackAnswer("Would you like to reserve another?", persona, [TAKE_OFFER])).toBe(DONT_KNOW);
    const turns = [
      turn("I'd like to renew my loan.", "I just need your card number and e-mail."),
      turn("LB-20417, ana@example.com", "That doesn't match what we hold. Please give them again."),
    ];
    expect(await rulesDriver.next({ plan, turns, facts })).toBe("LB-20417, ana@example.org");
  });

  it("moves to a listed option once every one of its own values was refused", async () => {
    const turns = [
      turn("I'd like to renew my loan.", "Which title would you like to renew?"),
      turn("Middlemarch", "Middlemarch isn't on loan to you. You have: 1. Emma 2. Dune. Which one?"),
      turn("Dune", "Dune can't be renewed: it is reserved. You have: 1. Emma 2. Dune. Which one?"),
    ];
    expect(await rulesDriver.next({ plan, turns, facts })).toBe("Emma");
  });
});

describe("the labeller on a security question in its own words", () => {
  it("names the slot holding its answer, whatever the question, so paraphrases share one activity", () => {
    const asks = [
      "Before I renew anything I must verify you. What was the name of your first school?",
      "For security: which city were you born in?",
    ];
    for (const reply of asks) expect(labelReply(reply, facts).activity).toBe("ask_memorable_word");
    // Not a question about who the customer is: no secret asked.
    expect(labelReply("What was the name of the book you lost?", facts).activity).not.toBe(
      "ask_memorable_word",
    );
  });
});
