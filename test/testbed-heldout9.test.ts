import { describe, expect, it } from "vitest";
import { HELDOUT9_FAULTS, heldout9Agent } from "../bench/agents/heldout9.ts";
import { Facts } from "../src/boundary/types.ts";

/** Scripted customer conversations that only use the facts (persona values and listed requests). */
const SCRIPTS: Record<string, string[]> = {
  bookTwoPets: [
    "hi",
    "1",
    "07700 900123",
    "Biscuit",
    "2",
    "vaccination",
    "Dr Patel",
    "Friday 24 January",
    "1",
    "1",
    "1",
  ],
  bookChange: [
    "I'd like to book a check-up for Mittens",
    "07700 900123",
    "Mittens",
    "any vet",
    "Friday 24 January",
    "1",
    "2",
    "3",
    "Tuesday 28 January",
    "2",
    "1",
  ],
  bookAbandon: [
    "book an appointment",
    "07700 900123",
    "Biscuit",
    "Mittens",
    "nurse clinic",
    "Monday 27 January",
    "1",
    "3",
  ],
  weeklyCap: [
    "I'd like to book a check-up for Biscuit on Friday 24 January",
    "07700 900123",
    "Biscuit",
    "any vet",
    "Tuesday 28 January",
    "1",
    "1",
  ],
  puppy: [
    "book a vaccination for Pepper",
    "07700 900234",
    "Pepper",
    "any vet",
    "Thursday 16 January",
    "Monday 20 January",
    "1",
    "1",
  ],
  dental: ["book a dental for Rolo", "07700 900345", "Rolo", "Dr Kowalski", "Wednesday 15 January"],
  nurseWeekend: [
    "book a nurse clinic",
    "07700 900456",
    "Bramble",
    "Saturday 18 January",
    "Sunday 19 January",
    "Tuesday 21 January",
    "1",
    "1",
  ],
  noSlots: [
    "book a check-up",
    "07700 900123",
    "Mittens",
    "Mittens",
    "Dr Patel",
    "Saturday 18 January",
    "Monday 27 January",
    "1",
    "yes",
    "1",
  ],
  emergency: ["I need to book an appointment, Pepper ate rat poison"],
  emergencyMidFlow: ["book a vaccination", "07700 900234", "Pepper", "he's not breathing properly"],
  lockout: ["book an appointment", "07700 111111", "07700 222222", "07700 333333", "07700 900123", "Biscuit"],
  rxTooEarly: [
    "I need a repeat prescription",
    "07700 900123",
    "Rex",
    "Biscuit",
    "BS1 1AA",
    "BS6 5QA",
    "Mittens",
  ],
  rxOk: [
    "I need a repeat of Carprofen",
    "07700 900123",
    "Biscuit",
    "BS6 5QA",
    "post",
    "2",
    "collect",
    "1",
    "Can I get another repeat of Carprofen?",
  ],
  rxControlled: [
    "repeat prescription please",
    "07700 900456",
    "Bramble",
    "BS9 2RT",
    "Phenobarbital",
    "repeat Seraquin",
  ],
  rxNone: ["repeat prescription", "07700 900567", "Luna", "BS1 4DJ"],
  vacc: ["When is Mittens' booster due?", "07700 900123", "Mittens"],
  vaccOtherOwner: ["Can I see Pepper's vaccination record?", "07700 900123", "Mittens", "2"],
  vaccMenu: ["Hello", "5", "07700 900234", "Pepper"],
  info: [
    "What are your opening hours?",
    "How much does a dental cost?",
    "Is my dog's vaccine due?",
    "Do you sell dog food?",
    "thanks",
    "blah blah",
    "Can I speak to a person?",
    "bye",
  ],
  move: [
    "I'd like to move an appointment",
    "07700 900123",
    "Biscuit",
    "2",
    "Tuesday 28 January",
    "1",
    "2",
    "Wednesday 29 January",
    "1",
    "1",
  ],
  cancelLate: [
    "cancel my appointment",
    "07700 900123",
    "Mittens",
    "1",
    "1",
    "yes",
    "yes, I accept the £25 fee",
  ],
  cancelDecline: ["cancel my appointment", "07700 900123", "Mittens", "1", "confirm", "no"],
  cancelFree: ["cancel my appointment", "07700 900456", "Bramble", "yes", "3", "cancel my appointment", "1"],
  apptNone: ["cancel my appointment", "07700 900234", "Pepper"],
  contact: [
    "update my email address",
    "07700 900456",
    "Bramble",
    "BS9 2RT",
    "not an email",
    "helen.price@example.org",
    "1",
  ],
  contactMobile: [
    "I want to update my contact details",
    "07700 900345",
    "Rolo",
    "BS7 8LP",
    "1",
    "07700 900999",
    "1",
  ],
  register: [
    "I want to register a new kitten",
    "07700 900567",
    "Luna",
    "Pixel",
    "British Shorthair",
    "02/12/2024",
    "2",
    "breed",
    "British Shorthair cross",
    "1",
  ],
  registerAbandon: ["register a new pet", "07700 900567", "Luna", "Nala", "2", "Bengal", "3 March 2023", "3"],
  claim: ["Where is my insurance claim?", "07700 900567", "Luna", "BS1 4DJ"],
  claimNone: ["what's the status of my insurance claim", "07700 900456", "Bramble", "BS9 2RT"],
  abandon: ["book an appointment", "07700 900345", "Rolo", "never mind"],
};

