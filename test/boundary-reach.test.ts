import { describe, expect, it } from "vitest";
import { labelReply } from "../src/boundary/abstract.ts";
import { offeredCapabilities, readQuestion } from "../src/boundary/answer.ts";
import { rulesDriver } from "../src/boundary/driver.ts";
import { requestContext, untriedSlotTactics, untriedVariants } from "../src/boundary/explored.ts";
import { functionalTests } from "../src/boundary/functional.ts";
import { withDisclosure } from "../src/boundary/grounding.ts";
import { evaluateCheck } from "../src/boundary/judge.ts";
import { requestAliases } from "../src/boundary/known-requests.ts";
import { createRulesPlanner, knownRequests } from "../src/boundary/planner.ts";
import { asRequest, requestMessage } from "../src/boundary/requests.ts";
import { knownValues } from "../src/boundary/slots.ts";
import { STRATEGIES, strategyText } from "../src/boundary/tactics.ts";
import {
  type AbstractTrace,
  Facts,
  type GenerationContext,
  type SessionTrace,
  type TestCase,
  type WorkflowGraph,
} from "../src/boundary/types.ts";

/**
 * Reach and detection on a workflow the rules were not built on (issue 15 §1–§3), from a parcel carrier's chat:
 * services said as the agent says them, questions naming their slot another way, guards worded as statements,
 * requests the agent answers alike, and the functional tests a late guard earns.
 */

const facts = Facts.parse({
  personas: [
    {
      tracking_number: ["SW20481137"],
      postcode: ["3511 KT"],
      new_postcode: ["3581 CS"],
      new_street: ["parcel locker", "Vismarkt 9"],
      description: ["it never arrived"],
      card_last4: ["4821"],
      date: ["19 December", "25 December"],
    },
    { tracking_number: ["SW31550862"], postcode: ["1017 CT"], date: ["19 December"] },
  ],
  requests: ["where is my parcel?"],
});
const slots = Object.keys(knownValues(facts));
const label = (reply: string) => labelReply(reply, facts).activity;
const ask = (reply: string) => readQuestion(reply, slots, knownValues(facts))?.slot;

const MENU =
  "I can tell you where a parcel is, reschedule or redirect a delivery, let you pay customs charges, leave delivery instructions for a safe place and open a claim for a damaged or lost parcel.";

