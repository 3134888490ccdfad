import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { airlineTarget } from "../src/agents/chat/airline/agent.ts";
import { AIRLINE_FACTS } from "../src/agents/chat/airline/facts.ts";
import { type ChatTarget, TargetError } from "../src/agents/chat/target.ts";
import {
  answerQuestion,
  asksSomething,
  NO_ANSWER,
  offeredCapabilities,
  readQuestion,
  YES_ANSWER,
} from "../src/boundary/answer.ts";
import { sessionKeys, sessionNovelty } from "../src/boundary/coverage.ts";
import { discover, objectiveMet, rulesDriver, STRATEGIES } from "../src/boundary/discover.ts";
import { correction, mistyped } from "../src/boundary/driver-values.ts";
import { Facts, type SessionTrace } from "../src/boundary/types.ts";

/** Phase-guided discovery with the rules planner and driver (AgentEval §III-A) against the reference airline. */

const withoutTimes = (traces: SessionTrace[]) =>
  traces.map((t) => ({ ...t, turns: t.turns.map((u) => ({ user: u.user, reply: u.reply })) }));
const replies = (traces: SessionTrace[]) => traces.flatMap((t) => t.turns.map((u) => u.reply));
/** Gate replies and the user's answer to each. */
const gates = (traces: SessionTrace[]) =>
  traces.flatMap((t) =>
    t.turns.flatMap((u, i) =>
      readQuestion(u.reply)?.kind === "gate" ? [{ gate: u.reply, answer: t.turns[i + 1]?.user }] : [],
    ),
  );
const tmp = () => mkdtempSync(path.join(tmpdir(), "gauntlet-discover-"));

describe("answering the agent (answer.ts)", () => {
  const persona = { user_id: ["mia_li_3668"], reservation_id: ["HAT1A1", "HAT3C3"], bags: ["2"] };

  it("matches the slot a question names by its words", () => {
    expect(answerQuestion("May I have your user id first?", persona)).toBe("My user id is mia_li_3668.");
    expect(answerQuestion("Could you tell me the reservation id?", persona, { pick: 1 })).toBe(
      "My reservation id is HAT3C3.",
    );
    expect(answerQuestion("May I ask why you want to cancel?", { reason: ["health"] })).toBe("health");
    expect(
      answerQuestion("Please tell me the origin, destination and travel date.", {
        route: ["from SFO to JFK"],
      }),
    ).toBe("from SFO to JFK");
  });

  it("answers a confirmation gate yes, or no when declining", () => {
    const gate = "To confirm: cancel HAT1A1. Do you want me to go ahead (yes/no)?";
    expect(answerQuestion(gate, persona)).toBe(YES_ANSWER);
    expect(answerQuestion(gate, persona, { decline: true })).toBe(NO_ANSWER);
  });

  it("picks a listed option by index, skipping the one the agent said is current", () => {
    const ask = "Which cabin would you like: basic economy, economy or business?";
    expect(readQuestion(ask)?.options).toEqual(["basic economy", "economy", "business"]);
    expect(answerQuestion(ask, {}, { pick: 1 })).toBe("economy");
    expect(answerQuestion(ask, {}, { pick: 0, earlier: ["Reservation HAT1A1: economy, 1 passenger."] })).toBe(
      "basic economy",
    );
    expect(answerQuestion(ask, {}, { pick: 1, earlier: ["It is in basic economy."] })).toBe("business");
  });

  it("answers a count with the persona's number and the question's noun, else the default", () => {
    expect(answerQuestion("How many checked bags should the reservation have in total?", persona)).toBe(
      "2 checked bags",
    );
    expect(answerQuestion("How many passengers are travelling?", {}, { defaultCount: 1 })).toBe(
      "1 passenger",
    );
    expect(answerQuestion("How many passengers are travelling?", {})).toBeUndefined();
  });

  it("returns undefined when the reply asks nothing answerable", () => {
    expect(answerQuestion("Done: reservation HAT1A1 is cancelled.", persona)).toBeUndefined();
    expect(answerQuestion("What would you like to do?", persona)).toBeUndefined();
    expect(
      answerQuestion("There is no user x_y_1. Could you check it?", { reason: ["health"] }),
    ).toBeUndefined();
  });

  it("reads the services a reply offers", () => {
    expect(
      offeredCapabilities(
        "I can help you cancel a reservation, change its cabin, add checked bags or search for flights. What would you like?",
      ),
    ).toEqual(["cancel a reservation", "change its cabin", "add checked bags", "search for flights"]);
    expect(offeredCapabilities("I'm sorry, I can't do that: it is flown.")).toEqual([]);
  });
});

