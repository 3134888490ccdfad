import { describe, expect, it } from "vitest";
import { labelReply } from "../src/boundary/abstract.ts";
import {
  answerQuestion,
  asksSomething,
  gateWord,
  numberedOptions,
  offeredCapabilities,
  readQuestion,
  sentences,
} from "../src/boundary/answer.ts";
import { replyValues } from "../src/boundary/grounding.ts";
import { oneOf } from "../src/boundary/persona-values.ts";
import { cueOf, type Facts } from "../src/boundary/types.ts";

/**
 * Gate and option structures beyond "yes/no" (issue 15 §1): a gate that asks for a word, a summary asking "is
 * everything correct?", numbered menus, and the persona's own choice among listed options; refusals labelled by
 * what they are about (§2).
 */

const FACTS: Facts = { personas: [{ mobile_number: ["0612345678"], plan: ["Plus"] }], requests: [] };

describe("reading gates and menus", () => {
  it("answers a gate that asks for a word with that word, and counts it as asking", () => {
    const reply =
      "Plus plan at €20/month from your next bill. Reply CONFIRM to go ahead, or tell me what to change.";
    expect(readQuestion(reply)).toEqual({ kind: "gate", options: [], keyword: "CONFIRM" });
    expect(asksSomething(reply)).toBe(true);
    expect(answerQuestion(reply, {})).toBe("CONFIRM");
    expect(answerQuestion(reply, {}, { decline: true })).toMatch(/^No\b/);
    expect(labelReply(reply).activity).toBe("request_confirmation");
    expect(readQuestion("Type 'agree' to submit the claim.")?.keyword).toBe("agree");
    // The word after the verb, in capitals or quoted; "reply to the email" asks for no word.
    expect(gateWord("To go ahead I need you to reply with the word CONFIRM.")).toBe("CONFIRM");
    expect(gateWord("If that's right, reply CONFIRM; otherwise tell me what to change.")).toBe("CONFIRM");
    expect(gateWord("Once you reply to the email we can continue.")).toBeUndefined();
    // A phrase in quotes, said as written; unquoted, one word only.
    expect(gateWord("Say 'confirm cancel' to cancel order FF-10233 (Thu 12 Mar).")).toBe("confirm cancel");
    expect(gateWord("Say yes please to book it.")).toBeUndefined();
    // Words in capitals, after the verb or after "to go ahead … type".
    expect(gateWord('Type END MY TENANCY to confirm, or "stop".')).toBe("END MY TENANCY");
    expect(gateWord("To go ahead I need you to type END MY TENANCY exactly.")).toBe("END MY TENANCY");
    // Not a gate: an instruction that confirms nothing.
    expect(readQuestion("Reply STOP to unsubscribe from texts.")).toBeUndefined();
  });

  it("answers a gate that asks to type back a figure with that figure, and a menu number is no such gate", () => {
    for (const [reply, figure] of [
      ["The amount due is £70.00. If you'd like to pay now, type the amount (70.00) to confirm.", "70.00"],
      ["It stands at £105.00. Please confirm by typing the amount, 105.00, or say cancel to stop.", "105.00"],
      ["To confirm the payment, please type the amount exactly: 35.00.", "35.00"],
      ["The total is 1,250.50. Please type 1,250.50 to confirm, or cancel.", "1,250.50"],
    ] as const) {
      expect(readQuestion(reply)).toEqual({ kind: "gate", options: [], keyword: figure });
      expect(answerQuestion(reply, {})).toBe(figure);
      expect(labelReply(reply).activity).toBe("request_confirmation");
    }
    // A figure refused, then asked for again, is a refusal; a menu or a code to type is no figure to echo.
    expect(
      cueOf(
        labelReply("That amount doesn't match. The payment must be in full; please type 35.00.").activity,
      ),
    ).toBe("refuse");
    expect(gateWord("Type 1 for billing or 2 for sales.")).toBeUndefined();
    expect(gateWord("Please type the 6-digit code we sent you.")).toBeUndefined();
    expect(gateWord("Please enter 4 digits of your card.")).toBeUndefined();
  });

  it("reads a summary asking whether everything is correct as a gate", () => {
    const reply = "Claim: water damage on 2024-03-02 in the kitchen. Is everything correct?";
    expect(readQuestion(reply)?.kind).toBe("gate");
    expect(labelReply(reply).activity).toBe("request_confirmation");
  });

  it("reads numbered options inline and one per line, and picks the persona's own", () => {
    const inline =
      "We have three plans: 1) Basic – €10/month, 2) Plus – €20/month, 3) Unlimited – €35/month. Which one would you like?";
    expect(numberedOptions(inline)).toEqual(["Basic", "Plus", "Unlimited"]);
    expect(answerQuestion(inline, FACTS.personas[0] ?? {})).toBe("Plus");
    expect(answerQuestion(inline, {})).toBe("Basic");
    const lines = "Which time suits you?\n1. Monday 9:00\n2. Monday 14:30\n3. Tuesday 10:15";
    expect(numberedOptions(lines)).toEqual(["Monday 9:00", "Monday 14:30", "Tuesday 10:15"]);
    expect(numberedOptions("Step 2. Then we check 3 items.")).toEqual([]);
    expect(labelReply(inline, FACTS).activity).toBe("ask_plan");
    expect(labelReply(lines, FACTS).activity).toBe("ask_choice");
  });
  it("reads the two sides of an alternative question as options, and 'or not', a yes or a no as none", () => {
    const refund =
      "That's £11.50. Would you like the refund back to your Visa ending 4821 (3–5 working days) or as app credit (instant)?";
    expect(readQuestion(refund)?.options).toEqual(["to your Visa ending 4821", "as app credit"]);
    expect(readQuestion("Would you like a window seat or an aisle seat?")?.options).toEqual([
      "a window seat",
      "an aisle seat",
    ]);
    expect(readQuestion("Do you want it delivered or collected?")?.options).toEqual([
      "delivered",
      "collected",
    ]);
    expect(answerQuestion("Do you want it delivered or collected?", {})).toBe("delivered");
    expect(readQuestion("Would you like to go ahead or cancel?")?.kind).toBe("gate");
    expect(
      readQuestion("Is there anything else, or would you like to speak to someone?")?.options ?? [],
    ).toEqual([]);
    // Two questions after a colon are values asked together, not options.
    const both = "Got it. And to confirm it's you: what's your surname, and your date of birth?";
    expect(readQuestion(both, ["surname", "date_of_birth"])).toMatchObject({
      slot: "surname",
      also: ["date_of_birth"],
      options: [],
    });
    // "Reply with the number or the name" asks for an option, not the customer's name.
    const items =
      "Here's your order:\n1. 2× Margherita pizza\n2. 1× Garlic bread\nWhich item was missing? Reply with the number or the name.";
    expect(readQuestion(items, ["name"])?.slot).toBeUndefined();
    expect(answerQuestion(items, { name: "Priya Shah" })).toBe("1");
  });
});