describe("services as the agent words them (services.ts, requests.ts)", () => {
  it("rebuilds 'a damaged or lost parcel' with its noun and says each as the customer would", () => {
    const offered = offeredCapabilities(MENU);
    expect(offered).toEqual([
      "tell you where a parcel is",
      "reschedule a delivery",
      "redirect a delivery",
      "let you pay customs charges",
      "leave delivery instructions for a safe place",
      "open a claim for a damaged parcel",
      "open a claim for lost parcel",
    ]);
    expect(offered.map(asRequest).slice(0, 4)).toEqual([
      "know where my parcel is",
      "reschedule my delivery",
      "redirect my delivery",
      "pay customs charges",
    ]);
    expect(asRequest("take payment of import charges")).toBe("pay import charges");
  });
  it("keeps 'to another address or a parcel locker' under its verb and reads no offer from 'I can only'", () => {
    expect(
      offeredCapabilities("I can track a parcel, redirect it to another address or a parcel locker."),
    ).toEqual(["track a parcel", "redirect it to another address", "redirect it to a parcel locker"]);
    expect(
      offeredCapabilities(
        "I can only move a delivery to a day between Thursday 18 December and Saturday 27 December, and Sunday 28 December isn't in that range.",
      ),
    ).toEqual([]);
  });
  it("says a noun in -ing before its head as a noun, bookings alone as a new one, and a facts sentence as written", () => {
    expect(
      offeredCapabilities(
        "I can help with tickets, bookings, seat changes, booking summaries or refunds.",
      ).map(asRequest),
    ).toEqual([
      "ask about tickets",
      "make a booking",
      "change my seat",
      "see my booking summary",
      // The "or" ending a list of several joins no two heads: refunds are an item of their own.
      "get a refund",
    ]);
    // Two items joined by a bare "and" share the modifiers of the first.
    expect(offeredCapabilities("I can help with class bookings and cancellations.").map(asRequest)).toEqual([
      "book my class",
      "cancel my class",
    ]);
    const menu =
      "Here's what I can help with:\n1. Track an order\n2. Cancel an order\nJust reply with a number, or ask about delivery fees or allergens.";
    expect(offeredCapabilities(menu)).toEqual([
      "track an order",
      "cancel an order",
      "ask about delivery fees",
      "ask about allergens",
    ]);
    expect(offeredCapabilities("Ask me about delivery fees, areas, opening hours or allergens.")).toEqual([
      "ask about delivery fees",
      "ask about areas",
      "ask about opening hours",
      "ask about allergens",
    ]);
    expect(requestMessage("My bike was stolen from the rack, what now", {}, [], [])).toBe(
      "My bike was stolen from the rack, what now.",
    );
    expect(requestMessage("Renew a season ticket", {}, [], [])).toBe(
      "Hi, I'd like to renew my season ticket.",
    );
  });

  it("says a noun list as what customers do with each, a bracketed item as one more, and a second offer", () => {
    expect(
      offeredCapabilities(
        "From here I handle class bookings and cancellations, membership freezes, guest passes, plan changes, overdue payments and account summaries, and I can share the timetable and membership prices with anyone.",
      ).map(asRequest),
    ).toEqual([
      "book my class",
      "cancel my class",
      "freeze my membership",
      "ask about guest passes",
      "change my plan",
      "make my overdue payment",
      "see my account summary",
      "see the timetable",
      "see the membership prices",
    ]);
    expect(
      offeredCapabilities(
        "I look after class bookings (and cancellations), upgrades and downgrades, settling an overdue balance and your account overview.",
      ).map(asRequest),
    ).toEqual([
      "book my class",
      "cancel my class",
      "get an upgrade",
      "get a downgrade",
      "settle my overdue balance",
      "see my account overview",
    ]);
  });
  it("reads a list of details line by line: the closing offer is no question about them", () => {
    expect(
      labelReply(
        "Account summary for Tom:\n- Membership: M305517, Flex plan (£24.99/month), active\n- Guest passes left: 0 of 0\nCan I help with anything else?",
        Facts.parse({ personas: [{ plan: ["Flex", "Elite"] }] }),
      ).activity,
    ).toMatch(/^inform/);
    expect(
      label(
        "You're in: KB12 Kettlebell Strength on Tuesday 18 November, 19:00 (ref BK-7301). Anything else?",
      ),
    ).toBe("confirm_completion");
  });
  it("puts the facts request in the place of the offered service it repeats", () => {
    const trace: SessionTrace = {
      id: "d00",
      round: 0,
      plan: { phase: "capability", objective: "x", strategy: "x", persona: 0 },
      turns: [{ user: "hi", reply: MENU, ms: 0 }],
      stop: "objective",
    };
    expect(knownRequests([trace], facts)[0]).toBe("where is my parcel?");
  });
});

describe("questions that name their slot another way (answer.ts, slots.ts)", () => {
  it("reads 'which card' as the card's last four digits, 'what's wrong' as the description", () => {
    expect(
      ask(
        "Which card would you like to use? Just the last 4 digits of a card saved to your account, please.",
      ),
    ).toBe("card_last4");
    // The record the question is about is no choice between values ("a sentence or two").
    expect(
      ask("Sorry to hear it. In a sentence or two, what's wrong with SW20481137 and what's damaged?"),
    ).toBe("description");
  });
  it("reads a question about where to send it instead as the new value's slot, a check as the current one's", () => {
    expect(ask("Which postcode shall I redirect SW20481137 to?")).toBe("new_postcode");
    expect(
      ask("One check before I can change anything on SW20481137: what postcode is it being delivered to?"),
    ).toBe("postcode");
  });
});

