import { describe, expect, it } from "vitest";
import { TargetError } from "../src/agents/chat/target.ts";
import { labelReply } from "../src/boundary/abstract.ts";
import { answerQuestion, asksSomething, offeredCapabilities, readQuestion } from "../src/boundary/answer.ts";
import { discover, looping, progressing } from "../src/boundary/discover.ts";
import { rulesDriver } from "../src/boundary/driver.ts";
import { correctionAt } from "../src/boundary/driver-values.ts";
import { slotOfDay } from "../src/boundary/formats.ts";
import { pastLimits, statedLimits } from "../src/boundary/limits.ts";
import { createRulesPlanner, knownRequests } from "../src/boundary/planner.ts";
import { rephrase } from "../src/boundary/requests.ts";
import {
  foreignVariants,
  readRequestFor,
  readsOwnRecord,
  STRATEGIES,
  strategyText,
  strategyValues,
  variantsFor,
} from "../src/boundary/tactics.ts";
import type { Facts, RoundPlan, SessionTrace, Turn } from "../src/boundary/types.ts";

/** Discovery past what the airline and bank bots taught (issue 15 §1): requests, questions, tactics, variants. */

const trace = (replies: string[]): SessionTrace => ({
  id: "d01",
  round: 1,
  plan: { phase: "free", objective: "Get the agent to x", strategy: STRATEGIES.carry, persona: 0 },
  turns: replies.map((reply) => ({ user: "hi", reply, ms: 0 })),
  stop: "objective",
});

describe("what counts as a service the agent offers (services.ts, planner.ts knownRequests)", () => {
  it("reads no offer from a relative clause or from what the agent sees", () => {
    expect(
      offeredCapabilities(
        "There's no claim CL-51301 that I can access on your account, I'm afraid. If you think it should be there, a colleague can help.",
      ),
    ).toEqual([]);
    expect(
      offeredCapabilities(
        "What's the claim reference? On your policies I can see CL-40112 (windscreen damage, 3 June 2025) and CL-40187 (collision damage, 20 May 2025).",
      ),
    ).toEqual([]);
  });
  it("keeps a noun phrase with its own determiner whole, and knows 'handle' opens a service", () => {
    expect(
      offeredCapabilities(
        "Welcome. I can change your dates, add breakfast or an extra bed, cancel a booking or handle a refund request.",
      ),
    ).toEqual([
      "change your dates",
      "add breakfast",
      "add an extra bed",
      "cancel a booking",
      "handle a refund request",
    ]);
  });
  it("takes one slot's options for options, not for services", () => {
    const facts: Facts = {
      personas: [{ incident_type: ["theft", "collision", "windscreen"] }],
      requests: [],
    };
    const requests = knownRequests(
      [
        trace([
          "I can help you file a claim, check an existing claim or add a named driver.",
          "What happened? On your car policy I can take claims for theft, collision damage or windscreen damage.",
        ]),
      ],
      facts,
    );
    expect(requests).toEqual(["file a claim", "check an existing claim", "add a named driver"]);
  });
});