describe("refusals labelled by what they are about", () => {
  it("keeps guards on one request apart and the same across paraphrases", () => {
    const label = (t: string) => labelReply(t, FACTS).activity;
    expect(label("Sorry, you can't change your plan during the 12-month minimum term.")).toBe(
      "refuse_timing",
    );
    expect(label("I'm afraid a plan change isn't possible while the account has an unpaid balance.")).toBe(
      "refuse_balance",
    );
    expect(label("Unfortunately credits above €50 can't be granted in chat.")).toBe("refuse_limit");
    expect(label("I can't do that: credits over €50 need a supervisor.")).toBe("refuse_limit");
    expect(label("That code doesn't match. Please try again.")).toBe("refuse_identity");
    expect(label("Sorry, I can't help with that.")).toBe("refuse");
    expect(cueOf("refuse_limit")).toBe("refuse");
    expect(cueOf("report_error_balance")).toBe("report_error");
    expect(cueOf("report_not_found")).toBe("report_not_found");
    expect(cueOf("refused_x")).toBe("refused_x");
  });
});

describe("unseen workflows: yes/no questions, menus one per line, imperative asks (issue 15 §1, §2)", () => {
  it("reads a yes/no question before acting as a gate, in the labeller and the driver alike", () => {
    for (const reply of [
      "Just so you know, cancelling now comes with a fee of €180.00. Are you OK with that?",
      "Good to know: there's no early-termination fee. Shall we continue?",
      "The new dates cost €40 more. Do you accept the difference?",
    ]) {
      expect(readQuestion(reply)?.kind).toBe("gate");
      expect(labelReply(reply, FACTS).activity).toBe("request_confirmation");
      expect(answerQuestion(reply, FACTS.personas[0] ?? {}, { decline: true })).toMatch(/^No/);
    }
    // A closing offer or an informational question is not a gate.
    expect(readQuestion("Your usage is 1.2 GB of 5 GB. Can I help with anything else?")?.kind).not.toBe(
      "gate",
    );
  });

  it("splits a menu written one option per line, and answers 'just tell me the one you want' from it", () => {
    const reply =
      "Great, you're verified. These are our plans:\n1. Basic: 5 GB, €12.00 a month\n2. Plus: 20 GB, €20.00 a month\n3. Max: 50 GB\nJust tell me the name or the number of the one you want.";
    const q = readQuestion(reply, ["mobile_number", "plan"]);
    expect(q).toEqual({ kind: "value", options: ["Basic", "Plus", "Max"] });
    expect(labelReply(reply, FACTS).activity).toBe("ask_plan");
    expect(answerQuestion(reply, { mobile_number: "0612345678", plan: "Max" })).toBe("Max");
  });

  it("takes a refusal's topic from the refusing sentence, not a greeting before it", () => {
    const a = labelReply(
      "Thanks, that's you verified. I'm sorry, I can't change your plan: the balance is overdue.",
      FACTS,
    );
    expect(a.activity).toBe("refuse_balance");
    const b = labelReply(
      "Great, you're verified. I'm afraid I can't add a roaming pass to a prepaid line.",
      FACTS,
    );
    expect(b.activity).not.toBe("refuse_identity");
    // Still about identity when the refusal itself is.
    expect(labelReply("I'm sorry, I can't verify your identity with that code.", FACTS).activity).toBe(
      "refuse_identity",
    );
  });
});

describe("first requests worded by the facts", () => {
  it("keeps a request already in the customer's words", async () => {
    const { requestMessage } = await import("../src/boundary/requests.ts");
    expect(requestMessage("I want to cancel my line", {}, [], [])).toBe("Hi, I want to cancel my line.");
    expect(requestMessage("change a reservation", {}, [], [])).toBe("Hi, I'd like to change my reservation.");
  });
});