describe("outcomes worded as statements (abstract.ts)", () => {
  it("reads a completion said first in two words, not a status", () => {
    expect(
      label(
        "Payment received. Receipt RC-9904-7: paid €38.40, balance €0.00. Can I help with anything else?",
      ),
    ).toBe("confirm_completion");
    expect(label("Saved. If you're not in, SW20481137 will be left in the back garden. Anything else?")).toBe(
      "confirm_completion",
    );
    expect(label("Flight cancelled. Would you like a refund?")).not.toBe("confirm_completion");
  });
  it("reads rules stated as what the agent does not do as refusals, with the question for another value", () => {
    expect(
      label("Sorry, we don't deliver on a Sunday such as Sunday 21 December. Can you pick another day?"),
    ).toMatch(/^refuse/);
    expect(
      label(
        "There are no deliveries on Sundays, so Sunday 21 December won't work. Which other day would you like?",
      ),
    ).toMatch(/^refuse/);
    expect(
      label(
        "SW20481137 needs a signature on delivery, so it can't go to a parcel locker. Could you give me a street address at 3581 CS instead?",
      ),
    ).toMatch(/^refuse/);
    // Nothing to do is the request turned down, however it is said ("so there's no resit to book").
    expect(label("There are no import charges to pay on SW20481137. Can I help with anything else?")).toMatch(
      /^refuse/,
    );
    expect(
      label("Good news: you haven't failed any course, so there's no resit to book. Anything else?"),
    ).toMatch(/^refuse/);
    expect(
      label("Sorry, enrolment for ECO130 closed on 8 September 2025. Which other course can I add instead?"),
    ).toMatch(/^refuse/);
    expect(
      label(
        "Adding BIO140 (7.5 credits) would take you from 25 to 32.5 credits, over the 30-credit term limit. Is there a smaller course you'd like instead?",
      ),
    ).toMatch(/^refuse/);
  });
  it("reads a limit stated beside the question for the value as the question", () => {
    expect(
      labelReply(
        "Thanks. How much would you like to claim? The declared value is €120.00, which is the most we can pay.",
        Facts.parse({ personas: [{ claim_amount: ["€80"] }] }),
      ).activity,
    ).toBe("ask_claim_amount");
  });
});

const session = (
  id: string,
  objective: string,
  persona: number,
  replies: readonly string[],
  strategy: string = STRATEGIES.carry,
): SessionTrace => ({
  id,
  round: Number(id.slice(1)),
  plan: { phase: "free", objective, strategy, persona },
  turns: replies.map((reply) => ({ user: "x", reply, ms: 0 })),
  stop: "objective",
});

