import { describe, expect, it } from "vitest";
import { airlineTarget } from "../src/agents/chat/airline/agent.ts";
import { render, TEMPLATES } from "../src/agents/chat/airline/templates.ts";
import {
  labelReply,
  labelUserTurn,
  maskEntities,
  mineTemplates,
  rulesLabeller,
} from "../src/boundary/abstract.ts";
import { cueOf, type Facts } from "../src/boundary/types.ts";

/** The `rules` labeller (AgentEval §IV-A): masking, reply activities, user actions. */

/** The label each act of the reference airline agent gets. */
const ACT_LABEL: Record<string, string> = {
  greet: "greet",
  ask_user_id: "ask_user_id",
  ask_reservation_id: "ask_reservation_id",
  ask_reason: "ask_reason",
  ask_cabin: "ask_cabin",
  ask_bags: "ask_bags",
  ask_route: "ask_route",
  unknown_user: "report_not_found",
  unknown_reservation: "report_not_found",
  no_flights: "report_not_found",
  not_owner: "refuse",
  refuse: "refuse",
  confirm: "request_confirmation",
  done: "confirm_completion",
  compensation: "confirm_completion",
  aborted: "acknowledge_abort",
  failed: "report_error",
  status: "inform_flight_status",
  reservation: "inform_booking_details",
  flights: "inform_flight_options",
  transfer: "transfer_to_human",
  fallback: "offer_capabilities",
  bye: "close_conversation",
};

/**
 * Acts that honestly mean the same activity: an unknown user, an unknown reservation and no flight on a route
 * all report that what was asked for does not exist; "not your reservation" is a refusal like any policy
 * refusal; a certificate issued as compensation is a completed action like any other write.
 */
const SAME_ACTIVITY: Record<string, string[]> = {
  report_not_found: ["unknown_user", "unknown_reservation", "no_flights"],
  refuse: ["not_owner", "refuse"],
  confirm_completion: ["done", "compensation"],
};

/** Realistic values for the templates' slots (what the agent really fills in), varied per rendering. */
const VALUES: Record<string, (string | number)[]> = {
  user: ["mia_li_3668", "noah_brown_1234"],
  reservation: ["HAT1A1", "HAT9Z9", "HAT3C3"],
  why: [
    "reservation HAT1A1 is already cancelled",
    "part of the trip has already been flown",
    "the reservation is not eligible for cancellation under our policy",
    "the reservation is already in business",
    "a segment has already been flown, so the cabin cannot change",
    "checked bags can be added but not removed",
    "the reservation already has 2 bag(s)",
    "travel insurance can only be bought when booking",
    "our records show no cancellation or delay on this reservation",
    "your membership and ticket do not qualify for compensation",
  ],
  flight: ["HAT101", "HAT401", "HAT301"],
  date: ["2024-05-18", "2024-05-15", "2024-05-17"],
  status: ["available", "on time", "delayed", "cancelled", "landed", "flying"],
  route: ["SFO→JFK (one way)", "SFO→JFK (round trip)", "LAX→SEA (one way)"],
  cabin: ["economy", "business", "basic economy"],
  passengers: [1, 2],
  flights: ["HAT101 on 2024-05-18", "HAT201 on 2024-05-14, HAT202 on 2024-05-16"],
  insurance: ["no", "yes"],
  total: ["$210", "$1000"],
  list: [
    "HAT101 08:00 economy $210, business $640",
    "HAT201 07:00 economy $160, business $480; HAT202 14:30 economy $150, business $420",
  ],
  amount: ["$100", "$50", "$200"],
};
/** Slot values that differ by act. */
const ACT_VALUES: Record<string, Record<string, string[]>> = {
  confirm: {
    summary: [
      "cancel reservation HAT1A1 (SFO→JFK), refund $210 to the original payment",
      "change reservation HAT3C3 to economy on all flights",
      "set reservation HAT2B2 to 3 checked bag(s), 1 paid at $50 each",
      "add travel insurance to HAT2B2",
    ],
  },
  done: {
    summary: [
      "reservation HAT1A1 is cancelled",
      "reservation HAT3C3 is now in basic economy",
      "reservation HAT2B2 now has 3 checked bag(s)",
      "insurance added to HAT2B2",
    ],
  },
  failed: {
    why: [
      "Reservation HAT1A1 is already cancelled",
      "Gift card balance is not enough",
      "Certificate cannot be used to update reservation",
      "Flight HAT101 is not available on 2024-05-20",
      "Reservation HAT9Z9 not found",
    ],
  },
};

