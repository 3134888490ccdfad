import { describe, expect, it } from "vitest";
import { heldout18Agent } from "../bench/agents/heldout18.ts";
import { Facts } from "../src/boundary/types.ts";

const MAYA = ["maya.ortiz@example.com", "482913"];
const DEV = ["dev.patel@example.net", "730245"];
const SAM = ["sam.okafor@example.org", "115608"];

async function run(script: readonly string[], options: { faults?: string[]; seed?: number } = {}) {
  const target = heldout18Agent.create(options);
  await target.reset();
  const replies: string[] = [];
  for (const turn of script) replies.push((await target.send(turn)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

/** One conversation per fault in which the fault shows (reply or fingerprint). */
const FAULT_SCRIPTS: Record<string, readonly string[]> = {
  devices_skip_auth: ["sign out my devices", "maya.ortiz@example.com"],
  no_lockout: ["what's my account status", "maya.ortiz@example.com", "111111", "222222", "333333", "482913"],
  cancel_skip_typed_gate: ["I want to cancel my membership", ...MAYA, "4417", "no, just cancel"],
  refund_ignore_yearly_limit: ["I'd like a refund for CH-51234", ...DEV, "9052", "2", "yes"],
  refund_other_account: ["I'd like a refund for CH-51234", ...MAYA, "4417", "2", "yes"],
  kids_rating_cap_ignored: ["Set Leo's profile to Teens", ...MAYA, "yes"],
  pin_skip_reentry: ["Can you put a PIN on Leo's profile?", ...MAYA, "4417", "4826", "4827"],
  prorate_off_by_one: ["I'd like to upgrade to Premium", ...MAYA, "yes"],
  plan_correction_ignored: ["I'd like to upgrade to Premium", ...MAYA, "no, make it Basic", "yes"],
  pause_extra_month: ["pause my membership for 2 months", ...MAYA, "yes"],
  device_wrong_target: ["sign out my devices", ...MAYA, "3", "yes", "which devices are signed in?"],
  gift_double_credit: ["redeem gift card MQ-7Q4M-2KD9", ...MAYA, "yes", "what's my balance"],
  summary_status_wrong: ["what's my account status", ...SAM],
  history_amount_shift: ["show me my billing history", ...MAYA],
};

/** Further conversations that walk the designed states. */
const TOUR: readonly (readonly string[])[] = [
  [
    "hi",
    "help",
    "what plans do you have",
    "what's your refund policy",
    "how does pausing work",
    "what happens if I cancel my subscription",
    "how do gift cards work",
    "tell me about parental controls",
    "how many screens can I use at the same time",
    "what are your hours",
    "I forgot my password",
    "asdf qwerty",
    "thanks",
    "bye",
  ],
  ["sign in", "nobody@example.com", "never mind"],
  ["log me in", "maya.ortiz@example.com", "482913", "sign in", "talk to a human"],
  ["my account", "maya.ortiz@example.com", "111111", "222222", "333333", "482913", "refund CH-50781"],
  [
    "I was charged on Feb 28 and I want that refunded",
    ...MAYA,
    "1111",
    "4417",
    "2",
    "yes",
    "refund CH-49920",
    "refund CH-51234",
    "refund please",
    "CH-50781",
  ],
  ["refund", ...MAYA, "CH-50781", "9999", "0000"],
  ["refund", ...MAYA, "CH-50781", "4417", "4", "no"],
  ["refund CH-47003", ...DEV, "refund CH-51234"],
  [
    "change my plan",
    ...MAYA,
    "C",
    "no",
    "switch to standard",
    "upgrade to premium",
    "no, make it Basic",
    "yes",
    "what's my account status",
  ],
  ["upgrade to premium", ...MAYA, "yes", "show my billing history"],
  ["upgrade", ...SAM, "pause", "resume my membership", "no", "resume", "yes", "resume"],
  [
    "profiles",
    ...MAYA,
    "put a PIN on a profile",
    "Asha",
    "Leo",
    "4417",
    "1234",
    "4826",
    "4827",
    "4826",
    "4826",
  ],
  ["lock a profile with a pin", ...MAYA, "Nana", "4417", "forget it"],
  [
    "parental controls: change a rating",
    ...MAYA,
    "Zed",
    "Nana",
    "D",
    "no, make it older kids",
    "yes",
    "set Leo to teens",
    "set Leo to little kids",
    "set Maya's rating to teens",
    "no",
  ],
  [
    "sign out my devices",
    ...MAYA,
    "7",
    "3",
    "yes",
    "devices",
    "2",
    "no",
    "sign out all devices",
    "huh",
    "no",
    "sign out all devices",
    "sign out everywhere",
    "devices",
  ],
  ["pause my membership", ...MAYA, "6", "two", "no, make it 3", "yes", "pause", "resume"],
  ["pause", ...MAYA, "1", "no"],
  ["cancel my membership", ...DEV, "9052", "no", "cancel", "keep it"],
  ["cancel my membership", ...DEV, "9052", "yes I'll take the discount", "my account"],
  [
    "cancel my membership",
    ...DEV,
    "9052",
    "no thanks",
    "CANCEL MY MEMBERSHIP",
    "cancel my membership",
    "pause",
    "upgrade",
    "my account",
  ],
  ["cancel my subscription", ...SAM, "3386", "never mind"],
  [
    "I have a gift card",
    ...DEV,
    "MQ-ABCD-1234",
    "MQ-9H2T-6VBN",
    "redeem MQ-K5R8-L3ZP",
    "no",
    "redeem MQ-K5R8-L3ZP",
    "yes",
    "redeem MQ-K5R8-L3ZP",
  ],
];

describe("heldout18 testbed agent (Marquee streaming support)", () => {
  it("declares a well-formed surface", () => {
    expect(() => Facts.parse(heldout18Agent.facts)).not.toThrow();
    expect(heldout18Agent.facts.personas.length).toBeGreaterThanOrEqual(2);
    expect(heldout18Agent.states.length).toBeGreaterThanOrEqual(60);
    expect(new Set(heldout18Agent.states).size).toBe(heldout18Agent.states.length);
    expect(heldout18Agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(heldout18Agent.faults).size).toBe(heldout18Agent.faults.length);
    expect(Object.keys(FAULT_SCRIPTS).sort()).toEqual([...heldout18Agent.faults].sort());
    expect(() => heldout18Agent.create({ faults: ["nope"] })).toThrow();
  });

  for (const fault of heldout18Agent.faults) {
    it(`fault ${fault} changes what the customer sees or what is written`, async () => {
      const script = FAULT_SCRIPTS[fault] ?? [];
      const clean = await run(script);
      const faulty = await run(script, { faults: [fault] });
      const differs =
        clean.fingerprint !== faulty.fingerprint || clean.replies.join("\n") !== faulty.replies.join("\n");
      expect(differs).toBe(true);
      // and no other fault is needed to make it act: the clean run of the same script is stable
      expect((await run(script)).replies).toEqual(clean.replies);
    });
  }

  it("spot-checks business rules on the clean agent", async () => {
    const up = await run(FAULT_SCRIPTS.prorate_off_by_one ?? []);
    expect(up.replies[2]).toContain("$2.80");
    expect(up.replies[3]).toMatch(/PC-\d+/);
    const yearly = await run(FAULT_SCRIPTS.refund_ignore_yearly_limit ?? []);
    expect(yearly.states).toContain("refund.refused_yearly_limit");
    const other = await run(FAULT_SCRIPTS.refund_other_account ?? []);
    expect(other.states).toContain("refund.not_found");
    expect(other.fingerprint).not.toContain("write:refund");
    const lock = await run(FAULT_SCRIPTS.no_lockout ?? []);
    expect(lock.states).toContain("auth.locked");
    expect(lock.states).not.toContain("auth.signed_in");
    const pause = await run(FAULT_SCRIPTS.pause_extra_month ?? []);
    expect(pause.replies[3]).toContain("May 28, 2025");
  });

  it("is deterministic for a seed and words things differently across seeds", async () => {
    const script = TOUR[4] ?? [];
    for (const seed of [1, 2, 3]) {
      const a = await run(script, { seed });
      const b = await run(script, { seed });
      expect(a.replies).toEqual(b.replies);
      expect(a.fingerprint).toEqual(b.fingerprint);
    }
    const greetings = await Promise.all(
      [1, 2, 3].map(async (seed) => (await run(["hello"], { seed })).replies[0]),
    );
    expect(new Set(greetings).size).toBe(3);
    const s1 = await run(script, { seed: 1 });
    const s2 = await run(script, { seed: 2 });
    const differing = s1.replies.filter((r, i) => r !== s2.replies[i]).length;
    expect(differing).toBeGreaterThan(s1.replies.length / 2);
    // same states and same writes, whatever the wording
    expect(s1.states).toEqual(s2.states);
  });

  it("reports only designed states and reaches most of them", async () => {
    const designed = new Set(heldout18Agent.states);
    const reached = new Set<string>();
    const scripts = [...Object.values(FAULT_SCRIPTS), ...TOUR];
    for (const script of scripts) {
      for (const seed of [1, 2]) {
        const r = await run(script, { seed });
        for (const s of r.states) {
          expect(designed.has(s)).toBe(true);
          reached.add(s);
        }
      }
    }
    const missing = heldout18Agent.states.filter((s) => !reached.has(s));
    expect(missing).toEqual([]);
    expect(reached.size).toBeGreaterThan(designed.size / 2);
  });

  it("reset starts a fresh conversation from the seed data", async () => {
    const target = heldout18Agent.create();
    for (const turn of ["refund CH-50781", ...MAYA, "4417", "1", "yes"]) await target.send(turn);
    expect(target.fingerprint()).toContain("write:refund:ACC-1001:CH-50781");
    await target.reset();
    expect(target.fingerprint()).toBe("");
    expect(target.statesVisited()).toEqual([]);
    const first = await target.send("refund CH-50781");
    expect(first.text.toLowerCase()).toContain("email");
    for (const turn of MAYA) await target.send(turn);
    expect(target.statesVisited()).toContain("reverify.ask_card");
    expect(target.statesVisited()).not.toContain("refund.refused_already_refunded");
    // a fresh create() also starts from the seed data
    const other = heldout18Agent.create();
    for (const turn of ["refund CH-50781", ...MAYA]) await other.send(turn);
    expect(other.statesVisited()).toContain("reverify.ask_card");
  });

  it("never throws on odd input", async () => {
    const target = heldout18Agent.create({ seed: 7 });
    const odd = [
      "",
      "   ",
      "🙂🙂🙂",
      "x".repeat(5000),
      "null",
      "{}",
      "\u0000\u0001",
      "yes",
      "no",
      "1",
      "CH-",
      "MQ-",
      "@@@@",
      "refund",
      "()[]{}*+?",
      "maya.ortiz@example.com",
      "999999",
      "4417",
    ];
    for (const text of odd) {
      const r = await target.send(text);
      expect(typeof r.text).toBe("string");
      expect(r.text.length).toBeGreaterThan(0);
      expect(r.ms).toBeGreaterThanOrEqual(0);
    }
    await target.close();
    await target.close();
  });
});