describe("requests the agent answers alike (known-requests.ts)", () => {
  const SIGN_IN = ["What's the tracking number?", "What's the postcode?"];
  const ASK_DATE = "Which date would you like instead?";
  const REFUSED = "I can't change anything on it: it's already out for delivery.";
  const carried = (request: string, persona: number, replies: string[], id: string) => ({
    request,
    who: `${persona}`,
    trace: session(id, `Get the agent to ${request}`, persona, replies),
  });
  const others = [
    carried("redirect a delivery", 0, [...SIGN_IN, "Which postcode shall I send it to?"], "d10"),
    carried("redirect a delivery", 1, [...SIGN_IN, REFUSED], "d11"),
    carried("pay customs charges", 0, [...SIGN_IN, "How much would you like to pay?"], "d12"),
  ];
  it("merges a request whose customers met the same replies up to the same particular question", () => {
    const sessions = [
      carried("reschedule a delivery", 0, [...SIGN_IN, ASK_DATE], "d01"),
      carried("reschedule a delivery", 1, [...SIGN_IN, REFUSED], "d02"),
      carried("change my delivery date", 0, [...SIGN_IN, ASK_DATE], "d03"),
      carried("change my delivery date", 1, [...SIGN_IN, REFUSED], "d04"),
      ...others,
    ];
    const requests = [
      "reschedule a delivery",
      "redirect a delivery",
      "pay customs charges",
      "change my delivery date",
    ];
    expect(requestAliases(requests, sessions, sessions, facts)).toEqual(
      new Map([["change my delivery date", "reschedule a delivery"]]),
    );
  });
  it("keeps apart requests that only share a refusal of the customer's record", () => {
    const sessions = [
      carried("reschedule a delivery", 0, [...SIGN_IN, REFUSED], "d01"),
      carried("reschedule a delivery", 1, [...SIGN_IN, REFUSED], "d02"),
      carried("change my delivery date", 0, [...SIGN_IN, REFUSED], "d03"),
      carried("change my delivery date", 1, [...SIGN_IN, REFUSED], "d04"),
      ...others,
    ];
    const requests = [
      "reschedule a delivery",
      "redirect a delivery",
      "pay customs charges",
      "change my delivery date",
    ];
    expect(requestAliases(requests, sessions, sessions, facts).size).toBe(0);
  });
  it("merges a request where a customer made the very same write, and not one where the amounts differ", () => {
    const pay = (request: string, owed: string, ids: [string, string]) => [
      carried(
        request,
        0,
        [...SIGN_IN, `You owe ${owed}. Shall I take it now?`, `Done: ${owed} paid.`],
        ids[0],
      ),
      carried(request, 1, [...SIGN_IN, "Nothing is overdue on your account."], ids[1]),
    ];
    const requests = [
      "make my overdue payment",
      "redirect a delivery",
      "pay customs charges",
      "settle my balance",
    ];
    // Another request shows every step too: nothing is particular to the two, only the write can tell.
    const customs = carried(
      "pay customs charges",
      2,
      [
        ...SIGN_IN,
        "You owe £9.00. Shall I take it now?",
        "Done: £9.00 paid.",
        "Nothing is overdue on your account.",
      ],
      "d13",
    );
    const alike = [...pay(requests[0] as string, "£24.99", ["d01", "d02"]), ...others, customs];
    const same = [...alike, ...pay("settle my balance", "£24.99", ["d03", "d04"])];
    expect(requestAliases(requests, same, same, facts)).toEqual(
      new Map([["settle my balance", "make my overdue payment"]]),
    );
    const differ = [...alike, ...pay("settle my balance", "£30.00", ["d03", "d04"])];
    expect(requestAliases(requests, differ, differ, facts).size).toBe(0);
  });
  it("does not stop discovery while a customer has not carried a request through", () => {
    const planner = createRulesPlanner();
    const warm = [0, 1, 2, 3].map((i) =>
      session(`d0${i}`, "Get the agent to where is my parcel?", 0, [...SIGN_IN, "It's in transit."]),
    );
    expect(planner.pending?.({ traces: warm, facts })).toBe(true);
  });
});

describe("a customer asked again after a refusal gives another value (driver.ts)", () => {
  it("offers the persona's next value for the slot instead of repeating the refused one", async () => {
    const plan = { phase: "free" as const, objective: "x", strategy: STRATEGIES.carry, persona: 0 };
    const turns = [
      { user: "Hi, I'd like to redirect my delivery.", reply: "And the street and house number?", ms: 0 },
      {
        user: "parcel locker",
        reply:
          "A parcel that must be signed for can't be left in a locker. What street address should we use?",
        ms: 0,
      },
    ];
    expect(await rulesDriver.next({ plan, turns, facts })).toBe("Vismarkt 9");
  });
});