/** Every paraphrase of an act, rendered with each variant of its values (`variant` = the values' index). */
function renderingsOf(act: string): { variant: number; text: string }[] {
  const values = { ...VALUES, ...ACT_VALUES[act] };
  const variants = Math.max(...Object.values(values).map((v) => v.length));
  return (TEMPLATES[act] ?? []).flatMap((template) =>
    Array.from({ length: variants }, (_, i) => ({
      variant: i,
      text: render(
        template,
        Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v[i % v.length] ?? ""])),
      ),
    })),
  );
}

describe("labelReply on the reference airline agent", () => {
  it("gives every paraphrase of every act the act's label; a refusal or error its topic, the same in every paraphrase", () => {
    expect(Object.keys(ACT_LABEL).sort()).toEqual(Object.keys(TEMPLATES).sort());
    for (const act of Object.keys(TEMPLATES)) {
      const byValues = new Map<number, string>();
      for (const { variant, text } of renderingsOf(act)) {
        const label = labelReply(text).activity;
        expect({ act, text, label: cueOf(label) }).toEqual({ act, text, label: ACT_LABEL[act] });
        expect({ act, text, label }).toEqual({ act, text, label: byValues.get(variant) ?? label });
        byValues.set(variant, label);
      }
    }
    // Different reasons are different guards: the refusals of one act stay apart by what they are about.
    const refusals = new Set(renderingsOf("refuse").map((r) => labelReply(r.text).activity));
    expect(refusals.size).toBeGreaterThanOrEqual(3);
  });

  it("gives different acts different labels, except those that mean the same activity", () => {
    const byLabel: Record<string, string[]> = {};
    for (const [act, label] of Object.entries(ACT_LABEL)) byLabel[label] = [...(byLabel[label] ?? []), act];
    const shared = Object.fromEntries(Object.entries(byLabel).filter(([, acts]) => acts.length > 1));
    expect(shared).toEqual(SAME_ACTIVITY);
  });

  it("applies cue rules in order: a refusal mentioning cancellation refuses, a gate listing details is a gate", () => {
    expect(
      labelReply("I'm sorry, I cannot do that: the reservation has been cancelled already.").activity,
    ).toBe("refuse_already");
    expect(labelReply("To confirm: cancel HAT1A1 (SFO→JFK), refund $210. Shall I proceed?").activity).toBe(
      "request_confirmation",
    );
    expect(labelReply("Understood, nothing has been changed.").activity).toBe("acknowledge_abort");
    expect(labelReply("Something went wrong on our side: Reservation HAT1A1 not found.").activity).toBe(
      "report_error",
    );
    expect(labelReply("Flight HAT301 on 2024-05-17 is cancelled.").activity).toBe("inform_flight_status");
    expect(labelReply("Would you like me to cancel it for you?").activity).toBe("request_confirmation");
    // A lone closing offer ends the task like a goodbye (it was `open_question`, an activity no discovery
    // session shows after a completion, so a continue-after-end test could not accept it).
    expect(labelReply("Is there anything else I can help you with?").activity).toBe("close_conversation");
    expect(labelReply("What would you like to do?").activity).toBe("open_question");
    expect(labelReply("").activity).toBe("no_reply");
  });

  it("reads 'made no changes' as an abort, 'didn't quite follow' as a clarification, sympathy as no refusal", () => {
    expect(labelReply("No problem, I've cancelled that request and made no changes.").activity).toBe(
      "acknowledge_abort",
    );
    expect(labelReply("Fine, nothing's been changed.").activity).toBe("acknowledge_abort");
    expect(labelReply('Sorry, I didn\'t quite follow that. Say "menu" to see what I can do.').activity).toBe(
      "clarify",
    );
    expect(
      labelReply("I'm sorry something wasn't right with your order. What's the order number?").activity,
    ).not.toMatch(/^refuse/);
    expect(labelReply("That code wasn't right. Please try again.").activity).toMatch(/^refuse/);
  });

  it("labels paraphrases of one act alike: fronted asks, 'just checking' gates, terse completions, options after a colon", () => {
    const label = (t: string) => labelReply(t).activity;
    const code = { personas: [{ verification_code: ["482913"] }], requests: [] };
    expect(
      labelReply("Got it. To confirm it's you, enter the 6-digit code we just sent.", code).activity,
    ).toBe("ask_verification_code");
    expect(label("If anything is missing, tell me.")).toMatch(/^inform/);
    expect(label("Just checking: change the tip on FK-20436 from £1.00 to £2.00?")).toBe(
      "request_confirmation",
    );
    expect(label("Nice, FREEDEL is valid: free delivery over £15.00. Add it?")).toBe("request_confirmation");
    expect(label("Tip updated to £1.00 on FK-20436. Thank you!")).toBe("confirm_completion");
    expect(label("Your tip is set to £3.00 by default.")).toMatch(/^inform/);
    expect(label("FREEDEL is saved ✅ You'll see it at checkout.")).toBe("confirm_completion");
    expect(label("Your membership is now paused until 28 August. No charges until then.")).toBe(
      "confirm_completion",
    );
    expect(label("New bookings are paused until the fee is paid.")).toMatch(/^refuse/);
    expect(
      label("You're a Plus member, renewing 28 June. Would you like to:\nA) pause it\nB) cancel it"),
    ).toBe("ask_choice");
    expect(
      label("Your membership is paused (it restarts on 1 August). Options:\nA) resume it\nB) cancel it"),
    ).toBe("ask_choice");
    expect(label("Here is what happened:\n1. Order placed\n2. Order delivered")).toMatch(/^inform/);
    expect(label("Hmm, I'm not sure I understood. Try telling me what you need in a few words.")).toBe(
      "clarify",
    );
    expect(label("Sure thing. I've asked a member of our support team to join this chat.")).toBe(
      "transfer_to_human",
    );
    expect(label("Sorry, FREEDEM isn't recognised. Please check the spelling.")).toBe("report_not_found");
    expect(
      label("That's outside Golden Lotus's delivery radius (they don't go to E8). Any other postcode?"),
    ).toMatch(/^refuse/);
    expect(label("Thanks for chatting with Forkful — enjoy your meal!")).toBe("close_conversation");
    expect(label("Hi, thanks for chatting with us. What can I do for you?")).not.toBe("close_conversation");
    expect(label("Your items:\n1. Pizza\n2. Garlic bread\nWhich one was the problem?")).toBe("ask_choice");
    expect(
      label("Your Plus membership is cancelled. Benefits end on 12 June and you won't be charged again."),
    ).toBe("confirm_completion");
    expect(label("Most restaurants are open 11:30–23:00, and some stay open later on Fridays.")).toMatch(
      /^inform/,
    );
    expect(label("As Plus is paused, cancelling ends it now. Cancel your Plus membership?")).toBe(
      "request_confirmation",
    );
    expect(label("Missing-item reports are only for delivered orders, and FK-20379 was cancelled.")).toMatch(
      /^refuse/,
    );
    expect(
      label("We deliver to E1 and E2, so the app only shows places that can reach you. Send me a postcode."),
    ).not.toMatch(/^refuse/);
    expect(label("Only the account holder can change that.")).toMatch(/^refuse/);
  });

  it("reads a reason against followed by a question for a replacement as a refusal of what was given", () => {
    const facts = { personas: [{ screening: ["Dune 19:30"], seat: ["F12"] }] } as unknown as Facts;
    const refusals = [
      "Sorry, Dune 19:30 has been cancelled (projector fault). Which other screening would you like?",
      "Seat F12 isn't free any more. Is there a different seat you'd like?",
      "You already hold F12 for that showing. Which other seat shall I take?",
      "Children's tickets are only for under-12s, and that's not you. Who would you like to book for instead?",
    ];
    for (const text of refusals)
      expect({ text, cue: cueOf(labelReply(text, facts).activity) }).toEqual({ text, cue: "refuse" });
    // A completion offering another of the same, a re-ask after a misunderstanding, and an offer with
    // nothing chosen are not refusals (nor gates).
    expect(
      labelReply("I've booked F12, no booking fee. Would you like to book another one?", facts).activity,
    ).toBe("confirm_completion");
    expect(
      cueOf(labelReply("Sorry, I didn't catch that. Which other seat would you like?", facts).activity),
    ).not.toBe("refuse");
    expect(labelReply("Tonight: Dune 19:30, Alien 21:00. Shall I book something?", facts).activity).toBe(
      "open_question",
    );
  });

  it("reads a step passed before a question, a request for what was sent, and completions said first", () => {
    const facts = {
      personas: [{ library_card: ["LC-2041"], one_time_code: ["552190"], title: ["Dune"] }],
    } as unknown as Facts;
    const label = (text: string) => labelReply(text, facts).activity;
    expect(label("Code accepted. Thanks, Ana. What's the title you'd like to renew?")).toBe("ask_title");
    expect(label("I've sent a 6-digit code to your phone ending 4471. Please type it here.")).toBe(
      "ask_one_time_code",
    );
    expect(label("Payment received: €4.50 for fine F-1001. Your receipt is R-77.")).toBe(
      "confirm_completion",
    );
    expect(cueOf(label("E-books are only issued to members with a valid card."))).toBe("refuse");
    expect(cueOf(label("Dune would need to be returned first; we renew only books on loan."))).toBe("refuse");
    expect(label("That's Dune until 14 May, fee €0.50. Do you want to accept and renew it?")).toBe(
      "request_confirmation",
    );
  });

  it("reads refusals by area, by notice and by 'I'm afraid:'", () => {
    const refusals = [
      "AB1 2CD isn't in the Northvale service area, so we don't deliver there.",
      "We only deliver within Northvale, and AB1 2CD falls outside it, I'm afraid.",
      "We need three days' notice, so the earliest date I can offer is 9 May. Which date would you like?",
      "That's too soon, I'm afraid: orders need three days' notice.",
    ];
    for (const text of refusals)
      expect({ text, cue: cueOf(labelReply(text).activity) }).toEqual({ text, cue: "refuse" });
  });

  it("maps the paper's three phrasings of one question to one activity (AgentEval §IV-A)", () => {
    const phrasings = [
      "What is your reservation code?",
      "Could you give me the booking reference?",
      "Please provide the confirmation number.",
    ];
    expect(phrasings.map((p) => labelReply(p).activity)).toEqual(Array(3).fill("ask_reservation_id"));
    expect(labelReply("What is your zip code?").activity).toBe("ask_zip_code");
  });

  it("summarises the reply in one sentence", () => {
    expect(labelReply("May I have your user id first?").summary).toBe("The agent asks for the user id.");
    expect(labelReply("Flight HAT101 on 2024-05-18 is delayed.").summary).toBe(
      "The agent informs about flight status.",
    );
  });
});