describe("questions naming several slots, a kind of slot, or a slot by its qualifier (issue 15 §1)", () => {
  const slots = [
    "account_number",
    "postcode",
    "address_line1",
    "water_reading",
    "heating_reading",
    "visit_date",
    "payment_day",
    "sms_code",
    "phone_number",
    "sort_code",
    "bank_account_number",
    "new_address_line1",
    "new_postcode",
  ];
  it("answers both parts of a new address asked in one sentence, as new values", () => {
    expect(
      readQuestion("Where should the letters go now — forwarding address, first line plus postcode?", slots),
    ).toEqual({
      kind: "value",
      slot: "new_address_line1",
      options: [],
      also: ["new_postcode"],
    });
  });
  it("reads a choice between two slots of one head as options, and a slot by its only qualifier", () => {
    expect(readQuestion("Is that for the heating meter or the water one?", slots)).toEqual({
      kind: "value",
      options: ["heating", "water"],
    });
    expect(readQuestion("What does the water meter show?", slots)?.slot).toBe("water_reading");
    expect(readQuestion("What do the water and heating meters show?", slots)).toMatchObject({
      slot: "water_reading",
      also: ["heating_reading"],
    });
  });
  it("tells apart an account number from a bank account's, and a texted code from the phone it went to", () => {
    expect(readQuestion("What's your account number?", slots)?.slot).toBe("account_number");
    expect(
      readQuestion("Which bank account shall we use? Send the sort code and the account number.", slots),
    ).toMatchObject({ slot: "sort_code", also: ["bank_account_number"] });
    expect(readQuestion("We've texted a code to the mobile ending 4410. What is it?", slots)?.slot).toBe(
      "sms_code",
    );
  });
  it("takes 'day' for a date slot when the reply says what the date is for", () => {
    expect(
      readQuestion("Which day suits you? An engineer visit date can be booked up to 30 days ahead.", slots)
        ?.slot,
    ).toBe("visit_date");
  });
  it("reads 'go ahead with the …' as asking, and 'what else can I do for you?' as a closing offer", () => {
    expect(readQuestion("Go ahead with the water reading. The last one was 1402.", slots)?.slot).toBe(
      "water_reading",
    );
    expect(asksSomething("That's booked for 3 June. What else can I do for you?")).toBe(false);
  });
});

describe("forms asked in one sentence, bare keyword gates, retries by attempts left (issue 15 §1)", () => {
  const slots = [
    "full_name",
    "date_of_birth",
    "companion_name",
    "companion_date_of_birth",
    "companion_stay_nights",
  ];
  it("carries a qualifier to the parts after it, not to one that says 'your'", () => {
    expect(
      readQuestion("Please give the companion's full name, date of birth and stay nights.", slots),
    ).toMatchObject({ slot: "companion_name", also: ["companion_date_of_birth", "companion_stay_nights"] });
    expect(readQuestion("What's the companion's name and your date of birth?", slots)).toMatchObject({
      slot: "companion_name",
      also: ["date_of_birth"],
    });
    expect(readQuestion("We need their full name and stay nights for the companion.", slots)?.kind).toBe(
      "value",
    );
  });
  it("says a bare count with the unit its slot is named by", () => {
    expect(
      answerQuestion("Please give the companion's full name and stay nights.", {
        companion_name: "Ada Byron",
        companion_stay_nights: "3",
      }),
    ).toBe("Ada Byron, 3 nights");
  });
  it("reads a capitalised word asked as a question as a gate word, not a credential asked 'to confirm'", () => {
    expect(readQuestion("Your refund is £40 (Sat 3 May). OK to refund?")?.keyword).toBeUndefined();
    expect(readQuestion("Your refund is £40 (Sat 3 May). YES to confirm?")).toEqual({
      kind: "gate",
      options: [],
      keyword: "YES",
    });
    expect(readQuestion("Could you give me your PIN to confirm?", ["pin"])?.slot).toBe("pin");
  });
  it("reads 'n attempts left' and 'have another go' as an invitation to try again", () => {
    expect(asksSomething("That code isn't right. You have 1 more attempt before payments are blocked.")).toBe(
      true,
    );
    expect(asksSomething("That doesn't match. Have another go; 2 tries remaining.")).toBe(true);
    expect(asksSomething("Your payment of £20 is set up. Thanks!")).toBe(false);
  });
});

describe("a confirmation offered as a numbered menu (issue 15 §1)", () => {
  it("is a gate: yes is the option that goes ahead, no the one that cancels, and the labeller agrees", () => {
    const reply =
      "Summary: window seat 14A on the 09:10 to Leeds, £4.50. 1) Confirm 2) Change something 3) Cancel";
    expect(readQuestion(reply)).toMatchObject({ kind: "gate", keyword: "Confirm", no: "Cancel" });
    expect(answerQuestion(reply, {})).toBe("Confirm");
    expect(answerQuestion(reply, {}, { decline: true })).toBe("Cancel");
    expect(labelReply(reply, FACTS).activity).toBe("request_confirmation");
    // A menu of values is no gate.
    expect(readQuestion("Which seat? 1. 14A window 2. 14B aisle")?.kind).toBe("value");
  });
});

describe("a pet's name, a phrase to say at a gate, attempts left (issue 15 §1)", () => {
  it("reads 'what is it called' as asking a name, a quoted phrase as the gate's word, a menu gate as asking", () => {
    expect(readQuestion("Next, what's your horse called?", ["owner_phone", "horse_name"])?.slot).toBe(
      "horse_name",
    );
    expect(
      readQuestion('A £10 fee applies. To go ahead, please say "yes, I accept the fee". Otherwise say no.'),
    ).toMatchObject({ kind: "gate", keyword: "yes, I accept the fee" });
    expect(
      asksSomething("Lesson on Fri 3 May at 10:00, £30.00. 1) Confirm  2) Change something  3) Cancel"),
    ).toBe(true);
    expect(asksSomething("No horse by that name on this account. You have 2 more attempt(s).")).toBe(true);
  });
});

describe("a slot named only by its qualifier comes after one named in full (issue 15 §1)", () => {
  it("answers the account number, not the collection date, when the request's noun opens the reply", () => {
    const slots = ["account_number", "collection_date", "date_of_birth"];
    const reply =
      "To arrange a garden collection I first need to confirm who you are. What's your account number?";
    expect(readQuestion(reply, slots)?.slot).toBe("account_number");
    expect(
      labelReply(reply, { personas: [{ account_number: ["A1"], collection_date: ["2 May"] }], requests: [] })
        .activity,
    ).toBe("ask_account_number");
    // Alone, the qualifier still names its slot.
    expect(readQuestion("When should the collection be?", slots)?.slot).toBe("collection_date");
  });
});