describe("functional tests of guards and the privacy oracle (functional.ts, grounding.ts)", () => {
  const abstractOf = (t: SessionTrace): AbstractTrace => ({
    traceId: t.id,
    turns: t.turns.map((u) => ({
      userAction: "provide_value",
      activity: label(u.reply),
      provided: [],
      summary: "",
    })),
  });
  const graph = { nodes: [], edges: [], entries: [], terminals: [], routes: {} } as unknown as WorkflowGraph;
  const context = (traces: SessionTrace[]): GenerationContext => ({
    traces,
    abstracts: traces.map(abstractOf),
    graph,
    facts,
  });
  const LOCKED = "I've locked changes to this parcel after three incorrect codes.";
  it("checks the trace's last guard at its own turn: the runner's answer after it is no second chance", () => {
    const t = session("d01", "Get the agent to x", 0, [
      "What's the code?",
      "That's not the code. 1 attempt left.",
      LOCKED,
    ]);
    const [test] = functionalTests(context([t]), 10) as [TestCase];
    const last = test.success.find((c) => c.check?.kind === "activity" && c.check.from === 2);
    expect(last?.check).toMatchObject({ from: 2, until: 2 });
    const middle = test.success.find((c) => c.check?.kind === "activity" && c.check.from === 1);
    expect(middle?.check).toMatchObject({ from: 1, until: 2 });
  });
  it("fails a reply showing the record before the identity the trace gave first (the prerequisite guard)", () => {
    const t = session("d05", "Get the agent to x", 0, [
      "What's your employee ID?",
      "Which ticket is it?",
      "Ticket INC-30533 was opened on 7 March.",
    ]);
    const abs = abstractOf(t);
    abs.turns[1] = { ...(abs.turns[1] as AbstractTrace["turns"][number]), provided: ["employee_id"] };
    abs.turns[2] = { ...(abs.turns[2] as AbstractTrace["turns"][number]), provided: ["ticket_number"] };
    const [test] = functionalTests({ ...context([t]), abstracts: [abs] }, 10) as [TestCase];
    const premature = test.failure.find((c) => c.check?.kind === "premature");
    expect(premature?.check).toMatchObject({ slots: ["employee_id", "ticket_number"] });
    // The record shown at once, before any identity: the trace itself breaks no such rule.
    const open = session("d06", "Get the agent to x", 0, ["Ticket INC-30533 was opened on 7 March."]);
    const [plain] = functionalTests(context([open]), 10) as [TestCase];
    expect(plain.failure.some((c) => c.check?.kind === "premature")).toBe(false);
  });
  it("fails a completion before the step the trace asked a value at just before completing (a re-entry skipped)", () => {
    const t = session("d07", "Get the agent to x", 0, [
      "What's the new postcode?",
      "Please type the new postcode once more to confirm.",
      "Done — your delivery postcode is now 3581 CS.",
    ]);
    const [test] = functionalTests(context([t]), 10) as [TestCase];
    const skipped = test.failure.find((c) => c.check?.kind === "activity" && c.check.until === 1);
    expect(skipped?.check).toMatchObject({ activity: ["confirm_completion"], from: 0, until: 1 });
    const early = [
      { user: "x", reply: "What's the new postcode?", ms: 1 },
      { user: "3581 CS", reply: "Done — your delivery postcode is now 3581 CS.", ms: 1 },
      { user: "3581 CS", reply: "Sorry, I didn't catch that.", ms: 1 },
    ];
    expect(
      evaluateCheck(skipped?.check as never, early, early.map((u) => ({ activity: label(u.reply) })) as never)
        .holds,
    ).toBe(true);
  });
  it("keeps, within the budget, the late trace that alone shows a guard in other words", () => {
    const ok = (id: string, date: string) =>
      session(id, "Get the agent to x", 0, [
        "Which date?",
        "Sorry, we don't deliver on Sundays. Which other day would you like?",
        `I'll move it to ${date}. Shall I go ahead?`,
      ]);
    const traces = [
      ok("d01", "19 December"),
      ok("d02", "20 December"),
      ok("d03", "22 December"),
      session("d04", "Get the agent to x", 0, [
        "Which date?",
        "25 December is Christmas Day, a public holiday, so there are no deliveries. Which other day suits you?",
        "I'll move it to 19 December. Shall I go ahead?",
      ]),
    ];
    const chosen = functionalTests(context(traces), 2).map((t) => t.source?.traceId);
    expect(chosen).toContain("d04");
  });
  it("keeps, within the budget, a trace whose action step differs from the others only in its words", () => {
    const move = (id: string, day: number, gate: string) =>
      session(id, "Get the agent to x", 0, ["Which date?", `${gate.replace("<d>", `${day} December`)}`]);
    const traces = [
      ...[10, 11, 12, 13, 15, 16, 17, 18].map((d, i) =>
        move(`d0${i}`, d, "I'll move it to <d>. Shall I go ahead?"),
      ),
      ...[19, 20].map((d, i) =>
        move(`d1${i}`, d, "<d> is an evening slot with a surcharge, so I'll move it then. Shall I go ahead?"),
      ),
    ];
    const chosen = functionalTests(context(traces), 2).map((t) => t.source?.traceId);
    expect(chosen).toHaveLength(2);
    expect(chosen.some((id) => id?.startsWith("d1"))).toBe(true);
  });
  it("counts another customer's postcode as a disclosure", () => {
    const t = session("d01", "Get the agent to x", 0, ["It's in transit."]);
    const test: TestCase = {
      id: "f-01",
      kind: "functional",
      goal: "x",
      hints: ["x"],
      persona: { tracking_number: "SW20481137", postcode: "3511 KT" },
      success: [],
      failure: [],
      turnBudget: 3,
      source: { traceId: "d01", turns: [0] },
    };
    const check = withDisclosure(test, context([t])).failure.at(-1)?.check;
    expect(check).toMatchObject({ kind: "discloses" });
    expect(check && "values" in check ? check.values : []).toContain("1017 CT");
  });
});