describe("maskEntities", () => {
  it("masks each entity type and lists the values in text order", () => {
    const text =
      "Flight HAT101 on 2024-05-18 at 08:00 costs $1,210.50 or 180 EUR; mail mia@example.com, pay with credit_card_4421357, user mia_li_3668, booking HAT1A1, SFO to JFK is delayed, 2 bags.";
    const { masked, entities } = maskEntities(text);
    expect(masked).toBe(
      "Flight <flight_number> on <date> at <time> costs <money> or <money>; mail <email>, pay with <payment_id>, user <user_handle>, booking <booking_code>, <airport> to <airport> is <status>, <number> bags.",
    );
    expect(entities.map((e) => e.value)).toEqual([
      "HAT101",
      "2024-05-18",
      "08:00",
      "$1,210.50",
      "180 EUR",
      "mia@example.com",
      "credit_card_4421357",
      "mia_li_3668",
      "HAT1A1",
      "SFO",
      "JFK",
      "delayed",
      "2",
    ]);
  });

  it("types a value listed in the facts by its slot, case-insensitively", () => {
    const facts: Facts = {
      personas: [{ user_id: ["mia_li_3668"], reservation_id: ["HAT1A1"] }],
      requests: [],
    };
    expect(maskEntities("I am Mia_Li_3668, about hat1a1 and HAT2B2", facts)).toEqual({
      masked: "I am <user_id>, about <reservation_id> and <booking_code>",
      entities: [
        { type: "user_id", value: "Mia_Li_3668" },
        { type: "reservation_id", value: "hat1a1" },
        { type: "booking_code", value: "HAT2B2" },
      ],
    });
  });

  it("does not read shouted words or company names as airport codes", () => {
    expect(maskEntities("YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.").entities).toEqual([]);
    expect(maskEntities("Welcome to HAT Airlines. Flights SFO to JFK.").masked).toBe(
      "Welcome to HAT Airlines. Flights <airport> to <airport>.",
    );
  });
});