describe("questions asked the ways bots ask them (answer.ts)", () => {
  const slots = [
    "student_id",
    "date_of_birth",
    "course_code",
    "amount",
    "email",
    "sms_code",
    "collection_day",
    "monthly_amount",
  ];
  it("reads imperatives, needs and elliptical requests as asking for the slot they name", () => {
    for (const [reply, slot] of [
      ["Your student ID, please.", "student_id"],
      ["Go ahead and send me the course code.", "course_code"],
      ["Type the course code below.", "course_code"],
      ["Enter your date of birth (DD/MM/YYYY).", "date_of_birth"],
      ["I just need your date of birth to verify it's you.", "date_of_birth"],
      ["Kindly provide your email address.", "email"],
      ["Send over the amount you'd like to pay.", "amount"],
      ["What's the estimated cost of the damage, in pounds?", "amount"],
      ["What course would you like to add?", "course_code"],
      ["What's the code we sent you by text?", "sms_code"],
      ["What day should we collect the payment each month?", "collection_day"],
      ["How much would you like to pay each month?", "monthly_amount"],
    ] as const)
      expect(readQuestion(reply, slots), reply).toMatchObject({ kind: "value", slot });
    expect(asksSomething("Give me a moment while I look that up.")).toBe(false);
  });
  it("reads confirmations without the usual words as gates, and a choice as no gate", () => {
    for (const reply of [
      "Before I submit, please check: windscreen damage on 3 June 2025, estimate £640. Is that all correct? If so, just approve it.",
      "Want me to go ahead and enrol you?",
      "OK to submit?",
      "Ready when you are — just say the word and I'll enrol you.",
      "Confirm and I'll lodge it.",
      "Cancelling now falls inside the 48-hour window, so €110 will be charged. Would you still like to cancel HX7390?",
      "Do you want to book it?",
      "We can call you back on the number we hold. Would you like a callback?",
    ])
      expect(readQuestion(reply, slots)?.kind, reply).toBe("gate");
    expect(readQuestion("Would you like a window or aisle seat?", slots)?.kind).not.toBe("gate");
    expect(readQuestion("Would you like to add breakfast or a late checkout?", slots)?.kind).not.toBe("gate");
  });
});

describe("a question about what the reply lists (answer.ts)", () => {
  const persona = { student_number: ["S2104387"], course: ["STA201", "CS101"] };
  it("answers a yes/no offer over a listed catalogue with the persona's choice from it", () => {
    const reply =
      "Here's this term's catalogue:\nCS101 Programming Fundamentals: 7.5 credits\nSTA201 Regression Models: 5 credits\nPHI120 Ethics: 5 credits\nWant to enrol in one?";
    expect(readQuestion(reply, Object.keys(persona), persona)).toMatchObject({
      kind: "value",
      slot: "course",
    });
    expect(answerQuestion(reply, persona)).toBe("STA201");
  });
  it("does not take a verified record's number for a question", () => {
    expect(
      readQuestion("Thanks, S2104387 is verified. What would you like to do?", Object.keys(persona), persona),
    ).toBeUndefined();
  });
  it("answers 'how many X shall I …' from the one slot of counts, and reads 'if that's all correct, type SUBMIT'", () => {
    expect(
      answerQuestion("How many transcripts shall I order?", { student_number: ["S1"], copies: ["3"] }),
    ).toBe("3 transcripts");
    expect(readQuestion("Here's the order: 1 copy. If that's all correct, type SUBMIT", [])?.keyword).toBe(
      "SUBMIT",
    );
  });
  it("reads 'Send SUBMIT and I'll file it' as a gate asking for that word", () => {
    expect(readQuestion("Here's the enrolment: STA201. Send SUBMIT and I'll file it.", [], persona)).toEqual({
      kind: "gate",
      options: [],
      keyword: "SUBMIT",
    });
  });
});

describe("refusals said as advice or cover (abstract.ts)", () => {
  it("labels them refusals", () => {
    for (const reply of [
      "To take CS201 Data Structures you need a pass in CS101, which your record doesn't show. Want to pick a different course?",
      "No need: you're registered for CS201 Data Structures already. Would you like a different course?",
      "Sorry, that isn't the date of birth we have for this student number. You have 2 attempts left.",
      "An estimate of £450 is below your £500 deductible, so a claim wouldn't pay anything out. It's probably best not to file it.",
      "Under the terms of your Basic home policy, windscreen damage isn't covered. Anything else I can help with?",
    ])
      expect(labelReply(reply).activity, reply).toMatch(/^refuse/);
  });
});