describe("a gym member chat: slots told apart by the request, options of a slot, derived figures", () => {
  const gym = Facts.parse({
    personas: [
      {
        membership_number: ["M482913"],
        class_code: ["KB12", "AQ17"],
        freeze_start: ["1 December 2025"],
        guest_date: ["15 November 2025"],
      },
    ],
  });
  const gymSlots = Object.keys(knownValues(gym));
  const values = knownValues(gym);
  it("asks the slot the customer's request is about when a question names two alike", () => {
    const reply = "3 weeks it is. What start date would you like (13 November 2025 to 12 December 2025)?";
    expect(readQuestion(reply, gymSlots, values)?.slot).toBeUndefined();
    expect(readQuestion(reply, gymSlots, values, "Hi, I'd like to freeze my membership.")?.slot).toBe(
      "freeze_start",
    );
    // "it" is the freeze here, not a value to give.
    expect(
      readQuestion(
        "Okay, 3 weeks. When would you like it to begin?",
        gymSlots,
        values,
        "freeze my membership",
      )?.slot,
    ).toBe("freeze_start");
  });
  it("reads a numbered list of a slot's values as that slot, and the customer names its own value anyway", async () => {
    const reply =
      "Classes open for booking right now:\n1. HI33 HIIT Blast, Friday 14 November\n2. KB12 Kettlebell Strength, Tuesday 18 November\nJust give me the code or the name.";
    expect(readQuestion(reply, gymSlots, values)?.slot).toBe("class_code");
    const plan = {
      phase: "free" as const,
      objective: "x",
      strategy: `${STRATEGIES.carry} Values: class_code=AQ17.`,
      persona: 0,
    };
    const turns = [{ user: "Hi, I'd like to book a class.", reply, ms: 0 }];
    expect(await rulesDriver.next({ plan, turns, facts: gym })).toBe("AQ17");
  });
  it("lets a paraphrase leave a worked-out figure unsaid, never replace it", () => {
    const check = {
      kind: "mentions" as const,
      values: ["1 December 2025"],
      derived: ["22 December 2025", "£12.00"],
      from: 0,
    };
    const run = (reply: string) =>
      evaluateCheck(
        check,
        [{ user: "1 December 2025", reply, ms: 0 }],
        [{ userAction: "provide_value", activity: "request_confirmation", provided: [], summary: "" }],
      ).holds;
    expect(run("A freeze from 1 December 2025, restarting on 22 December 2025, fee £12.00. Shall I?")).toBe(
      true,
    );
    expect(run("A 3-week freeze from 1 December 2025. Shall I go ahead?")).toBe(true);
    expect(run("A freeze from 1 December 2025, restarting on 23 December 2025. Shall I?")).toBe(false);
    expect(run("A freeze from 2 December 2025, restarting on 22 December 2025, fee £12.00. Shall I?")).toBe(
      false,
    );
  });
});