describe("which-questions, a count in brackets, menus of services (issue 15 §1)", () => {
  const slots = ["ticket_number", "item", "issue", "quantity"];
  const values = { item: ["headphones"], issue: ["broken", "missing"], quantity: ["2"] };
  it("asks the slot a which-question names before the choice after it, and the count in brackets as well", () => {
    expect(readQuestion("Which item on the ticket was broken or missing?", slots, values)?.slot).toBe("item");
    expect(readQuestion("Which returned ticket is it about?", slots)?.slot).toBe("ticket_number");
    expect(readQuestion("Tell me the product to add (and how many).", slots, values)).toMatchObject({
      slot: "item",
      also: ["quantity"],
    });
  });
  it("reads the services of a menu: numbered, bulleted, or listed after 'Here's what I can do:'", () => {
    expect(
      offeredCapabilities(
        "Here's what I can do: track a parcel, change a delivery day, or put you through to a person.",
      ),
    ).toEqual(["track a parcel", "change a delivery day", "put you through to a person"]);
    expect(offeredCapabilities("I can help with:\n• track a parcel\n• report a lost parcel")).toEqual([
      "track a parcel",
      "report a lost parcel",
    ]);
    expect(
      offeredCapabilities("Options: 1 - Book a lesson; 2 - Lesson prices. Answer with a number."),
    ).toEqual(["book a lesson", "ask about lesson prices"]);
  });
  it("reads what customers can also do in a later sentence, what to ask about, and items joined by a slash", () => {
    const caps = offeredCapabilities(
      "Ask me about delivery areas or slot times. Signed-in customers can also check orders, report missing/damaged items, cancel, update their address or join/leave the pass.",
    );
    expect(caps).toEqual([
      "ask about delivery areas",
      "ask about slot times",
      "check orders",
      "report missing items",
      "report damaged items",
      "update their address",
      "join the pass",
      "leave the pass",
    ]);
    // (An open question naming no slot asks for the object of the request's verb.)
    const slots = ["order_number", "item", "voucher_code"];
    const values = { order_number: ["FF-10233"], item: ["strawberries"], voucher_code: ["FRESH10"] };
    const open = "What would you like to add to FF-10233, and how many?";
    expect(readQuestion(open, slots, values, "add an item to my order")?.slot).toBe("item");
    expect(readQuestion(open, slots, values, "add strawberries to my order")?.slot).toBe("item");
    expect(readQuestion(open, slots, values, "cancel my order")).toBeUndefined();
    // A later sentence without "also" is no offer list; "you can reply yes or no" offers nothing.
    expect(offeredCapabilities("You can reply yes or no.")).toEqual([]);
  });
});

describe("questions of a library and a grocery desk (issue 15 §1, read after heldout10/11's blind runs)", () => {
  const maya = {
    card_number: "21234500012345",
    title: "The Hobbit",
    date: "2025-03-12",
    time: "10 am",
    hours: "2",
    people: "4",
    postcode: "BS7 8EE",
    order_number: "BK-39960",
    card_last4: "4821",
    points: "500",
  };
  it("answers every part of a question that asks a count among other values, each count with its unit", () => {
    const reply = "Sure. Could you tell me the date, the start time, how many hours and how many people?";
    expect(answerQuestion(reply, maya)).toBe("2025-03-12, 10 am, 2 hours, 4 people");
    expect(answerQuestion("How many people will be using the room?", maya)).toBe("4 people");
  });
  it("reads the question's own slot before an alternative in brackets, and a book as its title", () => {
    const postcode =
      "To confirm it's you, what's the postcode of your delivery address? (Your order number works too.)";
    expect(readQuestion(postcode, Object.keys(maya))?.slot).toBe("postcode");
    expect(readQuestion("Which book should I put a hold on for you?", Object.keys(maya))?.slot).toBe("title");
  });
  it("asks for the card's last four digits (no figure to type back), again after 'try another', and a bare count", () => {
    const card =
      "That's a refund of 2.90 GBP. Please confirm by entering the last 4 digits of your payment card.";
    expect(readQuestion(card, Object.keys(maya))).toMatchObject({ kind: "value", slot: "card_last4" });
    const again = "No account matches tom@example.con. Please try another e-mail address.";
    expect(readQuestion(again, ["email"])).toMatchObject({ kind: "value", slot: "email" });
    const count = "You have 1,250 loyalty points. How many would you like to redeem?";
    expect(answerQuestion(count, maya)).toBe("500 points");
    // A customer the facts give no points: another customer's count, not "1 point"; "how many" alone names no slot.
    const values = { points: ["1000", "1500"], quantity: ["1", "3"] };
    expect(answerQuestion(count, { email: "grace@example.com" }, { values, defaultCount: 1 })).toBe(
      "1000 points",
    );
  });
  it("labels a terse refusal as a refusal and a terse decline as an abort", () => {
    expect(labelReply("red wine requires the customer to be aged 18+. Not added.").activity).toMatch(
      /^refuse/,
    );
    expect(
      labelReply("Sorry, children's cards can't place holds on 18+ items like American Psycho.").activity,
    ).toMatch(/^refuse/);
    expect(labelReply("That isn't in our range.").activity).toMatch(/^refuse/);
    expect(labelReply("OK, not cancelled.").activity).toBe("acknowledge_abort");
  });
  it("labels a limit reached, a renewal blocked and a step sent to the desk as refusals", () => {
    for (const reply of [
      "Sorry, you're at the hold limit: 3 holds per member, and you have 3.",
      "You already have 3 holds, and 3 is the most one card can have.",
      "Your Flex plan allows 2 upcoming bookings at a time and you already have 2 (SP14, YO22).",
      "You've reached the 2-booking limit of the Flex plan.",
      "The Wild Robot has 1 hold from other members, which blocks renewals.",
      "Past 14 days overdue, renewals have to be done at a desk.",
    ])
      expect(labelReply(reply).activity, reply).toMatch(/^refuse/);
  });
  it("keeps a count out of a total as a value the reply states", () => {
    expect(replyValues("Good news — Circe has 1 of 3 copies available to borrow today.")).toContain("1 of 3");
    expect(replyValues("Your slot is 10:00 of 12 June.")).not.toContain("0 of 12");
  });
});

