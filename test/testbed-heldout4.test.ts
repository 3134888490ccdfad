import { describe, expect, it } from "vitest";
import { HELDOUT4_FAULTS, heldout4Agent } from "../bench/agents/heldout4.ts";
import { RESPONSES } from "../bench/agents/heldout4-data.ts";

/** Send `turns` to a fresh session of the held-out gym agent; replies, states and fingerprint. */
async function talk(turns: readonly string[], faults: readonly string[] = [], seed = 1) {
  const target = heldout4Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

const writes = (fp: string) => (JSON.parse(fp) as { writes: Record<string, unknown>[] }).writes;

const PRIYA = ["M482913", "my first pet was Biscuit"];
const TOM = ["M305517", "Kowalski"];
const GRACE = ["M719024", "Galway"];
const DANIEL = ["M660281", "Mr Hughes"];
const SAM = ["M551870", "Fiesta"];

/** Scripted conversations: every flow, its refusals, corrections, the lock-out and the hand-off. */
const SCRIPTS: Record<string, readonly string[]> = {
  book: ["hi", "I want to book a class", ...PRIYA, "KB12", "yes", "thanks bye"],
  bookRefusals: [
    "book me into ZZ99 please",
    ...PRIYA,
    "AQ17",
    "SP11",
    "ST08",
    "CY30",
    "PI42",
    "HI33",
    "yes",
    "no",
  ],
  tomFlow: [
    "I would like to book BX05",
    ...TOM,
    "ok, pay my balance",
    "yes",
    "book BX05",
    "KB12",
    "yes",
    "and book YO22 too",
    "no thanks",
  ],
  tomRefusals: [
    "can I pause my membership?",
    ...TOM,
    "can I bring a friend?",
    "upgrade me to core",
    "thanks",
  ],
  daniel: [
    "can I book KB12?",
    ...DANIEL,
    "then I would like to bring a guest",
    "what about freezing my membership",
    "downgrade to flex",
    "cancel my booking",
  ],
  cancel: ["I need to cancel a booking", ...PRIYA, "HI33", "the second one", "actually PI42 instead", "yes"],
  cancelLate: ["I can't make the class tonight, please cancel YO21", ...PRIYA, "yes"],
  cancelStarted: ["cancel my SP11 booking", ...PRIYA, "thanks"],
  freeze: [
    "I want to freeze my membership",
    ...PRIYA,
    "9 weeks",
    "3",
    "10 January 2026",
    "1 December",
    "start on 24 November instead",
    "yes",
    "can I freeze it again?",
  ],
  grace: ["freeze my membership", ...GRACE, "I want a guest pass", "switch to core", "yes"],
  guest: [
    "can I get a guest pass?",
    ...PRIYA,
    "Grace Okoro",
    "Leo Martin",
    "30 November 2025",
    "Saturday",
    "yes",
    "and another guest pass for Mia Wong",
  ],
  plan: ["I would like to change my plan", ...PRIYA, "core", "elite", "yes", "can I downgrade to flex?"],
  payNothing: ["pay my balance", ...PRIYA],
  account: ["show me my account", ...GRACE, "and the account of M482913"],
  lock: ["what is my next payment?", "M999999", "M482913", "rover", "rex", "fido", "yes", "hello?"],
  lockThenRight: ["what is my next payment?", "M482913", "rover", "rex", "fido", "biscuit"],
  ended: ["I want to book SP14", ...SAM],
  misc: [
    "hello",
    "blah blah",
    "what can you do?",
    "what classes are on this week?",
    "how much is membership?",
    "I want to cancel my membership",
    "no",
    "can I talk to a real person?",
  ],
  dropped: ["I want to book KB12", ...PRIYA, "no, leave it"],
  hesitant: ["book KB12 for me", ...PRIYA, "how long is it?", "yes"],
};

/** For each seeded fault, a conversation in which it acts. */
const WHERE: Record<(typeof HELDOUT4_FAULTS)[number], string> = {
  skipSecurityQuestion: "book",
  lockAfterFourth: "lockThenRight",
  skipConfirmation: "book",
  confirmOnAnything: "hesitant",
  ignoreTier: "tomFlow",
  ignoreCancelledClass: "bookRefusals",
  bookingLimitOffByOne: "tomFlow",
  waitlistTakesSeat: "bookRefusals",
  noLateFee: "cancelLate",
  cancelStartedClass: "cancelStarted",
  freezeLimitOffByOne: "freeze",
  ignoreYearlyFreeze: "grace",
  ignoreGuestAllowance: "grace",
  forgetDateCorrection: "freeze",
  accountLeak: "account",
  memberLeak: "guest",
  wrongProration: "plan",
  wrongResumeDate: "freeze",
  wrongClassTime: "book",
  guestNameSwap: "guest",
  arrearsNotCleared: "tomFlow",
};

describe("the held-out gym testbed agent (bench/agents/heldout4.ts)", () => {
  it("declares its faults, states and facts", () => {
    expect(heldout4Agent.name).toBe("heldout4");
    expect(heldout4Agent.faults.length).toBeGreaterThanOrEqual(15);
    expect(heldout4Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(new Set(heldout4Agent.states).size).toBe(heldout4Agent.states.length);
    expect(heldout4Agent.facts.personas.length).toBeGreaterThanOrEqual(4);
    expect(heldout4Agent.facts.requests.length).toBeGreaterThanOrEqual(5);
    for (const variants of Object.values(RESPONSES)) {
      expect(variants.length).toBeGreaterThanOrEqual(2);
      expect(variants.length).toBeLessThanOrEqual(4);
    }
  });

  it("an unknown fault id throws", () => {
    expect(() => heldout4Agent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
  });

  it("the scripted flows reach every designed state, and only designed states", async () => {
    const seen = new Set<string>();
    for (const turns of Object.values(SCRIPTS)) for (const s of (await talk(turns)).states) seen.add(s);
    for (const s of seen) expect(heldout4Agent.states).toContain(s);
    expect(heldout4Agent.states.filter((s) => !seen.has(s))).toEqual([]);
  });

  it("verifies by security answer and writes only after a yes", async () => {
    const clean = await talk(SCRIPTS.book as string[]);
    expect(clean.states).toEqual([
      "greet",
      "auth.ask_number",
      "auth.ask_security",
      "book.ask_class",
      "book.confirm",
      "book.done",
      "goodbye",
    ]);
    expect(writes(clean.fingerprint)).toEqual([
      {
        kind: "booking",
        member: "M482913",
        class: "KB12",
        start: "2025-11-18T19:00",
        ref: "BK-7301",
        turn: 6,
      },
    ]);
    expect(writes((await talk((SCRIPTS.book as string[]).slice(0, 5))).fingerprint)).toHaveLength(0);
    const dropped = await talk(SCRIPTS.dropped as string[]);
    expect(dropped.states.at(-1)).toBe("request.dropped");
    expect(writes(dropped.fingerprint)).toHaveLength(0);
    const hesitant = await talk(SCRIPTS.hesitant as string[]);
    expect(hesitant.states.slice(-3)).toEqual(["book.confirm", "book.confirm", "book.done"]);
    const lock = await talk(SCRIPTS.lock as string[]);
    expect(lock.states.slice(-3)).toEqual(["auth.locked", "handoff", "handoff"]);
    expect((await talk(SCRIPTS.lockThenRight as string[])).states.at(-1)).toBe("fallback");
    expect((await talk(SCRIPTS.ended as string[])).states.at(-1)).toBe("auth.membership_ended");
  });

  it("computes fees, charges and dates, and takes corrections at the read-back", async () => {
    const cancel = await talk(SCRIPTS.cancel as string[]);
    expect(cancel.states.slice(-3)).toEqual(["cancel.confirm_fee", "cancel.confirm", "cancel.done"]);
    expect(writes(cancel.fingerprint)[0]).toMatchObject({ class: "PI42", fee: 0 });
    expect(writes((await talk(SCRIPTS.cancelLate as string[])).fingerprint)[0]).toMatchObject({
      class: "YO21",
      fee: 5,
    });
    const freeze = await talk(SCRIPTS.freeze as string[]);
    expect(writes(freeze.fingerprint)).toEqual([
      {
        kind: "freeze",
        member: "M482913",
        start: "2025-11-24",
        weeks: 3,
        resume: "2025-12-15",
        fee: 12,
        turn: 9,
      },
    ]);
    expect(freeze.states.at(-1)).toBe("freeze.refused_yearly");
    expect(writes((await talk(SCRIPTS.plan as string[])).fingerprint)[0]).toMatchObject({
      to: "elite",
      charge: 14.67,
    });
    expect(writes((await talk(SCRIPTS.grace as string[])).fingerprint)[0]).toMatchObject({
      to: "core",
      charge: 0,
      effective: "2025-11-20",
    });
    const guest = await talk(SCRIPTS.guest as string[]);
    expect(writes(guest.fingerprint)[0]).toMatchObject({ guest: "Leo Martin", date: "2025-11-15" });
    expect(guest.states.at(-1)).toBe("guest.refused_none_left");
  });

  it("keeps per-session state: a payment lifts the booking block, bookings count toward the limit", async () => {
    const tom = await talk(SCRIPTS.tomFlow as string[]);
    expect(tom.states).toEqual(
      expect.arrayContaining(["book.refused_arrears", "pay.done", "book.refused_tier", "book.refused_limit"]),
    );
    expect(writes(tom.fingerprint).map((w) => w.kind)).toEqual(["payment", "booking"]);
  });

  it("refuses with the guard that applies", async () => {
    const states = async (name: string) => (await talk(SCRIPTS[name] as string[])).states;
    expect(await states("bookRefusals")).toEqual(
      expect.arrayContaining([
        "book.unknown_class",
        "book.refused_cancelled",
        "book.refused_started",
        "book.refused_closed",
        "book.refused_too_early",
        "book.already",
        "book.full",
        "book.waitlisted",
      ]),
    );
    expect(await states("daniel")).toEqual([
      "auth.ask_number",
      "auth.ask_security",
      "book.refused_frozen",
      "guest.refused_frozen",
      "freeze.refused_already_frozen",
      "plan.refused_downgrade",
      "cancel.no_bookings",
    ]);
    expect(await states("tomRefusals")).toEqual(
      expect.arrayContaining(["freeze.refused_min_term", "guest.refused_plan", "plan.refused_arrears"]),
    );
    expect(await states("cancelStarted")).toContain("cancel.refused_started");
    expect(await states("account")).toContain("account.refused_other");
  });

  it.each(HELDOUT4_FAULTS)("fault %s changes the outcome of the conversation it acts in", async (fault) => {
    const turns = SCRIPTS[WHERE[fault]] as string[];
    const clean = await talk(turns);
    const faulty = await talk(turns, [fault]);
    expect(faulty.fingerprint).not.toBe(clean.fingerprint);
    expect(clean.fingerprint).toBe((await talk(turns)).fingerprint);
  });

  it("a fault leaves conversations it does not act in alone", async () => {
    const clean = await talk(SCRIPTS.daniel as string[]);
    for (const fault of ["wrongProration", "guestNameSwap", "memberLeak", "noLateFee", "wrongClassTime"])
      expect((await talk(SCRIPTS.daniel as string[], [fault])).fingerprint).toBe(clean.fingerprint);
  });

  it("the seed picks the wording, not the behaviour", async () => {
    for (const turns of Object.values(SCRIPTS)) {
      const a = await talk(turns, [], 1);
      const b = await talk(turns, [], 7);
      expect(a.replies).toEqual((await talk(turns, [], 1)).replies);
      expect(a.states).toEqual(b.states);
      expect(a.fingerprint).toBe(b.fingerprint);
    }
    const a = await talk(SCRIPTS.book as string[], [], 1);
    expect(a.replies).not.toEqual((await talk(SCRIPTS.book as string[], [], 7)).replies);
  });

  it("reset() starts a fresh session", async () => {
    const target = heldout4Agent.create();
    for (const t of SCRIPTS.book as string[]) await target.send(t);
    expect(writes(target.fingerprint())).toHaveLength(1);
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(writes(target.fingerprint())).toHaveLength(0);
    await target.send("show me my account");
    expect(target.statesVisited()).toEqual(["auth.ask_number"]);
    for (const t of [...PRIYA, "book KB12", "yes"]) await target.send(t);
    expect(writes(target.fingerprint())[0]).toMatchObject({ class: "KB12", ref: "BK-7301" });
  });
});