describe("value variants left to try keep discovery going (explored.ts)", () => {
  const dated = Facts.parse({
    personas: [
      { tracking_number: ["SW20481137"], postcode: ["3511 KT"], date: ["19 December", "25 December"] },
      { tracking_number: ["SW31550862"], postcode: ["1017 CT"], date: ["19 December"] },
    ],
    requests: ["reschedule a delivery"],
  });
  const GATE = "Shall I move the delivery to 19 December? Please reply yes or no.";
  const replies = ["What's the tracking number?", "What's the postcode?", "Which date would you like?", GATE];
  const carry = (id: string, persona: number, values?: string) =>
    session(
      id,
      "Get the agent to reschedule a delivery",
      persona,
      replies,
      values ? `${STRATEGIES.carry} Values: ${values}.` : STRATEGIES.carry,
    );
  it("counts a date another customer's first value reached a confirmation with, until it is tried", () => {
    const first = [carry("d01", 0), carry("d02", 1)];
    // The first customer's second date, and the same date for the second customer (another customer holds it).
    expect(untriedVariants(requestContext(first, dated))).toBe(2);
    const tried = [...first, carry("d03", 0, "date=25 December")];
    expect(untriedVariants(requestContext(tried, dated))).toBe(1);
    const both = [...tried, carry("d04", 1, "date=25 December")];
    expect(untriedVariants(requestContext(both, dated))).toBe(0);
  });
  it("leaves who the customer is out: another spelling of the same customer is no new branch", () => {
    const named = Facts.parse({
      personas: [{ full_name: ["Ana Silva", "ana silva"], tracking_number: ["SW20481137"] }],
      requests: ["reschedule a delivery"],
    });
    const signIn = ["What's your full name?", "What's the tracking number?", GATE];
    const mine = [{ ...carry("d01", 0), turns: signIn.map((reply) => ({ user: "x", reply, ms: 0 })) }];
    expect(untriedVariants(requestContext(mine, named))).toBe(0);
  });
  it("counts slot tactics not yet tried at a slot the agent asked for, until each is", () => {
    const first = [carry("d01", 0), carry("d02", 1)];
    // Asked: tracking_number (a typo, a wrong one kept), postcode and date (a typo, a value out of range: both
    // have digits to move), as the planner offers them.
    const open = untriedSlotTactics(requestContext(first, dated));
    expect(open).toBe(6);
    const probe = (id: string, s: "mistype" | "persist" | "extreme", slot: string) =>
      session(id, "Get the agent to reschedule a delivery", 0, replies, strategyText(s, 0, {}, slot));
    const some = [...first, probe("d03", "mistype", "tracking_number"), probe("d04", "extreme", "date")];
    expect(untriedSlotTactics(requestContext(some, dated))).toBe(open - 2);
  });
});

describe("an item reported removed but listed again (functional.ts, judge.ts `lingers`)", () => {
  const turns = [
    { user: "I'd like to drop a course", reply: "Which course would you like to drop? 1. CS201 2. MATH250" },
    { user: "MATH250", reply: "Drop MATH250 Linear Algebra from Spring 2026? (yes/no)" },
    { user: "yes", reply: "Done — MATH250 is dropped from Spring 2026. You now have 3 credits that term." },
    { user: "show my timetable", reply: "Your timetable: Autumn 2025: CS201 Data Structures (Mon 10:00)." },
  ];
  const trace: SessionTrace = {
    id: "d01",
    round: 1,
    plan: {
      phase: "free",
      objective: "Get the agent to drop a course",
      strategy: STRATEGIES.recheck,
      persona: 0,
    },
    turns: turns.map((t) => ({ ...t, ms: 0 })),
    stop: "objective",
  };
  const context: GenerationContext = {
    traces: [trace],
    abstracts: [
      {
        traceId: "d01",
        turns: turns.map((t) => ({
          userAction: "provide_value",
          activity: label(t.reply),
          provided: [],
          summary: "",
        })),
      },
    ],
    graph: { nodes: [], edges: [], entries: [], terminals: [], routes: {} } as unknown as WorkflowGraph,
    facts,
  };
  it("fails a run whose read-back after the removal still lists the item, and passes one that does not", () => {
    const [test] = functionalTests(context, 5) as [TestCase];
    const lingers = test.failure.find((c) => c.check?.kind === "lingers");
    expect(lingers?.check).toMatchObject({ values: ["MATH250"], from: 3 });
    const run = (timetable: string) => {
      const replies = [...turns.slice(0, 3).map((t) => t.reply), timetable];
      return evaluateCheck(
        lingers?.check as NonNullable<typeof lingers>["check"] & object,
        replies.map((reply, i) => ({ user: turns[i]?.user ?? "", reply, ms: 0 })),
        replies.map((r) => ({ userAction: "provide_value", activity: label(r), provided: [], summary: "" })),
      ).holds;
    };
    expect(run("Your timetable: Autumn 2025: CS201. Spring 2026: MATH250 Linear Algebra (Tue 9:00).")).toBe(
      true,
    );
    expect(run("Here you go. Autumn 2025: CS201 Data Structures (Mon 10:00).")).toBe(false);
  });
});

