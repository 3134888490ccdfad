import { describe, expect, it } from "vitest";
import { HELDOUT5_FAULTS, heldout5Agent } from "../bench/agents/heldout5.ts";
import { Facts } from "../src/boundary/types.ts";

interface Run {
  replies: string[];
  states: readonly string[];
  fingerprint: string;
}

async function run(
  turns: readonly string[],
  options: { faults?: string[]; seed?: number } = {},
): Promise<Run> {
  const target = heldout5Agent.create(options);
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  return { replies, states: target.statesVisited(), fingerprint: target.fingerprint() };
}

/** Scripted customer conversations (user turns only) that walk the designed states on the clean agent. */
const SCRIPTS: Record<string, readonly string[]> = {
  menu: ["hello", "blah blah", "what about council tax?", "help", "can I talk to someone", "thanks, bye"],
  binsAndCancel: ["when are my bins collected", "LN7 3PQ", "RV1 4AB", "report a pothole", "cancel"],
  lockout: [
    "book a bulky collection",
    "RC-99999",
    "RC-10421",
    "01/01/1970",
    "02/02/1980",
    "03/03/1990",
    "bulky",
  ],
  bulkyExisting: ["I need a sofa taken away", "RC-20577", "02/11/1988"],
  bulkyRefusals: [
    "I'd like a bulky waste collection",
    "RC-31108",
    "27/06/1995",
    "9",
    "8",
    "5 May",
    "26 April",
    "17 April",
    "20 May",
    "2 May",
    "make it 6 items",
    "no",
  ],
  bulkyBooked: [
    "book a bulky collection",
    "RC-10421",
    "14/03/1961",
    "5",
    "24 April",
    "change the date to 25 April",
    "yes",
  ],
  otpFailures: ["parking permit", "RC-99999", "RC-42936", "000000", "111111", "222222"],
  permitNoZone: ["I need a residents' parking permit", "RC-20577", "117402"],
  permitLimit: ["permit for my car", "RC-31108", "630158"],
  permitIssued: [
    "I need a parking permit",
    "RC-10421",
    "482913",
    "my car",
    "LK19 XRD",
    "KP17 ZZA",
    "YB21 KTP",
    "7",
    "2",
    "yes",
  ],
  permitDeclined: ["parking permit", "RC-42936", "905264", "TN15 OWK", "12 months", "no"],
  payFine: [
    "I want to pay a parking ticket",
    "RV123",
    "RV40012345",
    "AB12 CDE",
    "RV40012345",
    "YB21 KTP",
    "30",
    "35",
  ],
  fineChoiceDecline: ["I got a parking fine", "RV40012410 AR70 BHM", "pay", "no"],
  fineClosedOnHold: ["pay fine RV40012288 TN15 OWK", "pay my pcn RV40012455 WX66 LMA"],
  challengeAlready: ["challenge pcn RV40012455 WX66 LMA"],
  challengeDeadline: ["I got a parking fine", "RV40012399 DP68 WNF", "challenge it", "yes", "105"],
  challengeSubmitted: [
    "I want to appeal a parking fine",
    "RV40012410",
    "AR70 BHM",
    "5",
    "1",
    "hedge",
    "The sign was hidden behind an overgrown hedge",
    "yes",
  ],
  challengeDeclined: [
    "dispute a pcn",
    "RV40012345",
    "YB21 KTP",
    "3",
    "My car was taken from outside my house",
    "no",
  ],
  reports: [
    "I want to report something",
    "9",
    "3",
    "Orchard Close by the garages",
    "no",
    "report a pothole",
    "over there",
    "Mill Lane outside number 12",
    "yes",
  ],
  status: ["can you check on a report I made", "FR-5999", "FR-5531"],
};

/** For each fault: a conversation a customer could plausibly have in which the fault shows. */
const FAULT_SCRIPTS: Record<string, readonly string[]> = {
  signin_skip_dob_check: ["book a bulky collection", "RC-10421", "01/01/1970", "5"],
  signin_no_lockout: [
    "book a bulky collection",
    "RC-10421",
    "01/01/1970",
    "02/02/1980",
    "03/03/1990",
    "14/03/1961",
  ],
  code_accepts_any: ["parking permit", "RC-42936", "123456"],
  bins_ignores_holiday_shift: ["when are my bins collected", "RV1 4AB"],
  bulky_accepts_holiday: ["bulky collection", "RC-31108", "27/06/1995", "8", "5 May"],
  bulky_item_limit_off_by_one: ["bulky collection", "RC-31108", "27/06/1995", "9", "2 May"],
  bulky_quote_extra_item_price: ["bulky collection", "RC-10421", "14/03/1961", "5", "24 April"],
  bulky_forgets_correction: [
    "bulky collection",
    "RC-10421",
    "14/03/1961",
    "5",
    "24 April",
    "change the date to 25 April",
    "yes",
  ],
  permit_skips_zone_check: ["parking permit", "RC-20577", "117402", "DP68 WNF", "1", "yes"],
  permit_skips_confirmation: ["parking permit", "RC-42936", "905264", "TN15 OWK", "3", "no"],
  permit_lists_other_household: ["parking permit", "RC-10421", "482913"],
  permit_expiry_wrong: ["parking permit", "RC-42936", "905264", "TN15 OWK", "3", "yes"],
  fine_challenge_deadline_ignored: [
    "I want to challenge a parking fine",
    "RV40012399",
    "DP68 WNF",
    "1",
    "The yellow lines were worn away completely",
    "yes",
  ],
  fine_typed_amount_unchecked: ["pay a parking fine", "RV40012345", "YB21 KTP", "30"],
  fine_receipt_wrong_amount: ["pay a parking fine", "RV40012345", "YB21 KTP", "35"],
};