describe("discover against the reference airline agent", () => {
  it("the airline facts are valid facts", () => {
    expect(Facts.parse(AIRLINE_FACTS)).toEqual(AIRLINE_FACTS);
  });

  it("24 rounds reach completions, refusals, both gate answers, and every service's information", async () => {
    const traces = await discover(airlineTarget(), { facts: AIRLINE_FACTS });
    expect(traces.map((t) => t.round)).toEqual([...Array(24).keys()]);
    expect(traces.map((t) => t.plan.phase).slice(0, 5)).toEqual([
      "capability",
      "happy_path",
      "happy_path",
      "consistency",
      "free",
    ]);
    const all = replies(traces);
    expect(all.some((r) => /reservation HAT\w+ is cancelled/.test(r))).toBe(true);
    expect(all.some((r) => /not possible|can't do that|not able to help/.test(r))).toBe(true);
    expect(all.some((r) => /details of HAT|^Reservation HAT\w+:/.test(r))).toBe(true);
    expect(all.some((r) => /status of HAT|^Flight HAT\w+ on/.test(r))).toBe(true);
    expect(all.some((r) => /found these flights|Available options/.test(r))).toBe(true);
    const asked = gates(traces);
    expect(asked.some((g) => g.answer === YES_ANSWER)).toBe(true);
    expect(asked.some((g) => g.answer === NO_ANSWER)).toBe(true);
    expect(asked.some((g) => /checked bag/.test(g.gate))).toBe(true);
    expect(asked.some((g) => /on all flights/.test(g.gate))).toBe(true);
    for (const t of traces) {
      expect(t.turns.length).toBeGreaterThan(0);
      expect(t.turns.length).toBeLessThanOrEqual(6);
    }
    expect(traces.every((t) => t.stop === "objective")).toBe(true);
    expect(new Set(traces.map((t) => t.plan.persona))).toEqual(new Set([0, 1, 2]));
  });

  it("is deterministic: two runs give the same traces", async () => {
    const a = await discover(airlineTarget(), { facts: AIRLINE_FACTS });
    const b = await discover(airlineTarget(), { facts: AIRLINE_FACTS });
    expect(withoutTimes(b)).toEqual(withoutTimes(a));
  });

  it("keeps every session within a smaller turn budget", async () => {
    const traces = await discover(airlineTarget(), { facts: AIRLINE_FACTS, rounds: 6, turnBudget: 3 });
    expect(traces.every((t) => t.turns.length <= 3)).toBe(true);
    expect(traces.some((t) => t.stop === "turn_budget")).toBe(true);
  });

  it("resumes from traces.jsonl: a second call runs only the rounds not in the file", async () => {
    const file = path.join(tmp(), "out", "traces.jsonl");
    const first: string[] = [];
    await discover(airlineTarget(), {
      facts: AIRLINE_FACTS,
      rounds: 7,
      file,
      onProgress: (l) => first.push(l),
    });
    expect(first.filter((l) => l.startsWith("discover "))).toHaveLength(7);
    const second: string[] = [];
    const traces = await discover(airlineTarget(), {
      facts: AIRLINE_FACTS,
      rounds: 24,
      file,
      onProgress: (l) => second.push(l),
    });
    expect(second[0]).toBe("discover: 7 of 24 sessions already done, resuming");
    expect(second.filter((l) => l.startsWith("discover "))).toHaveLength(17);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(24);
    const straight = await discover(airlineTarget(), { facts: AIRLINE_FACTS });
    expect(withoutTimes(traces)).toEqual(withoutTimes(straight));
  });

  it("a target error ends that session with target_error and the campaign goes on", async () => {
    const inner = airlineTarget();
    let sends = 0;
    const flaky: ChatTarget = {
      name: "flaky",
      reset: () => inner.reset(),
      close: () => inner.close(),
      async send(text) {
        sends++;
        if (sends === 4) throw new TargetError("flaky", "connection reset");
        return inner.send(text);
      },
    };
    const traces = await discover(flaky, { facts: AIRLINE_FACTS, rounds: 3 });
    expect(traces).toHaveLength(3);
    const failed = traces.filter((t) => t.stop === "target_error");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.error).toBe("flaky: connection reset");
    expect(failed[0]?.turns.at(-1)?.reply).toBe("");
    expect(traces[2]?.stop).toBe("objective");
  });
});

describe("coverage-driven discovery (coverage.ts)", () => {
  it("stops once `patience` sessions in a row find nothing new, and goes on to the budget while they do", async () => {
    // A bot that always says the same thing: nothing new after the first session.
    const parrot: ChatTarget = {
      name: "parrot",
      reset: async () => {},
      close: async () => {},
      send: async () => ({ text: "We are closed today, sorry.", ms: 1 }),
    };
    const lines: string[] = [];
    const flat = await discover(parrot, {
      facts: AIRLINE_FACTS,
      rounds: 4,
      maxRounds: 40,
      patience: 3,
      onProgress: (l) => lines.push(l),
    });
    expect(flat).toHaveLength(4);
    expect(lines.at(-1)).toMatch(/stopping after 4 sessions: the last 3 found no new activity/);
    // A bot whose every session says something new keeps discovery going up to the budget.
    let n = 0;
    const chatty: ChatTarget = {
      ...parrot,
      name: "chatty",
      send: async () => ({
        text: `Ticket ${++n} is ${["open", "closed", "lost", "late"][n % 4]}: ask about topic${n}?`,
        ms: 1,
      }),
    };
    expect(sessionNovelty([], AIRLINE_FACTS)).toEqual([]);
    const grown = await discover(chatty, { facts: AIRLINE_FACTS, rounds: 2, maxRounds: 5, patience: 1 });
    const added = sessionNovelty(grown, AIRLINE_FACTS);
    expect(added[0]).toBeGreaterThan(0);
    expect(grown.length).toBeGreaterThanOrEqual(2);
    expect(grown.length).toBeLessThanOrEqual(5);
    // It stopped exactly when a session added nothing, or at the budget.
    if (grown.length < 5) expect(added.at(-1)).toBe(0);
  });

  it("counts a session's new activities and transitions, not its repeats", () => {
    const trace = (id: string, replies: string[]): SessionTrace => ({
      id,
      round: 0,
      plan: { phase: "free", objective: "o", strategy: "s", persona: 0 },
      turns: replies.map((reply) => ({ user: "hi", reply, ms: 1 })),
      stop: "objective",
    });
    const a = trace("d00", ["Could you tell me your user id?", "Is that correct? Please answer yes or no."]);
    const again = trace("d01", [
      "Could you tell me your user id?",
      "Is that correct? Please answer yes or no.",
    ]);
    const other = trace("d02", ["Is that correct? Please answer yes or no."]);
    expect(sessionKeys(a, AIRLINE_FACTS)).toContain("t:ask_user_id>request_confirmation");
    const [first, second, third] = sessionNovelty([a, again, other], AIRLINE_FACTS);
    expect(first).toBe(5); // 2 activities + start, middle and end transitions
    expect(second).toBe(0);
    expect(third).toBe(1); // only the start → gate transition is new
  });
});

describe("driver tactics past the gate (driver.ts)", () => {
  const facts = Facts.parse({
    personas: [{ account_number: ["4412 9981"], plan: ["Basic", "Max"], destination: ["Japan"] }],
    requests: ["change my plan"],
  });
  const plan = (strategy: string) => ({ phase: "free" as const, objective: "o", strategy, persona: 0 });

  it("mistypes an identifier's last digit, then gives the right one when asked again", async () => {
    expect(mistyped("4412 9981")).toBe("4412 9982");
    expect(mistyped("HAT3C3")).toBe("HAT3C4");
    expect(mistyped("ABCD")).toBe("ABCE");
    // A date stays a valid date: its day is typed one lower, not as "00".
    expect(mistyped("2004-03-09")).toBe("2004-03-08");
    const p = plan(STRATEGIES.mistype);
    const ask = { user: "Hi, I'd like to change my plan.", reply: "What is your account number?", ms: 1 };
    expect(await rulesDriver.next({ plan: p, turns: [ask], facts })).toBe("4412 9982");
    const retry = {
      user: "4412 9982",
      reply: "Hmm, I can't find that account. Please check it and try again.",
      ms: 1,
    };
    expect(await rulesDriver.next({ plan: p, turns: [ask, retry], facts })).toBe("4412 9981");
  });

  it("types the value just given once more when asked to re-enter it to confirm", async () => {
    const pins = Facts.parse({
      personas: [{ profile_name: ["Leo"], new_pin: ["4826", "7305"], weak_pin: ["1234"] }],
    });
    const p = plan(STRATEGIES.carry);
    const turns = [
      {
        user: "set a PIN",
        reply: "Which profile would you like to lock with a PIN? You have Maya, Leo and Nana.",
        ms: 1,
      },
      { user: "Leo", reply: "What 4-digit PIN would you like for Leo's profile?", ms: 1 },
    ];
    expect(await rulesDriver.next({ plan: p, turns: turns.slice(0, 1), facts: pins })).toBe("Leo");
    expect(await rulesDriver.next({ plan: p, turns, facts: pins })).toBe("4826");
    const again = [
      ...turns,
      { user: "4826", reply: "Got it. Please type the new PIN once more to confirm.", ms: 1 },
    ];
    expect(await rulesDriver.next({ plan: p, turns: again, facts: pins })).toBe("4826");
    for (const reply of [
      "Just to be safe, enter the same 4-digit PIN again.",
      "Thanks! Could you re-enter the PIN so I know there's no typo?",
    ])
      expect(
        await rulesDriver.next({ plan: p, turns: [...turns, { user: "4826", reply, ms: 1 }], facts: pins }),
      ).toBe("4826");
  });

  it("types the last four digits of the card just given when asked for them again", async () => {
    const cards = Facts.parse({
      personas: [{ new_card_number: ["4111 1111 1111 1234"], card_expiry: ["08/27"] }],
    });
    const turns = [
      { user: "change my card", reply: "Which card should we use? Send me the new card number.", ms: 1 },
      {
        user: "4111 1111 1111 1234",
        reply: "What's the card expiry date? Month and year, like 08/27.",
        ms: 1,
      },
      {
        user: "08/27",
        reply: "Last step: type the last four digits of the new card again so I know it's right.",
        ms: 1,
      },
    ];
    const p = plan(STRATEGIES.carry);
    expect(await rulesDriver.next({ plan: p, turns: turns.slice(0, 1), facts: cards })).toBe(
      "4111 1111 1111 1234",
    );
    expect(await rulesDriver.next({ plan: p, turns, facts: cards })).toBe("1234");
  });

  it("corrects a value the gate reads back, once, then answers yes", async () => {
    const p = plan(STRATEGIES.correct);
    const turns = [
      { user: "Hi, I'd like to change my plan.", reply: "Which plan would you like: Basic or Max?", ms: 1 },
      { user: "Basic", reply: "I'll switch you to Basic at €10 a month. Shall I proceed?", ms: 1 },
    ];
    const fix = await rulesDriver.next({ plan: p, turns, facts });
    expect(fix).toBe("Actually, please make it Max instead of Basic.");
    const after = [
      ...turns,
      { user: fix as string, reply: "Updated: Max at €30 a month. Shall I proceed?", ms: 1 },
    ];
    expect(await rulesDriver.next({ plan: p, turns: after, facts })).toBe(YES_ANSWER);
    expect(correction(p, [turns[0] as (typeof turns)[0]], facts)).toBeUndefined();
  });

  it("reads 'please try again' as asking for the last slot again, not as an outcome", () => {
    expect(
      asksSomething("That's not the code we sent. Please check the SMS and try again (2 tries left)."),
    ).toBe(true);
    expect(
      objectiveMet(plan(STRATEGIES.carry), [{ user: "1", reply: "Sorry, please try again.", ms: 1 }]),
    ).toBe(false);
  });
});