describe("questions, gates and refusals worded as a student-services desk and a vet's words them", () => {
  const slots = ["student_number", "date_of_birth", "course_code"];
  it("reads 'Now your date of birth, please' as the question, and an example's forms as no options", () => {
    const q = readQuestion(
      "Thanks. Now your date of birth, please (for example 2004-03-09 or 9 March 2004).",
      slots,
    );
    expect(q).toEqual({ kind: "value", slot: "date_of_birth", options: [] });
  });

  it("reads a word gate with an alternative in brackets, a '1 - Confirm; 2 - …' menu and a trailing '(yes/no)'", () => {
    expect(
      readQuestion(
        "Please check: enrol in ART120, section A. Reply CONFIRM (or type ART120) to enrol, or CANCEL.",
        slots,
      ),
    ).toMatchObject({ kind: "gate", keyword: "CONFIRM" });
    const menu =
      "I'll register Bramble, a cat born on 2 December 2024. 1 - Confirm; 2 - Change something; 3 - Cancel";
    expect(numberedOptions(menu)).toEqual(["Confirm", "Change something", "Cancel"]);
    expect(readQuestion(menu, slots)).toMatchObject({ kind: "gate", keyword: "Confirm", no: "Cancel" });
    expect(
      readQuestion(
        "Pay £250.00 now with the card on file? Your balance would then be £1,000.00. (yes/no)",
        slots,
      ),
    ).toMatchObject({ kind: "gate" });
    // A code to type back: "To confirm, please type the course code MATH250", "Type MATH250 exactly to drop it".
    expect(readQuestion("To confirm, please type the course code MATH250.", slots)).toMatchObject({
      kind: "gate",
      keyword: "MATH250",
    });
    expect(gateWord("That doesn't match. Type MATH250 exactly to drop it, or CANCEL to keep it.")).toBe(
      "MATH250",
    );
    // Not a yes/no answer's form: a question for a value stays one.
    expect(readQuestion("Which course would you like to add? (CS201 or CS305)", slots)?.kind).toBe("value");
  });

  it("labels 'Refunded GBP 2.90 (…)', 'Refund approved — …' and 'MATH250 has been dropped' completions", () => {
    for (const done of [
      "Refunded GBP 2.90 (free-range eggs). Allow a few working days.",
      "Refund approved — 2.90 GBP is on its way back to your card for 1 free-range eggs.",
      "ART120 has been dropped from your Spring 2026 timetable. You now have 0 credits that term.",
    ])
      expect(labelReply(done).activity).toBe("confirm_completion");
  });

  it("labels 'isn't a valid …' a refusal and 'There's nothing called …' not found", () => {
    expect(
      cueOf(
        labelReply("That isn't a valid student number — it should be 8 digits. Please try again.").activity,
      ),
    ).toBe("refuse");
    expect(
      labelReply("There's nothing called “the usual one” in this year's catalogue, sorry.").activity,
    ).toBe("report_not_found");
  });
});

describe("a count of one said as one (persona-values.ts oneOf)", () => {
  it("says '1 official copy', '1 person', '1 night', and keeps 'glass' whole", () => {
    expect(["official copies", "people", "nights", "children", "glass"].map(oneOf)).toEqual([
      "official copy",
      "person",
      "night",
      "child",
      "glass",
    ]);
    expect(answerQuestion("How many official copies would you like? (1 to 5)", { copies: ["1"] })).toBe(
      "1 official copy",
    );
  });
});

describe("menus answered by key, imperatives after a dash, examples in brackets (answer.ts, menus.ts)", () => {
  const p = { order_number: ["FF-10262"], postcode: ["FH3 1EF"], card_last_four: ["4417"] };
  it("answers a lettered menu with its letter, a keyed one with its key, a keyed yes/no as a gate", () => {
    const slots =
      "Slots for FF-10233:\nA) Tue 10 Mar 08:00–09:00\nB) Tue 10 Mar 20:00–21:00\n— reply with the letter.";
    expect(readQuestion(slots, Object.keys(p))).toMatchObject({ labels: ["A", "B"] });
    expect(answerQuestion(slots, p)).toBe("A");
    const refund = "That comes to £3.00. Reply 1 for your card ending 4417, or 2 for account credit.";
    expect(asksSomething(refund)).toBe(true);
    expect(answerQuestion(refund, p)).toBe("1");
    expect(readQuestion("Reply 1 to confirm, or 2 to cancel.")).toMatchObject({
      kind: "gate",
      keyword: "1",
      no: "2",
    });
  });
  it("answers 'Reply with the number.' with the number of the persona's option, else the value", () => {
    const which =
      "Which order do you mean? 1. FF-10251 — Tue 10 Mar 2. FF-10262 — Fri 13 Mar Reply with the number.";
    expect(answerQuestion(which, p)).toBe("2");
    expect(answerQuestion(which.replace("Reply with the number.", ""), p)).toBe("FF-10262");
    expect(
      answerQuestion(which.replace("Reply with the number.", "Tell me the number of the one to cancel."), p),
    ).toBe("2");
    // "the number of copies" asks for a count, not an option's number.
    expect(answerQuestion("Reply with the number of copies you need.", { copies: ["2"] })).toBe("2 copies");
  });
  it("reads '— tell me the order number' as a question and keeps 'e.g. FH2.' inside its sentence", () => {
    const tell =
      "Thanks Tom, that's you verified. Let's put it right — tell me the order number and the postcode.";
    expect(answerQuestion(tell, p)).toBe("FF-10262, FH3 1EF");
    expect(answerQuestion("Which postcode should I check? (The first half is enough, e.g. FH2.)", p)).toBe(
      "FH3 1EF",
    );
  });
  it("does not take 'delivered to' for a record's status", () => {
    expect(
      replyValues("Done — order RX-48377 will now be delivered to 9 Boar Lane, Leeds LS1 4DY."),
    ).not.toContain("delivered");
    expect(replyValues("Order RX-48377 was delivered on 3 May.")).toContain("delivered");
    expect(replyValues("Order RX-48377 has been delivered.")).toContain("delivered");
  });
});