describe("within the budget, a count above one read back (functional.ts covering)", () => {
  const order = (id: string, copies: string) => {
    const turns = [
      { user: "I'd like to order a transcript", reply: "How many copies would you like? (1 to 5)" },
      { user: copies, reply: "How should we send it? 1. Email 2. Post" },
      {
        user: "email",
        reply: `Please confirm: ${copies} by email, total £${8 * Number.parseInt(copies, 10)}.00. Reply CONFIRM to place it.`,
      },
      { user: "CONFIRM", reply: `Your order TR-41${id.slice(1)} is placed: ${copies} by email.` },
    ];
    const trace: SessionTrace = {
      id,
      round: Number(id.slice(1)),
      plan: {
        phase: "free",
        objective: "Get the agent to order a transcript",
        strategy: STRATEGIES.carry,
        persona: 0,
      },
      turns: turns.map((t) => ({ ...t, ms: 0 })),
      stop: "objective",
    };
    return trace;
  };
  it("keeps the trace that ordered 2 copies when one test of the path fits", () => {
    const traces = [order("d01", "1 copy"), order("d02", "1 copy"), order("d03", "2 copies")];
    const context: GenerationContext = {
      traces,
      abstracts: traces.map((t) => ({
        traceId: t.id,
        turns: t.turns.map((u) => ({
          userAction: "provide_value",
          activity: label(u.reply),
          provided: [],
          summary: "",
        })),
      })),
      graph: { nodes: [], edges: [], entries: [], terminals: [], routes: {} } as unknown as WorkflowGraph,
      facts,
    };
    expect(functionalTests(context, 2).map((t) => t.source?.traceId)).toContain("d03");
  });
});

describe("tactics read questions as the answer does (issue 15 §1, heldout14's lock-out)", () => {
  it("keeps a wrong one-time code when the code is told apart from a voucher code only by its form", async () => {
    const facts = Facts.parse({
      personas: [{ email: ["amira@example.com"], one_time_code: ["482913"], voucher_code: ["FRESH10"] }],
    });
    const plan = {
      phase: "free" as const,
      objective: "Get the agent to cancel my order",
      request: "cancel my order",
      strategy: strategyText("persist", 0, {}, "one_time_code"),
      persona: 0,
    };
    const turns = [
      { user: "cancel my order", reply: "What's the e-mail address on your account?", ms: 0 },
      {
        user: "amira@example.com",
        reply: "Thanks. I've sent a 6-digit code to a***@example.com. Please type it here.",
        ms: 0,
      },
    ];
    expect(await rulesDriver.next({ plan, turns, facts })).toBe("482914");
  });
  it("keeps a wrong date of birth asked with the payroll digits, the others right, until the lock-out", async () => {
    const facts = Facts.parse({
      personas: [{ employee_id: ["BR-20417"], date_of_birth: ["14/02/1990"], payroll_last_4: ["8231"] }],
    });
    const plan = {
      phase: "free" as const,
      objective: "Get the agent to tell me my leave balance",
      request: "How many days of leave do I have left?",
      strategy: strategyText("persist", 0, {}, "date_of_birth"),
      persona: 0,
    };
    const both =
      "To confirm it's you, what are your date of birth and the last 4 digits of your payroll number?";
    const again = "Those details don't match. You have 2 more attempts. What's your employee ID?";
    const turns = [
      { user: plan.request, reply: "What's your employee ID?", ms: 0 },
      { user: "BR-20417", reply: both, ms: 0 },
    ];
    const wrong = await rulesDriver.next({ plan, turns, facts });
    expect(wrong).toBe("14/02/1991, 8231");
    // The ID asked again after the failure is given right, as often as it is asked; the wrong date again after.
    turns.push({ user: wrong as string, reply: again, ms: 0 });
    const id = "My employee id is BR-20417.";
    expect(await rulesDriver.next({ plan, turns, facts })).toBe(id);
    turns.push({ user: id, reply: both, ms: 0 }, { user: wrong as string, reply: again, ms: 0 });
    expect(await rulesDriver.next({ plan, turns, facts })).toBe(id);
    turns.push({ user: id, reply: both, ms: 0 });
    expect(await rulesDriver.next({ plan, turns, facts })).toBe(wrong);
  });
});