describe("replies a new user's library bot used (abstract.ts)", () => {
  it.each([
    ['Your renewal is complete: "Middlemarch" is due on 31 March 2025.', "confirm_completion"],
    ["Payment of £30.00 received, thank you.", "confirm_completion"],
    ["£30.00 has been paid.", "confirm_completion"],
    [
      "Booked! 6 guests on 21 June 2025 at 8 pm — booking reference TV4100. Anything else?",
      "confirm_completion",
    ],
    ["That PIN is wrong again. For your security the card is now locked; please visit a branch.", "refuse"],
    ['"Piranesi" isn\'t on your account. Which of your loans should I renew?', "refuse"],
    [
      "You aren't enrolled in STA201 this term. Your courses are: 1. CS101 2. ECO130. Which one did you mean?",
      "refuse",
    ],
    [
      "Account requests in chat are locked after three wrong codes. Would you like me to connect you with a colleague?",
      "refuse",
    ],
  ])("%s → %s", (reply, activity) => expect(labelReply(reply).activity.startsWith(activity)).toBe(true));
  it("keeps a flight's status an information", () => {
    expect(labelReply("Your flight is now boarding.").activity).toBe("inform_status");
  });
});

describe("a state then a question (abstract.ts)", () => {
  it("labels 'You're enrolled in: 1. … Which course?' the question, not a completion", () => {
    expect(
      labelReply(
        "Great, Jonas, I've found your record. Which course do you want to withdraw from? You're enrolled in: 1. CS201 Data Structures 2. STA201 Regression Models",
        { personas: [{ course: ["CS201"] }], requests: [] },
      ).activity,
    ).toBe("ask_course");
  });
});