describe("heldout5 testbed agent", () => {
  it("has a neutral description, valid facts and enough states and faults", () => {
    expect(heldout5Agent.name).toBe("heldout5");
    expect(heldout5Agent.description).toBe("Held-out agent 5");
    expect(heldout5Agent.faults).toEqual(HELDOUT5_FAULTS);
    expect(heldout5Agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(heldout5Agent.states).size).toBe(heldout5Agent.states.length);
    expect(heldout5Agent.states.length).toBeGreaterThanOrEqual(45);
    const facts = Facts.parse(heldout5Agent.facts);
    expect(facts.personas.length).toBeGreaterThanOrEqual(4);
    expect(facts.personas.length).toBeLessThanOrEqual(6);
    expect(facts.requests.length).toBeGreaterThanOrEqual(4);
    expect(facts.requests.length).toBeLessThanOrEqual(7);
    expect(() => heldout5Agent.create({ faults: ["no_such_fault"] })).toThrow();
  });

  it("reaches the designed states on the clean agent, and reports only designed states", async () => {
    const designed = new Set(heldout5Agent.states);
    const seen = new Set<string>();
    for (const [name, turns] of Object.entries(SCRIPTS)) {
      const r = await run(turns);
      for (const s of r.states) {
        expect(designed.has(s), `${name}: ${s}`).toBe(true);
        seen.add(s);
      }
      for (const reply of r.replies) expect(reply.length, name).toBeGreaterThan(0);
    }
    const missed = heldout5Agent.states.filter((s) => !seen.has(s));
    expect(missed).toEqual([]);
  });

  it("walks a booking with a correction at the quote, and commits only after the yes", async () => {
    const target = heldout5Agent.create();
    const turns = SCRIPTS.bulkyBooked!;
    for (const turn of turns.slice(0, -1)) await target.send(turn);
    expect(target.fingerprint()).not.toContain("write:");
    const last = await target.send(turns.at(-1)!);
    expect(last.text).toContain("Friday 25 April");
    expect(last.text).toContain("21.00");
    expect(target.fingerprint()).toContain("write:bulky.book:RC-10421:5@2025-04-25=21.00");
  });

  it("refuses by policy for the right customers", async () => {
    const existing = await run(SCRIPTS.bulkyExisting!);
    expect(existing.states.at(-1)).toBe("bulky.refused_existing");
    const noZone = await run(SCRIPTS.permitNoZone!);
    expect(noZone.states.at(-1)).toBe("permit.refused_no_zone");
    const limit = await run(SCRIPTS.permitLimit!);
    expect(limit.states.at(-1)).toBe("permit.refused_limit");
    const deadline = await run(SCRIPTS.challengeDeadline!.slice(0, 3));
    expect(deadline.states.at(-1)).toBe("challenge.refused_deadline");
    expect(deadline.replies.at(-1)).toContain("7 April 2025");
  });

  for (const fault of HELDOUT5_FAULTS) {
    it(`fault ${fault} changes the replies and the fingerprint`, async () => {
      const turns = FAULT_SCRIPTS[fault];
      expect(turns, fault).toBeDefined();
      const clean = await run(turns!);
      const faulty = await run(turns!, { faults: [fault] });
      expect(faulty.replies).not.toEqual(clean.replies);
      expect(faulty.fingerprint).not.toBe(clean.fingerprint);
      const designed = new Set(heldout5Agent.states);
      for (const s of faulty.states) expect(designed.has(s), `${fault}: ${s}`).toBe(true);
    });
  }

  it("faults stay silent in conversations that do not touch them", async () => {
    const clean = await run(SCRIPTS.status!);
    for (const fault of HELDOUT5_FAULTS) {
      const faulty = await run(SCRIPTS.status!, { faults: [fault] });
      expect(faulty.replies, fault).toEqual(clean.replies);
      expect(faulty.fingerprint, fault).toBe(clean.fingerprint);
    }
  });

  it("is deterministic per seed and varies its wording across seeds", async () => {
    const turns = [...SCRIPTS.menu!, ...SCRIPTS.bulkyRefusals!];
    const a = await run(turns, { seed: 7 });
    const b = await run(turns, { seed: 7 });
    expect(b.replies).toEqual(a.replies);
    expect(b.states).toEqual(a.states);
    expect(b.fingerprint).toBe(a.fingerprint);
    const wordings = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = await run(turns, { seed });
      expect(r.states).toEqual(a.states);
      expect(r.fingerprint).toBe(a.fingerprint);
      wordings.add(r.replies.join("\n"));
    }
    expect(wordings.size).toBeGreaterThan(1);
    const one = await run(turns, { seed: 1 });
    const two = await run(turns, { seed: 2 });
    expect(one.replies).not.toEqual(two.replies);
  });

  it("reset() clears the conversation, the sign-in and the records", async () => {
    const target = heldout5Agent.create({ seed: 3 });
    const turns = SCRIPTS.bulkyBooked!;
    const first: string[] = [];
    for (const turn of turns) first.push((await target.send(turn)).text);
    expect(target.fingerprint()).toContain("write:bulky.book");
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).toBe("");
    const second: string[] = [];
    for (const turn of turns) second.push((await target.send(turn)).text);
    expect(second).toEqual(first);
    expect(target.statesVisited()).toContain("auth.ask_account");
    expect(target.statesVisited()).not.toContain("bulky.refused_existing");
    await target.close();
  });
});