describe("questions of an employee service desk (issue 15 §1, read after heldout15's blind run)", () => {
  const priya = {
    verification_code: ["592046"],
    new_sort_code: ["40-47-12"],
    new_account_number: ["63018842"],
    description: ["Lunch with supplier"],
    delivery: ["office"],
    home_postcode: ["LS6 2QT"],
  };
  it("reads a keyed menu opening its sentence, options with commas inside", () => {
    const where =
      "Where would you like it delivered? 1 for your desk at Leeds, Wellington Place, 2 for home (LS6 2QT).";
    expect(readQuestion(where, Object.keys(priya))).toMatchObject({
      options: ["your desk at Leeds, Wellington Place", "home (LS6 2QT)"],
      labels: ["1", "2"],
    });
    expect(answerQuestion(where, priya)).toBe("2");
    expect(readQuestion("I need 1 for each person.", Object.keys(priya))).toBeUndefined();
  });
  it("takes 'or anything else to cancel' for no closing offer, the code written as digits alone for 'a 6-digit code'", () => {
    expect(asksSomething("Type CHANGE to go ahead, or anything else to cancel.")).toBe(true);
    expect(asksSomething("Your claim is in. Anything else?")).toBe(false);
    expect(
      answerQuestion("I've just texted a 6-digit code to your work mobile ending 71. What is it?", priya),
    ).toBe("592046");
    expect(answerQuestion("Thanks. In a few words, what was it for?", priya)).toBe("Lunch with supplier");
    // Two values asked as "things I need" or "…, please" with digits in the slot's words, an example after.
    const who = { date_of_birth: ["14/02/1990"], payroll_last_4: ["8231"] };
    expect(
      answerQuestion(
        "Next I need two things: your date of birth, and the last 4 digits of your payroll number (e.g. 31/01/1990 1234).",
        who,
      ),
    ).toBe("14/02/1990, 8231");
    expect(
      answerQuestion(
        "Now your date of birth and the last 4 digits of your payroll number, please (for example: 31/01/1990 and 1234).",
        who,
      ),
    ).toBe("14/02/1990, 8231");
  });
  it("reads a bulleted list of services with no menu intro, not a bulleted list of records", () => {
    expect(
      offeredCapabilities(
        "Tenants who sign in can:\n- report a repair\n- check or cancel a repair appointment\n- ask permission (pet, lodger)\n- make a complaint\nWhat can I do for you?",
      ),
    ).toEqual([
      "report a repair",
      "check a repair appointment",
      "cancel a repair appointment",
      "ask permission for pet",
      "ask permission for lodger",
      "make a complaint",
    ]);
    expect(
      offeredCapabilities("Your entries:\n- Mon 24 Feb Rent £112.40\n- Tue 25 Feb Direct Debit"),
    ).toEqual([]);
    // Two heads of one modifier are two services; an aside that is no list of kinds is dropped.
    expect(offeredCapabilities("You can:\n- rent balance & statement\n- make a payment")).toEqual([
      "rent balance",
      "rent statement",
      "make a payment",
    ]);
    expect(offeredCapabilities("You can:\n- report a repair (24/7)\n- pay rent (card only)")).toEqual([
      "report a repair",
      "pay rent",
    ]);
  });
  it("reads a menu keyed in square brackets and a bare 'Correct?' as a gate", () => {
    expect(
      readQuestion("What would you like to update? [1] mobile number  [2] email address  [3] both"),
    ).toMatchObject({
      options: ["mobile number", "email address", "both"],
    });
    expect(
      readQuestion("I've got:\n- Mobile: 07700 900456\nCorrect? Yes, or tell me what's wrong.")?.kind,
    ).toBe("gate");
  });
  it("asks the slot whose values a sentence offers, not another slot it names", () => {
    const tenant = { room: ["kitchen", "bathroom"], problem: ["the tap is leaking"] };
    expect(
      readQuestion(
        "Where in your home is the problem — kitchen, bathroom, bedroom, or outside?",
        Object.keys(tenant),
        tenant,
      )?.slot,
    ).toBe("room");
  });
  it("reads what the agent will handle once signed in", () => {
    expect(
      offeredCapabilities("Ask me about desk hours, or sign in and I'll handle leave and password resets."),
    ).toEqual(["ask about desk hours", "ask about leave", "ask about password resets"]);
    // Answering general questions is no service; signing in "for things like leave" offers leave; a condition
    // between the items is none.
    expect(
      offeredCapabilities(
        "I can answer general questions straight away, or sign you in for things like leave, expenses and equipment.",
      ),
    ).toEqual(["ask about leave", "ask about expenses", "ask about equipment"]);
    expect(
      offeredCapabilities(
        "I can help with desk hours and the expenses policy, and, once you're signed in, leave and passwords.",
      ),
    ).toEqual([
      "ask about desk hours",
      "ask about expenses policy",
      "ask about leave",
      "ask about passwords",
    ]);
  });
});