describe("variants and slot tactics (tactics.ts, driver.ts)", () => {
  it("corrects at a gate what the customer answered, with a value the agent offered", () => {
    const persona = { policy_type: ["car", "home"], incident_type: ["collision", "theft", "storm"] };
    const turns: Turn[] = [
      {
        user: "Hi, I'd like to file my car claim.",
        reply: "What happened: theft, storm or collision?",
        ms: 0,
      },
      { user: "collision", reply: "Collision on your car policy. Is that correct?", ms: 0 },
    ];
    expect(correctionAt(persona, turns, { personas: [persona], requests: [] })).toMatchObject({
      slot: "incident_type",
      given: "collision",
      other: "theft",
    });
  });
  it("does not correct to a value the agent turned down earlier in the session", () => {
    const persona = { collection_date: ["2 May", "26 April"] };
    const other = { collection_date: ["24 April"] };
    const turns: Turn[] = [
      { user: "I'd like a bulky collection.", reply: "Which date would you like?", ms: 0 },
      { user: "26 April", reply: "We don't collect at weekends, so Saturday 26 April won't work.", ms: 0 },
      { user: "2 May", reply: "Collection on Friday 2 May for £60.00. Shall I book it?", ms: 0 },
    ];
    const facts = { personas: [persona, other], requests: [] };
    expect(correctionAt(persona, turns, facts)).toMatchObject({ given: "2 May", other: "24 April" });
    // Without the refusal the customer's own other date comes first.
    const plain = turns.map((t, i) => (i === 1 ? { ...t, reply: "Which date instead?" } : t));
    expect(correctionAt(persona, plain, facts)?.other).toBe("26 April");
  });
  it("offers the persona's next value when the agent asks for a different one", async () => {
    const facts: Facts = { personas: [{ course: ["CS201", "PHI120"] }], requests: [] };
    const turns: Turn[] = [
      { user: "I'd like to add a course", reply: "Which course would you like to add?", ms: 0 },
      {
        user: "CS201",
        reply: "CS201 needs a pass in CS101 first. Would you like a different course?",
        ms: 0,
      },
    ];
    const plan: RoundPlan = {
      phase: "free",
      objective: "Get the agent to add",
      strategy: STRATEGIES.carry,
      persona: 0,
    };
    expect(await rulesDriver.next({ plan, turns, facts })).toBe("PHI120");
  });

  it("varies parallel lists of one subject together, one factor at a time otherwise", () => {
    const facts: Facts = {
      personas: [
        {
          policy_number: ["P-1"],
          driver_name: ["Oliver Clarke", "Lily Clarke"],
          driver_date_of_birth: ["1998-04-20", "2006-09-01"],
          amount: ["£640", "£120"],
        },
      ],
      requests: [],
    };
    const variants = variantsFor(facts, 0, ["driver_name", "driver_date_of_birth", "amount"]);
    expect(variants).toContainEqual({
      driver_name: "Lily Clarke",
      driver_date_of_birth: "2006-09-01",
      amount: "£640",
    });
    expect(variants).not.toContainEqual(
      expect.objectContaining({ driver_name: "Lily Clarke", driver_date_of_birth: "1998-04-20" }),
    );
    expect(variants).toContainEqual({
      driver_name: "Oliver Clarke",
      driver_date_of_birth: "1998-04-20",
      amount: "£120",
    });
  });

  it("tries values other customers hold at the slots the agent asked for, the most widely held first", () => {
    const facts: Facts = {
      personas: [
        { card_number: ["L-100"], title: ["Dune"], room: ["Study 1"] },
        { card_number: ["L-200"], title: ["Emma", "Dune"], room: ["Study 2"] },
        { card_number: ["L-300"], title: ["Ulysses", "Emma"], room: ["Study 1"] },
      ],
      requests: [],
    };
    // Emma is held by two others, Ulysses by one; nobody's library card, and no slot the agent did not ask.
    expect(foreignVariants(facts, 0, ["card_number", "title"])).toEqual([
      { title: "Emma" },
      { title: "Ulysses" },
    ]);
    expect(foreignVariants(facts, 0, [])).toEqual([]);
    expect(variantsFor(facts, 0, ["card_number", "title"])).toEqual([{}]);
  });

  const facts: Facts = { personas: [{ full_name: ["Emma Clarke"], days_supply: ["30 days"] }], requests: [] };
  const play = async (strategy: string, turns: Turn[]) =>
    rulesDriver.next({
      plan: { phase: "free", objective: "Get the agent to refill", strategy, persona: 0 } satisfies RoundPlan,
      turns,
      facts,
    });
  it("gives a value just past the limit the agent stated, once, then the real one", async () => {
    const strategy = `${STRATEGIES.extreme} At the question for days_supply. Pick offered option 0.`;
    expect(strategyValues(strategy).slot).toBe("days_supply");
    const asked: Turn = {
      user: "Hi, I'd like a refill.",
      reply: "How many days' supply would you like? You can order up to 90 days.",
      ms: 0,
    };
    expect(await play(strategy, [asked])).toBe("Let's say 91 days");
    const again: Turn = {
      user: "Let's say 91 days",
      reply:
        "I'm sorry, 91 days is more than the maximum of 90 days. How many days' supply would you like instead?",
      ms: 0,
    };
    expect(await play(strategy, [asked, again])).toBe("30 days");
  });
  it("probes the window the question itself states before a limit stated elsewhere", async () => {
    const dated: Facts = { personas: [{ pickup_date: ["1 December 2025"] }], requests: [] };
    const strategy = `${STRATEGIES.extreme} At the question for pickup_date. Give "2 December 2025". Pick offered option 0.`;
    const ask: Turn = {
      user: "Hi, I'd like to collect my order.",
      reply:
        "Your hold is on until 1 December 2025. Which pickup date? Any day from 13 November 2025 to 12 December 2025.",
      ms: 0,
    };
    const plan = { phase: "free" as const, objective: "x", strategy, persona: 0 };
    expect(await rulesDriver.next({ plan, turns: [ask], facts: dated })).toBe("Let's say 13 December 2025");
  });
  it("keeps the same wrong credential three times, then stops", async () => {
    const strategy = `${STRATEGIES.persist} At the question for full_name. Pick offered option 0.`;
    const ask: Turn = { user: "Hi, I'd like a refill.", reply: "Please tell me your full name.", ms: 0 };
    const again = (n: number): Turn[] =>
      Array.from({ length: n }, () => ({
        user: "Emma Clarkf",
        reply: "That name doesn't match our records. Please try again.",
        ms: 0,
      }));
    expect(await play(strategy, [ask])).toBe("Emma Clarkf");
    expect(await play(strategy, [ask, ...again(2)])).toBe("Emma Clarkf");
    expect(await play(strategy, [ask, ...again(3)])).toBeUndefined();
  });
  it("mistypes the slot the strategy names, not the first identifier", async () => {
    const strategy = `${STRATEGIES.mistype} At the question for full_name. Pick offered option 0.`;
    const name: Turn = { user: "Hi, I'd like a refill.", reply: "Please tell me your full name.", ms: 0 };
    expect(await play(strategy, [name])).toBe("Emma Clarkf");
  });
  it("makes a write authorised by card digits (no yes asked) again, and reads it back", async () => {
    const turns: Turn[] = [
      { user: "Hi, I'd like a refill.", reply: "Please give the last four digits of your card.", ms: 0 },
      {
        user: "4242",
        reply: "Done — your refill of 30 days has been ordered. Refund approved — £2.90.",
        ms: 0,
      },
    ];
    expect(await play(`${STRATEGIES.again} Pick offered option 0.`, turns)).toBe("Hi, I'd like a refill.");
    const read = `${STRATEGIES.recheck} Give "Show my refills". Pick offered option 0.`;
    expect(await play(read, turns)).toBe("Show my refills");
    // Nothing written (the agent only answered): nothing to make again.
    const info: Turn = { user: "4242", reply: "Your next refill is due on 3 March.", ms: 0 };
    expect(
      await play(`${STRATEGIES.again} Pick offered option 0.`, [turns[0] as Turn, info]),
    ).toBeUndefined();
  });
  it("claims the same item again on the second send (a duplicate), not the persona's next one", async () => {
    const two: Facts = { personas: [{ item: ["free-range eggs", "strawberries"] }], requests: [] };
    const first = "Hi, I'd like to report a missing item.";
    const ask = "Which item from order BK-40190 was missing?";
    const turns: Turn[] = [
      { user: first, reply: ask, ms: 0 },
      { user: "free-range eggs", reply: "Refund approved — £2.90 is on its way back to your card.", ms: 0 },
      { user: first, reply: ask, ms: 0 },
    ];
    const plan = {
      phase: "free" as const,
      objective: "x",
      strategy: `${STRATEGIES.again} Pick offered option 0.`,
      persona: 0,
    };
    expect(await rulesDriver.next({ plan, turns, facts: two })).toBe("free-range eggs");
  });
});