describe("mineTemplates (Drain)", () => {
  it("recovers the paraphrases behind an activity, with <*> where the words differ", () => {
    const replies = [
      "Flight HAT101 on 2024-05-18 is delayed.",
      "The status of HAT401 on 2024-05-15: on time.",
      "Flight HAT202 on 2024-05-20 is on time.",
      "Thank you, Mia. Goodbye!",
      "Thank you, Omar. Goodbye!",
    ];
    expect(mineTemplates(replies)).toEqual([
      { template: "Flight <flight_number> on <date> is <status>.", count: 2, members: [0, 2] },
      { template: "The status of <flight_number> on <date>: <status>.", count: 1, members: [1] },
      { template: "Thank you, <*> Goodbye!", count: 2, members: [3, 4] },
    ]);
  });
});

const FACTS: Facts = {
  personas: [{ user_id: ["mia_li_3668"], reservation_id: ["HAT1A1", "HAT3C3"] }],
  requests: [],
};

describe("labelUserTurn", () => {
  const cases: [string, string | undefined, string, string[]][] = [
    ["I want to cancel my reservation", undefined, "request_cancel", []],
    [
      "cancel reservation HAT1A1, user mia_li_3668",
      undefined,
      "request_cancel",
      ["reservation_id", "user_id"],
    ],
    ["my user id is mia_li_3668", "ask_user_id", "provide_user_id", ["user_id"]],
    ["it's HAT1A1", "ask_reservation_id", "provide_reservation_id", ["reservation_id"]],
    ["HAT9Z9", "ask_reservation_id", "provide_reservation_id", ["reservation_id"]],
    ["mia_li_3668", "ask_reservation_id", "provide_user_id", ["user_id"]],
    ["change of plans", "ask_reason", "provide_reason", ["reason"]],
    ["my flight was cancelled by the airline", "ask_reason", "provide_reason", ["reason"]],
    ["business please", "ask_cabin", "provide_cabin", ["cabin"]],
    ["3 bags", "ask_bags", "provide_bags", ["bags"]],
    ["from SFO to JFK on 2024-05-18", "ask_route", "provide_route", ["route", "airport", "date"]],
    ["yes", "request_confirmation", "affirm", []],
    ["Yes, please go ahead.", "request_confirmation", "affirm", []],
    ["no, don't", "request_confirmation", "deny", []],
    ["I insist, cancel it anyway", "refuse", "insist", []],
    ["please cancel HAT1A1", "refuse", "insist", ["reservation_id"]],
    ["I'd like to talk to a human", undefined, "request_human", []],
    ["my flight was cancelled, I want compensation", undefined, "request_compensate", []],
    ["Is my flight on time? reservation HAT1A1", undefined, "request_check", ["reservation_id"]],
    ["upgrade HAT3C3 to business", undefined, "request_upgrade", ["reservation_id"]],
    ["I want to add a checked bag to HAT1A1", undefined, "request_add", ["reservation_id"]],
    ["show me the details of my reservation", undefined, "request_show", []],
    ["search flights from SFO to JFK on 2024-05-18", undefined, "request_search", ["airport", "date"]],
    ["Thanks, bye!", "confirm_completion", "thank", []],
    ["hello", undefined, "other", []],
  ];
  for (const [text, previous, action, provided] of cases)
    it(`labels "${text}" after ${previous ?? "nothing"} as ${action}`, () => {
      expect(labelUserTurn(text, FACTS, previous)).toEqual({ userAction: action, provided });
    });

  it("types values by entity type without facts", () => {
    expect(labelUserTurn("mia_li_3668", undefined)).toEqual({
      userAction: "provide_user_handle",
      provided: ["user_handle"],
    });
  });
});

describe("rulesLabeller", () => {
  it("abstracts a real conversation with the reference agent turn by turn", async () => {
    const agent = airlineTarget({ seed: 3 });
    const users = [
      "I want to cancel my reservation",
      "my user id is mia_li_3668",
      "it's HAT1A1",
      "change of plans",
      "yes",
      "thanks, bye",
    ];
    const turns = [];
    for (const user of users) turns.push({ user, reply: (await agent.send(user)).text, ms: 0 });
    const labels = await rulesLabeller.label({ id: "d00", turns }, FACTS, []);
    expect(labels.map((l) => [l.userAction, l.activity, l.provided])).toEqual([
      ["request_cancel", "ask_user_id", []],
      ["provide_user_id", "ask_reservation_id", ["user_id"]],
      ["provide_reservation_id", "ask_reason", ["reservation_id"]],
      ["provide_reason", "request_confirmation", ["reason"]],
      ["affirm", "confirm_completion", []],
      ["thank", "close_conversation", []],
    ]);
    expect(labels[1]?.summary).toBe("The user gives the user id; the agent asks for the reservation id.");
  });
});