describe("safety checks, headline questions and Markdown menus (issue 15 §1, read after heldout16)", () => {
  it("answers a yes/no safety check no (pick 0) or yes (pick 1), labels it ask_safety, not a gate", () => {
    const check =
      "Before I book anything — is water pouring through a ceiling, getting near electrics, or impossible to stop? Yes or no?";
    expect(readQuestion(check)?.kind).toBe("screen");
    expect(answerQuestion(check, {})).toMatch(/^No\b/);
    expect(answerQuestion(check, {}, { pick: 1 })).toMatch(/^Yes\b/);
    expect(labelReply(check).activity).toBe("ask_safety");
    expect(readQuestion("Is anyone hurt?")?.kind).toBe("screen");
    // Leave to act is a gate, whatever it is about.
    expect(readQuestion("Shall I book an emergency visit? (yes/no)")?.kind).toBe("gate");
    expect(readQuestion("Would you like me to log it as urgent?")?.kind).toBe("gate");
  });
  it("takes a short question the next sentence answers with advice for no question", () => {
    const done =
      "I've logged emergency job EJ-7101 and an operative will attend within 4 hours. Smell gas? Leave and call 0800 111 999.";
    expect(asksSomething(done)).toBe(false);
    expect(labelReply(done).activity).toBe("confirm_completion");
    expect(asksSomething("Booked. Need anything? Tell me your postcode.")).toBe(true);
  });
  it("reads a lettered menu in Markdown, and no count slot from the day of a date", () => {
    const visits =
      'Available visits:\n- **A** Tue 18 Mar, 8am–12pm\n- **B** Thu 20 Mar, 8am–12pm\nReply with the letter, or say "other times".';
    const values = { weekly_instalment: ["15", "20"], room: ["bathroom"] };
    expect(readQuestion(visits, Object.keys(values), values)).toEqual({
      kind: "value",
      options: ["Tue 18 Mar, 8am–12pm", "Thu 20 Mar, 8am–12pm"],
      labels: ["A", "B"],
    });
    expect(numberedOptions("Pick one:\n**1.** Email\n**2.** Post")).toEqual(["Email", "Post"]);
  });
  it("picks the listed record sharing most of the persona's words, not one every option holds", () => {
    const booked =
      "Here's what's booked:\n1. Thu 13 Mar, 9am–12pm — annual boiler service (job RJ-50211) at Flat 3, 21 Linnet Court\n2. Tue 18 Mar, 12pm–4pm — bathroom extractor fan not working (job RJ-50274) at Flat 3, 21 Linnet Court\nTell me the number of the one to cancel.";
    const tenant = (appointment: string) => ({
      address: ["Flat 3, 21 Linnet Court"],
      appointment: [appointment],
    });
    expect(answerQuestion(booked, tenant("extractor fan visit on 18 March"))).toBe("2");
    expect(answerQuestion(booked, tenant("boiler service on 13 March"))).toBe("1");
  });
  it("answers a where-question with no date slot, and reads 'Full forwarding address with postcode, please.'", () => {
    const tenant = { move_in_date: ["01/04/2025"], forwarding_address: ["22 Wren Road, Bath BA2 3PL"] };
    expect(
      answerQuestion(
        "Okay, Monday 14 April 2025. Where should we send post after you move out? Full forwarding address with postcode, please.",
        tenant,
      ),
    ).toBe("22 Wren Road, Bath BA2 3PL");
    expect(asksSomething("Yes please.")).toBe(false);
  });
  it("reads 'Please start again with your tenancy reference.' as asking for it again", () => {
    const tenant = { tenancy_reference: ["KVH-204817"], date_of_birth: ["14/06/1988"] };
    expect(
      answerQuestion(
        "I couldn't verify you with those details. Please start again with your tenancy reference.",
        tenant,
      ),
    ).toBe("KVH-204817");
  });
  it("reads 'To agree, type I AGREE.' as a gate and 'Describe the alteration …' as a question", () => {
    expect(gateWord("Missing payments may lead to legal action. To agree, type I AGREE.")).toBe("I AGREE");
    expect(gateWord("To confirm, type I agree with it.")).toBeUndefined();
    const tenant = { alteration: ["paint the bedroom"] };
    expect(
      answerQuestion('Describe the alteration you\'d like to make — e.g. "put up a shed".', tenant),
    ).toBe("paint the bedroom");
  });
});