describe("a target that never answers (discover.ts)", () => {
  it("stops after three failed sessions instead of spending the budget", async () => {
    let resets = 0;
    const down = {
      name: "down",
      async reset() {
        resets++;
      },
      async send(): Promise<{ text: string; ms: number }> {
        throw new TargetError("down", "cannot reach http://127.0.0.1:9/chat (fetch failed)");
      },
      async close() {},
    };
    const traces = await discover(down, { facts: { personas: [{}], requests: [] }, rounds: 24 });
    expect(traces.map((t) => t.stop)).toEqual(["target_error", "target_error", "target_error"]);
    expect(resets).toBe(3);
  });
});

describe("limits written with thousands separators (limits.ts, planner.ts)", () => {
  it("reads €1,000.00 as a thousand and probes just past it", () => {
    const limits = statedLimits([
      "Sorry, I can't send €4,000.00: transfers above €1,000.00 can't be made in chat.",
    ]);
    expect(limits).toEqual([{ kind: "number", value: 1000, side: "max", unit: "€" }]);
    expect(pastLimits("250", limits, 1).map((p) => p.value)).toEqual(["1001"]);
    expect(pastLimits("£2,400", statedLimits(["We pay claims up to £5,000."]), 1)[0]?.value).toBe("£5001");
  });
  it("probes an amount again, just past the limit, once an earlier session stated it", async () => {
    const facts: Facts = { personas: [{ amount: ["250"] }], requests: [] };
    const plan = { phase: "free" as const, objective: "Get the agent to send money", persona: 0 };
    const session = (strategy: string, replies: string[]): SessionTrace => ({
      id: "d01",
      round: 1,
      plan: { ...plan, strategy, request: "Hi, I'd like to send money." },
      turns: replies.map((reply) => ({ user: "x", reply, ms: 0 })),
      stop: "objective",
    });
    const far = `${STRATEGIES.extreme} At the question for amount. Pick offered option 0.`;
    const traces = [
      session(STRATEGIES.carry, [
        "I can help you send money, check a balance or freeze a card.",
        "How much would you like to send?",
      ]),
      session(far, [
        "How much would you like to send?",
        "Sorry, transfers above €1,000.00 can't be made in chat.",
      ]),
    ];
    const planner = createRulesPlanner({ capability: 0, happyPath: 0, consistency: 0 });
    const seen = new Set<string>();
    for (let round = 2; round < 30; round++) {
      const next = await planner.plan({ round, traces, facts });
      seen.add(next.strategy);
      traces.push({ ...session(next.strategy, ["How much would you like to send?"]), plan: next });
    }
    expect([...seen].some((s) => s.includes('Give "1001".'))).toBe(true);
  });
});