/** For each seeded fault, a script on which it shows. */
const KILLERS: Record<string, string> = {
  contact_skip_confirm: "contact",
  vacc_record_no_id: "vacc",
  vacc_age_ignored: "puppy",
  rx_ignore_28_days: "rxTooEarly",
  weekly_cap_ignored: "weeklyCap",
  other_owner_pet: "vaccOtherOwner",
  no_lockout: "lockout",
  emergency_booked: "emergency",
  rx_controlled_allowed: "rxControlled",
  dental_preop_ignored: "dental",
  claim_skip_postcode: "claim",
  late_fee_amount: "cancelLate",
  late_window_12h: "cancelLate",
  booster_365_days: "vacc",
  rx_next_date_off: "rxTooEarly",
  reg_dob_swapped: "register",
  change_forgotten: "bookChange",
  summary_cancel_writes: "bookAbandon",
  double_booking: "bookTwoPets",
  summary_wrong_vet: "bookTwoPets",
  summary_drops_price: "bookTwoPets",
  confirm_wrong_pet: "bookTwoPets",
};

interface Run {
  replies: string[];
  states: readonly string[];
  fingerprint: string;
}

async function run(turns: string[], opts: { faults?: string[]; seed?: number } = {}): Promise<Run> {
  const target = heldout9Agent.create(opts);
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  const out = { replies, states: target.statesVisited(), fingerprint: target.fingerprint() };
  await target.close();
  return out;
}

describe("heldout9 testbed agent (veterinary practice)", () => {
  it("has well-formed metadata and facts", () => {
    const facts = Facts.parse(heldout9Agent.facts);
    expect(facts.personas.length).toBeGreaterThanOrEqual(4);
    expect(facts.personas.length).toBeLessThanOrEqual(6);
    expect(facts.requests.length).toBeGreaterThan(0);
    expect(heldout9Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(heldout9Agent.states.length).toBeLessThanOrEqual(70);
    expect(new Set(heldout9Agent.states).size).toBe(heldout9Agent.states.length);
    expect(HELDOUT9_FAULTS.length).toBeGreaterThanOrEqual(18);
    expect(HELDOUT9_FAULTS.length).toBeLessThanOrEqual(22);
    expect(heldout9Agent.faults).toEqual(HELDOUT9_FAULTS);
    expect(() => heldout9Agent.create({ faults: ["no_such_fault"] })).toThrow();
  });

  it("reaches at least 80% of the designed states and reports only designed states", async () => {
    const designed = new Set(heldout9Agent.states);
    const seen = new Set<string>();
    for (const turns of Object.values(SCRIPTS)) {
      const r = await run(turns);
      for (const s of r.states) {
        expect(designed.has(s), `undeclared state ${s}`).toBe(true);
        seen.add(s);
      }
    }
    const missing = [...designed].filter((s) => !seen.has(s));
    expect(seen.size / designed.size, `missing: ${missing.join(", ")}`).toBeGreaterThanOrEqual(0.8);
  });

  it("every fault changes replies or fingerprint on some script", async () => {
    expect(Object.keys(KILLERS).sort()).toEqual([...HELDOUT9_FAULTS].sort());
    for (const fault of HELDOUT9_FAULTS) {
      const turns = SCRIPTS[KILLERS[fault]!]!;
      const clean = await run(turns);
      const faulty = await run(turns, { faults: [fault] });
      const differs =
        clean.fingerprint !== faulty.fingerprint || clean.replies.join("\n") !== faulty.replies.join("\n");
      expect(differs, `fault ${fault} not observable on ${KILLERS[fault]}`).toBe(true);
    }
  });

  it("no fault acts on a conversation that never reaches it", async () => {
    const clean = await run(SCRIPTS.info!);
    for (const fault of HELDOUT9_FAULTS) {
      const faulty = await run(SCRIPTS.info!, { faults: [fault] });
      expect(faulty.replies).toEqual(clean.replies);
    }
  });

  it("paraphrases by seed without changing what it does", async () => {
    let wordingDiffers = false;
    for (const turns of Object.values(SCRIPTS)) {
      const runs = await Promise.all([1, 2, 3].map((seed) => run(turns, { seed })));
      expect(runs[1]!.fingerprint).toBe(runs[0]!.fingerprint);
      expect(runs[2]!.fingerprint).toBe(runs[0]!.fingerprint);
      expect(runs[1]!.states).toEqual(runs[0]!.states);
      if (runs.some((r) => r.replies.join("\n") !== runs[0]!.replies.join("\n"))) wordingDiffers = true;
    }
    expect(wordingDiffers).toBe(true);
    const again = await run(SCRIPTS.bookTwoPets!, { seed: 2 });
    expect(again).toEqual(await run(SCRIPTS.bookTwoPets!, { seed: 2 }));
  });

  it("keeps writes for later turns of a conversation and restores the database on reset", async () => {
    const target = heldout9Agent.create();
    for (const turn of SCRIPTS.rxOk!) await target.send(turn);
    expect(target.statesVisited().at(-1)).toBe("rx.refused_too_early");
    expect(target.fingerprint()).toContain("W:rx m1 left=2");
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).toBe("");
    for (const turn of SCRIPTS.rxOk!.slice(0, 5)) await target.send(turn);
    expect(target.statesVisited().at(-1)).toBe("rx.confirm_menu");
  });
});