describe("a chatty streaming-support bot (issue 15 §1, read after heldout18's blind run)", () => {
  const viewer = {
    verification_code: ["482913"],
    card_last_four: ["4242"],
    plan: ["Premium", "Basic"],
    device_name: ["Hallway Chromecast"],
  };
  const slots = Object.keys(viewer);
  it("keeps 'ending 42.' inside its sentence and reads the code the next sentence asks for", () => {
    const sent =
      "Great, I've sent a one-time code to your phone number ending 42. Pop the 6 digits in here when it arrives.";
    expect(readQuestion(sent, slots, viewer)).toMatchObject({ slot: "verification_code" });
    expect(labelReply(sent, { personas: [viewer], requests: [] }).activity).toBe("ask_verification_code");
    // A list number opening its line stays with its item.
    expect(sentences("Pick one:\n1. Basic\n2. Standard. Which one?")).toEqual([
      "Pick one:",
      "1. Basic",
      "2. Standard.",
      "Which one?",
    ]);
    expect(numberedOptions("Choose: 1. Basic 2. Standard 3. Premium. Which one?")).toEqual([
      "Basic",
      "Standard",
      "Premium",
    ]);
  });
  it("reads lines lettered 'A. …', 'Pick the plan you want:' and a tag question as a gate", () => {
    const plans =
      "All set, you're signed in, Dev.\nSure! Right now you have Premium. Pick the plan you want:\nA. Basic: $7.99/month, 1 screen, HD\nB. Standard: $13.99/month, 2 screens, Full HD";
    expect(readQuestion(plans, slots, viewer)).toMatchObject({
      slot: "plan",
      options: ["Basic", "Standard"],
      labels: ["A", "B"],
    });
    expect(labelReply(plans, { personas: [viewer], requests: [] }).activity).toBe("ask_plan");
    expect(readQuestion("Just to check: sign out Hallway Chromecast (Google TV), right?")?.kind).toBe("gate");
    expect(
      labelReply("The PIN for Leo is saved (••26). It applies on every device straight away.").activity,
    ).toBe("confirm_completion");
  });
  it("reads 'so the highest it can go is Older Kids' as a refusal", () => {
    const cap =
      "Leo is a kids profile, so the highest it can go is Older Kids. For Teens content they'd need a regular profile.";
    expect(labelReply(cap, { personas: [viewer], requests: [] }).activity).toMatch(/^refuse/);
  });
  it("reads 'Which profile: Dev, Asha and Guest?' as three options", () => {
    expect(readQuestion("Which profile: Dev, Asha and Guest?")?.options).toEqual(["Dev", "Asha", "Guest"]);
  });
  it("reads services after 'I can sort out …', a gerund alone asked about", () => {
    expect(
      offeredCapabilities(
        "I can sort out plans, billing and refunds, profiles and parental controls, devices, pausing or cancelling, and gift cards.",
      ),
    ).toEqual([
      "ask about plans",
      "ask about billing",
      "get a refund",
      "ask about profiles",
      "ask about parental controls",
      "ask about devices",
      "ask about pausing",
      "ask about cancelling",
      "ask about gift cards",
    ]);
  });
});

describe("a bike-share support bot (issue 15 §1, read after heldout19's blind run)", () => {
  it("reads a code on its way with 'type the 6 digits here' or 'pop it in here' as a question for it", () => {
    const slots = ["phone_number", "one_time_code"];
    for (const reply of [
      "One-time code on its way to the number ending 0456 - type the 6 digits here when it lands.",
      "Sent! Check your texts (number ending 0789) for a one-time code and pop it in here.",
    ])
      expect(readQuestion(reply, slots)?.slot).toBe("one_time_code");
  });
  it("reads 'that's not the … we have' as a refusal and 'No account comes up for …' as not found", () => {
    expect(labelReply("Hmm, that's not the date of birth we have. Have another go.").activity).toMatch(
      /^refuse/,
    );
    expect(labelReply("No account comes up for 07700900124. Could you try the number again?").activity).toBe(
      "report_not_found",
    );
  });
  it("reads long numbered reasons and 'a: …; b: …' options, and no slot the options name", () => {
    const slots = ["ride_id", "fine_number"];
    const grounds =
      "On what grounds? 1) I was parked inside a marked Loop zone; 2) someone else moved the vehicle after my ride; 3) the app wouldn't let me end the ride where I was; 4) something else (a person will read the details). Reply with the number.";
    expect(readQuestion(grounds, slots)).toMatchObject({ kind: "value", labels: ["1", "2", "3", "4"] });
    expect(readQuestion(grounds, slots)?.slot).toBeUndefined();
    const problem =
      "Tell me the problem with SC-4471 - a: brakes; b: flat or damaged tyre; c: battery or won't power on; e: something else.";
    expect(readQuestion(problem, slots)?.options).toEqual([
      "brakes",
      "flat or damaged tyre",
      "battery or won't power on",
    ]);
    // "something else" as an option is no closing offer: the reply asks.
    expect(asksSomething(problem)).toBe(true);
    expect(asksSomething("Is there something else I can help with?")).toBe(false);
  });
  it("reads a slot named by a qualifier after one a later sentence names by its head; gates said short", () => {
    const slots = ["new_card_number", "card_expiry"];
    expect(readQuestion("Perfect. Which card should we use? Send me the new card number.", slots)?.slot).toBe(
      "new_card_number",
    );
    expect(gateWord("Closing is permanent. If you're certain, type CLOSE MY ACCOUNT.")).toBe(
      "CLOSE MY ACCOUNT",
    );
    expect(gateWord("If you're sure, reply YES.")).toBe("YES");
    expect(gateWord("Reply STOP.")).toBeUndefined();
    expect(labelReply("Topped up €100.00. New balance €116.40 (receipt TOP-4827).").activity).toBe(
      "confirm_completion",
    );
    expect(
      labelReply("I'll lock SC-4471 remotely and log 'brakes' for the mechanics. Sound right?").activity,
    ).toBe("request_confirmation");
  });
  it("reads services under labels, a generic head's bracketed list, and an 'I can also' after a first offer", () => {
    expect(
      offeredCapabilities(
        "Here's what I can do. Anyone: prices, parking zones. Signed in: disputing a ride charge, buying or cancelling a pass, closing your account. Or say 'human' for a person.",
      ),
    ).toEqual([
      "ask about prices",
      "ask about parking zones",
      "disputing a ride charge",
      "buying a pass",
      "cancelling a pass",
      "closing your account",
    ]);
    expect(
      offeredCapabilities(
        "I can help with the basics (pricing, where to park, passes) and, once you've signed in, with rides and receipts, ride disputes or closing the account.",
      ),
    ).toContain("ask about ride disputes");
    expect(
      offeredCapabilities(
        "Ask me about prices, parking or our hours. After sign-in I can also pull up your rides, dispute a charge or close your account.",
      ),
    ).toEqual([
      "ask about prices",
      "ask about parking",
      "ask about hours",
      "pull up your rides",
      "dispute a charge",
      "close your account",
    ]);
  });
});