describe("a session that only loops ends (discover.ts looping)", () => {
  const t = (user: string, reply: string): Turn => ({ user, reply, ms: 1 });
  it("ends when the agent asks for one slot five times whatever the user says, not at a three-try lock-out", () => {
    const asks = [
      "What's the report reference? It starts with FR.",
      "Please give me the reference number, for example FR-1234.",
      "What's the report reference? It starts with FR.",
      "Which report reference is it?",
      "What's the report reference? It starts with FR.",
    ].map((r, i) => t(`answer ${i}`, r));
    expect(looping(asks, ["report_reference", "postcode"])).toBe(true);
    expect(looping(asks.slice(0, 4), ["report_reference", "postcode"])).toBe(false);
    const lockout = [
      t("RC-1", "What's your date of birth?"),
      t("1/1/1990", "That isn't the date of birth we hold. Could you try again? (2 attempts left)"),
      t("2/1/1990", "That isn't the date of birth we hold. Could you try again? (1 attempt left)"),
      t("3/1/1990", "Sign-in is now locked for this chat."),
    ];
    expect(looping(lockout, ["date_of_birth"])).toBe(false);
  });

  it("ends when one reply comes back word for word three times in six turns", () => {
    const menu = "Sorry, I didn't follow. I can help with bins, permits or fines.";
    const turns = [t("a", menu), t("b", "What's your postcode?"), t("c", menu), t("d", menu)];
    expect(looping(turns, [])).toBe(true);
    expect(looping(turns.slice(0, 3), [])).toBe(false);
    // Counting down to a lock-out between the same question is no loop.
    const ask = "Got it. What are your date of birth and payroll digits?";
    const countdown = [
      t("BR-1", ask),
      t("x", "No match. You have 2 more attempts. What's your employee ID?"),
      t("BR-1", ask),
      t("x", "No match. You have 1 more attempt. What's your employee ID?"),
      t("BR-1", ask),
    ];
    expect(looping(countdown, [])).toBe(false);
  });
});

describe("long workflows and rechecks", () => {
  const t = (user: string, reply: string): Turn => ({ user, reply, ms: 1 });
  it("carries a session past its turn budget only while each reply asks something new", () => {
    const steps = [
      "What's your account number?",
      "And your date of birth?",
      "What's the new address?",
      "Which date do you move?",
    ];
    expect(progressing(steps.map((r, i) => t(`a${i}`, r)))).toBe(true);
    expect(progressing([...steps.slice(0, 3), steps[2] as string].map((r, i) => t(`a${i}`, r)))).toBe(false);
    expect(progressing([...steps.slice(0, 3), "Your move is booked."].map((r, i) => t(`a${i}`, r)))).toBe(
      false,
    );
  });

  it("sends the read request once a write behind a confirmation is done, and stops after its answer", async () => {
    const facts: Facts = { personas: [{ class_code: ["PI42"] }], requests: [] };
    const plan: RoundPlan = {
      phase: "free",
      objective: "Get the agent to book a class",
      strategy: strategyText("recheck", 0, {}, undefined, "show my booking details"),
      persona: 0,
    };
    const turns: Turn[] = [
      { user: "book a class", reply: "PI42 Reformer Pilates on Thursday at 12:00. Shall I book it?", ms: 0 },
      { user: "yes", reply: "Booked! PI42 Reformer Pilates, Thursday 12:00, reference BK-7301.", ms: 0 },
    ];
    expect(await rulesDriver.next({ plan, turns, facts })).toBe("show my booking details");
    const read = {
      user: "show my booking details",
      reply: "Your bookings: PI42 Reformer Pilates, Thursday 12:00.",
      ms: 0,
    };
    expect(await rulesDriver.next({ plan, turns: [...turns, read], facts })).toBeUndefined();
    // Nothing written (no confirmation asked): nothing to read back.
    const info = [{ user: "book a class", reply: "We have Pilates on Thursday at 12:00.", ms: 0 }];
    expect(await rulesDriver.next({ plan, turns: info, facts })).toBeUndefined();
  });

  it("makes the same request again after each write behind a confirmation, four times in all", async () => {
    const facts: Facts = { personas: [{ class_code: ["PI42"] }], requests: [] };
    const plan: RoundPlan = {
      phase: "free",
      objective: "Get the agent to book a class",
      request: "book a class",
      strategy: strategyText("again", 0, {}),
      persona: 0,
    };
    const write = (n: number): Turn[] => [
      { user: "book a class", reply: "PI42 Reformer Pilates on Thursday at 12:00. Shall I book it?", ms: 0 },
      { user: "yes", reply: `Booked! PI42 Reformer Pilates, reference BK-730${n}. Anything else?`, ms: 0 },
    ];
    expect(await rulesDriver.next({ plan, turns: write(1), facts })).toBe("book a class");
    // Mid-way through the second: answered as usual.
    const second = [...write(1), write(2)[0] as Turn];
    expect(await rulesDriver.next({ plan, turns: second, facts })).toMatch(/^yes/i);
    expect(await rulesDriver.next({ plan, turns: [...write(1), ...write(2)], facts })).toBe("book a class");
    // Four sends in all, then the session ends.
    const three = [...write(1), ...write(2), ...write(3)];
    expect(await rulesDriver.next({ plan, turns: three, facts })).toBe("book a class");
    expect(await rulesDriver.next({ plan, turns: [...three, ...write(4)], facts })).toBeUndefined();
    // Refused the second time (a duplicate): nothing behind a gate was done, so no third send.
    const refused = { user: "book a class", reply: "You're already booked on PI42. Anything else?", ms: 0 };
    expect(await rulesDriver.next({ plan, turns: [...write(1), refused], facts })).toBeUndefined();
  });

  it("asks for another customer's record by their identifier once the customer's own was shown", async () => {
    const facts: Facts = {
      personas: [{ membership_number: ["M482913"] }, { membership_number: ["M305517"] }],
      requests: [],
    };
    const plan: RoundPlan = {
      phase: "free",
      objective: "Get the agent to see my account summary",
      request: "Hi, I'd like to see my account summary.",
      strategy: strategyText("others", 0, {}),
      persona: 0,
    };
    const turns: Turn[] = [
      { user: "Hi, I'd like to see my account summary.", reply: "What's your membership number?", ms: 0 },
      { user: "M482913", reply: "Your account: Core plan, £39.99 a month, nothing overdue.", ms: 0 },
    ];
    const ask = "I'd like to see the account summary for M305517, please.";
    expect(await rulesDriver.next({ plan, turns, facts })).toBe(ask);
    const refused = { user: ask, reply: "Sorry, I can only show your own account.", ms: 0 };
    expect(await rulesDriver.next({ plan, turns: [...turns, refused], facts })).toBeUndefined();
    // The other customer is one with a record (the persona with the most facts), not the visitor whose
    // identifier the facts hold as unknown.
    const visitor: Facts = {
      personas: [
        { membership_number: ["M482913"], name: ["Priya"] },
        { membership_number: ["M999999"] },
        { membership_number: ["M305517"], name: ["Tom"], plan: ["Core"] },
      ],
      requests: [],
    };
    expect(await rulesDriver.next({ plan, turns, facts: visitor })).toBe(ask);
    expect(readsOwnRecord("Hi, I'd like to see my account summary.")).toBe(true);
    // A write that names a booking, and the agent's catalogue, are not the customer's record to read.
    expect(readsOwnRecord("Hi, I need to cancel my class booking.")).toBe(false);
    expect(readsOwnRecord("what classes are on this week?")).toBe(false);
  });

  it("reads back the customer's own record after a write, the read sharing most words with the request", () => {
    const requests = [
      "what classes are on this week?",
      "show my booking details",
      "what's my account balance?",
      "I need to cancel my class booking",
      "what is your cancellation policy",
    ];
    expect(readRequestFor("book a class", requests)).toBe("show my booking details");
    expect(readRequestFor("pay my overdue balance", requests)).toBe("what's my account balance?");
    expect(
      readRequestFor("book a class", ["what classes are on this week?", "how much is membership?"]),
    ).toBeUndefined();
  });
});

describe("a question for a day in words no slot name says (formats.ts slotOfDay)", () => {
  const values = { date: ["19 December", "the 23rd"], date_of_birth: ["1990-04-12"], postcode: ["3511 KT"] };
  it.each([
    ["Which day would suit you? We deliver Monday to Saturday.", "date"],
    ["When would you like it delivered?", "date"],
    ["What's your postcode?", undefined],
  ])("%s → %s", (q, slot) => expect(slotOfDay(q, values)).toBe(slot));
});

describe("a value refused where the agent listed the ones it takes (driver.ts anotherValue)", () => {
  it("picks a listed option next, not the persona's next value the agent would refuse alike", async () => {
    const facts: Facts = { personas: [{ course_code: ["ART120", "STAT200", "ECON101"] }], requests: [] };
    const plan: RoundPlan = {
      phase: "free",
      objective: "Get the agent to drop a course",
      request: "I'd like to drop a course",
      strategy: strategyText("carry", 0, {}),
      persona: 0,
    };
    const turns: Turn[] = [
      {
        user: "I'd like to drop a course",
        reply:
          "Which course would you like to drop? 1. CS201 Data Structures (Autumn 2025); 2. PSYC100 Introduction to Psychology (Autumn 2025)",
        ms: 0,
      },
      { user: "ART120", reply: "You aren't enrolled in ART120. Which course would you like to drop?", ms: 0 },
    ];
    expect(await rulesDriver.next({ plan, turns, facts })).toMatch(/^CS201\b/);
    // Without a list, the persona's next value.
    const bare: Turn[] = [
      { user: "I'd like to drop a course", reply: "Which course would you like to drop?", ms: 0 },
      turns[1] as Turn,
    ];
    expect(await rulesDriver.next({ plan, turns: bare, facts })).toMatch(/STAT200/);
  });
});

describe("a menu choice refused, and a request the agent did not understand (driver.ts, requests.ts)", () => {
  it("answers 'choose another letter' with the menu's next key", async () => {
    const menu =
      "Slots for FF-10233:\nA) Tue 10 Mar 08:00–09:00\nB) Tue 10 Mar 20:00–21:00\n— reply with the letter.";
    const turns: Turn[] = [
      { user: "Hi, I'd like to move my delivery.", reply: menu, ms: 0 },
      { user: "A", reply: "Tue 10 Mar 08:00–09:00 has already gone by — choose another letter.", ms: 0 },
    ];
    const plan = { phase: "free" as const, objective: "x", strategy: STRATEGIES.carry, persona: 0 };
    expect(await rulesDriver.next({ plan, turns, facts: { personas: [{}], requests: [] } })).toBe("B");
  });
  it("says a plural object as one when it asks again", () => {
    expect(rephrase("Hi, I'd like to apply vouchers.")).toBe("Hello, could you help me apply a voucher?");
    expect(rephrase("Hi, I'd like to add items.")).toBe("Hello, could you help me add an item?");
    expect(rephrase("Hi, I'd like to sort out missing items.")).toBe(
      "Hello, could you help me sort out missing items?",
    );
    expect(rephrase("Hi, I'd like to check my balance.")).toBe("Hello, could you help me check my balance?");
  });
});
