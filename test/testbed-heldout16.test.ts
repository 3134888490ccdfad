import { describe, expect, it } from "vitest";
import { heldout16Agent } from "../bench/agents/heldout16.ts";
import { Facts } from "../src/boundary/types.ts";

interface Run {
  replies: string[];
  last: string;
  all: string;
  states: readonly string[];
  fp: string;
}

async function run(
  turns: readonly string[],
  opts: { faults?: readonly string[]; seed?: number } = {},
): Promise<Run> {
  const t = heldout16Agent.create(opts);
  await t.reset();
  const replies: string[] = [];
  for (const u of turns) replies.push((await t.send(u)).text);
  const out = {
    replies,
    last: replies[replies.length - 1] ?? "",
    all: replies.join("\n---\n"),
    states: t.statesVisited(),
    fp: t.fingerprint(),
  };
  await t.close();
  return out;
}

const PRIYA = ["sign in", "KVH-204817", "Shah, 14/06/1988"];
const TOM = ["log in please", "KVH-311552", "Okafor 2 November 1975"];
const MEGAN = ["sign in", "kvh 418090", "Megan Lloyd 23/01/1999"];

/** Scripted sessions that together reach every designed state. */
const SESSIONS: Record<string, readonly string[]> = {
  publicInfo: [
    "hello",
    "what are your opening hours?",
    "what's the emergency number",
    "how can I pay my rent",
    "are pets allowed?",
    "blah blah",
    "no thanks",
  ],
  authMalformedThenOk: [
    "I want to check my balance",
    "my ref is 12",
    "KVH-204817",
    "Shah",
    "14 June 1988",
    "no",
  ],
  lockout: [
    "sign in",
    "KVH-204817",
    "Smith 01/01/1990",
    "KVH-204817",
    "Shah 02/02/1990",
    "KVH-204817",
    "Jones 14/06/1988",
    "KVH-204817",
  ],
  repairHappy: [
    ...PRIYA,
    "report a repair",
    "kitchen",
    "1",
    "no",
    "Saturday",
    "Tuesday or Thursday",
    "mornings",
    "option D",
    "B",
    "actually make it Tuesday",
    "yes",
  ],
  repairEmergency: [...TOM, "the heating is broken", "hallway", "yes"],
  repairAbort: [...PRIYA, "my bathroom light doesn't work", "no", "any day, afternoons", "A", "no"],
  appointments: [
    ...PRIYA,
    "cancel my appointment",
    "1",
    "check my appointments",
    "2",
    "keep it",
    "show my appointments",
    "2",
    "CANCEL",
  ],
  apptNone: [...MEGAN, "when is my appointment"],
  rent: [...TOM, "what's my balance?", "yes"],
  pay: [
    ...TOM,
    "make a payment",
    "fifty",
    "2500",
    "100",
    "4111 1111 1111 1112 09/27",
    "4111 1111 1111 1111 09/27",
    "yes",
  ],
  payOnFile: [...PRIYA, "I'd like to pay £50", "A", "actually make it £60", "yes"],
  planTom: [
    ...TOM,
    "set up a payment plan",
    "2",
    "200",
    "15",
    "Tuesday 25 March",
    "tomorrow",
    "next monday",
    "yes",
    "I AGREE",
  ],
  planPriya: [...PRIYA, "payment plan please"],
  planMegan: [...MEGAN, "can I set up a payment plan"],
  permPriya: [
    ...PRIYA,
    "I'd like permission to get a dog",
    "ask permission",
    "A",
    "a snake",
    "request permission for a lodger",
    "Sam Green, 01/04/2025",
    "yes",
    "permission for an alteration",
    "fit a shower over the bath",
    "yes",
  ],
  permTom: [
    ...TOM,
    "permission for 2 cats",
    "I need permission for a lodger",
    "permission for an alteration",
    "knock through the wall",
    "permission for a cat",
    "yes",
  ],
  noticeMegan: [...MEGAN, "I want to end my tenancy"],
  noticePriya: [
    ...PRIYA,
    "give notice",
    "someday",
    "Friday 18 April 2025",
    "1 April 2025",
    "Monday 21 April 2025",
    "22 Wren Road, Bath BA2 3PL",
    "yes",
    "END MY TENANCY",
  ],
  contact: [
    ...PRIYA,
    "what contact details do you have",
    "update my details",
    "01/01/1980",
    "14/06/1988",
    "3",
    "07700 900456 and priya.s@example",
    "07700 900456 and priya.s@example.org",
    "yes",
  ],
  complaint: [...PRIYA, "I want to make a complaint", "bad", "my repair was cancelled twice without notice"],
  repeatedFailure: [...PRIYA, "make a payment", "lots", "heaps", "loads"],
  goodbye: ["bye"],
};

describe("heldout16 testbed agent: metadata", () => {
  it("declares 50–75 distinct states, 12+ distinct faults and valid facts", () => {
    expect(new Set(heldout16Agent.states).size).toBe(heldout16Agent.states.length);
    expect(heldout16Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(heldout16Agent.states.length).toBeLessThanOrEqual(75);
    expect(new Set(heldout16Agent.faults).size).toBe(heldout16Agent.faults.length);
    expect(heldout16Agent.faults.length).toBeGreaterThanOrEqual(12);
    const parsed = Facts.parse(heldout16Agent.facts);
    expect(parsed.personas.length).toBeGreaterThanOrEqual(3);
    expect(heldout16Agent.name).toBe("heldout16");
  });

  it("reaches every designed state across the scripted sessions, and reports only designed states", async () => {
    const seen = new Set<string>();
    for (const turns of Object.values(SESSIONS)) {
      const r = await run(turns);
      for (const s of r.states) {
        expect(heldout16Agent.states).toContain(s);
        seen.add(s);
      }
    }
    const missing = heldout16Agent.states.filter((s) => !seen.has(s));
    expect(missing).toEqual([]);
  });
});

describe("heldout16 testbed agent: workflows", () => {
  it("answers public questions without sign-in", async () => {
    const r = await run(SESSIONS.publicInfo ?? []);
    expect(r.states).toEqual([
      "public.menu",
      "public.hours",
      "public.emergency",
      "public.pay_methods",
      "public.pets_policy",
      "public.fallback",
      "session.goodbye",
    ]);
    expect(r.replies[2]).toContain("0300 555 0199");
  });

  it("signs in with reference, surname and date of birth, then resumes the request", async () => {
    const r = await run(SESSIONS.authMalformedThenOk ?? []);
    expect(r.states.slice(0, 6)).toEqual([
      "auth.ask_ref",
      "auth.ref_malformed",
      "auth.ask_identity",
      "auth.ask_identity",
      "auth.ok",
      "rent.balance",
    ]);
    expect(r.replies[4]).toContain("£12.60");
    expect(r.replies[4]).toMatch(/credit/);
  });

  it("locks sign-in after three failed checks", async () => {
    const r = await run(SESSIONS.lockout ?? []);
    expect(r.states.filter((s) => s === "auth.failed")).toHaveLength(2);
    expect(r.states.slice(-2)).toEqual(["auth.locked", "auth.locked"]);
    expect(r.fp).toContain("signin_locked");
  });

  it("books a repair through triage, access, slots and a corrected confirmation", async () => {
    const r = await run(SESSIONS.repairHappy ?? []);
    expect(r.states).toEqual([
      "auth.ask_ref",
      "auth.ask_identity",
      "auth.ok",
      "repair.ask_location",
      "repair.ask_category",
      "repair.triage",
      "repair.ask_access",
      "repair.access_invalid",
      "repair.ask_access",
      "repair.offer_slots",
      "repair.slot_invalid",
      "repair.confirm",
      "repair.confirm",
      "repair.booked",
    ]);
    expect(r.replies[12]).toContain("Tue 18 Mar");
    expect(r.last).toContain("Tue 18 Mar");
    expect(JSON.parse(r.fp).writes[0]).toMatchObject({
      kind: "repair_booking",
      date: "2025-03-18",
      band: "am",
    });
  });

  it("takes the emergency branch and stops on a declined booking", async () => {
    const e = await run(SESSIONS.repairEmergency ?? []);
    expect(e.states.slice(-1)).toEqual(["repair.emergency"]);
    expect(e.fp).toContain("emergency_repair");
    const a = await run(SESSIONS.repairAbort ?? []);
    expect(a.states.slice(-2)).toEqual(["repair.confirm", "flow.aborted"]);
    expect(JSON.parse(a.fp).writes).toEqual([]);
  });

  it("lists appointments, refuses a cancellation within 24 hours and needs the typed word", async () => {
    const r = await run(SESSIONS.appointments ?? []);
    expect(r.states.slice(3)).toEqual([
      "appt.list",
      "appt.refused_24h",
      "appt.list",
      "appt.confirm_cancel",
      "appt.kept",
      "appt.list",
      "appt.confirm_cancel",
      "appt.cancelled",
    ]);
    expect(JSON.parse(r.fp).writes).toEqual([
      { kind: "appointment_cancelled", job: "RJ-50274", tenancy: "KVH-204817", date: "2025-03-18" },
    ]);
    const none = await run(SESSIONS.apptNone ?? []);
    expect(none.states.slice(-1)).toEqual(["appt.none"]);
  });

  it("shows the balance and statement", async () => {
    const r = await run(SESSIONS.rent ?? []);
    expect(r.states.slice(-2)).toEqual(["rent.balance", "rent.statement"]);
    expect(r.replies[3]).toContain("£527.45");
  });

  it("takes card payments within limits", async () => {
    const r = await run(SESSIONS.pay ?? []);
    expect(r.states.slice(3)).toEqual([
      "pay.ask_amount",
      "pay.amount_invalid",
      "pay.refused_limit",
      "pay.ask_card",
      "pay.card_invalid",
      "pay.confirm",
      "pay.done",
    ]);
    expect(r.last).toContain("£100.00");
    expect(r.last).toContain("£427.45");
    const f = await run(SESSIONS.payOnFile ?? []);
    expect(f.states.slice(3)).toEqual(["pay.ask_method", "pay.confirm", "pay.confirm", "pay.done"]);
    expect(JSON.parse(f.fp).writes[0]).toMatchObject({ kind: "payment", amount: "60.00", card: "4421" });
  });

  it("sets up a payment plan only when eligible and within bounds", async () => {
    const r = await run(SESSIONS.planTom ?? []);
    expect(r.states.slice(3)).toEqual([
      "plan.ask_instalment",
      "plan.refused_instalment",
      "plan.refused_instalment",
      "plan.ask_start",
      "plan.start_invalid",
      "plan.start_invalid",
      "plan.confirm",
      "plan.confirm",
      "plan.done",
    ]);
    expect(JSON.parse(r.fp).writes[0]).toMatchObject({
      kind: "payment_plan",
      weekly: "15.00",
      start: "2025-03-17",
    });
    expect((await run(SESSIONS.planPriya ?? [])).states.slice(-1)).toEqual(["plan.refused_no_arrears"]);
    expect((await run(SESSIONS.planMegan ?? [])).states.slice(-1)).toEqual(["plan.refused_existing"]);
  });

  it("applies the pet, lodger and alteration policies", async () => {
    const p = await run(SESSIONS.permPriya ?? []);
    expect(p.states.slice(3)).toEqual([
      "perm.refused_pet",
      "perm.ask_type",
      "perm.ask_pet",
      "perm.refused_pet",
      "perm.ask_lodger",
      "perm.confirm",
      "perm.submitted",
      "perm.ask_alteration",
      "perm.confirm",
      "perm.submitted",
    ]);
    const t = await run(SESSIONS.permTom ?? []);
    expect(t.states.slice(3)).toEqual([
      "perm.refused_pet",
      "perm.refused_lodger",
      "perm.ask_alteration",
      "perm.refused_alteration",
      "perm.confirm",
      "perm.submitted",
    ]);
    expect(t.replies[3]).toMatch(/\b3\b/);
  });

  it("takes notice only on a Monday at least four weeks away, with typed confirmation", async () => {
    const m = await run(SESSIONS.noticeMegan ?? []);
    expect(m.states.slice(-1)).toEqual(["notice.refused_fixed_term"]);
    const p = await run(SESSIONS.noticePriya ?? []);
    expect(p.states.slice(3)).toEqual([
      "notice.ask_date",
      "notice.date_invalid",
      "notice.refused_weekday",
      "notice.refused_period",
      "notice.ask_forwarding",
      "notice.confirm",
      "notice.confirm",
      "notice.submitted",
    ]);
    expect(p.replies[8]).toMatch(/can't be (withdrawn|undone)/);
    expect(JSON.parse(p.fp).writes[0]).toMatchObject({ kind: "notice", end_date: "2025-04-21" });
  });

  it("re-verifies and reads back before updating contact details", async () => {
    const r = await run(SESSIONS.contact ?? []);
    expect(r.states.slice(3)).toEqual([
      "contact.show",
      "contact.reverify",
      "contact.reverify_failed",
      "contact.ask_field",
      "contact.ask_value",
      "contact.value_invalid",
      "contact.readback",
      "contact.updated",
    ]);
    expect(r.last).toContain("07700 900456");
    expect(r.last).toContain("priya.s@example.org");
  });

  it("hands complaints and repeated failures to a person", async () => {
    const c = await run(SESSIONS.complaint ?? []);
    expect(c.states.slice(-3)).toEqual(["complaint.ask_summary", "complaint.ask_summary", "handoff.human"]);
    expect(c.fp).toContain('"kind":"complaint"');
    const f = await run(SESSIONS.repeatedFailure ?? []);
    expect(f.states.slice(-3)).toEqual(["pay.amount_invalid", "pay.amount_invalid", "handoff.human"]);
    const h = await run(["I want to give notice", "can I talk to a person"]);
    expect(h.states).toEqual(["auth.ask_ref", "handoff.human"]);
  });

  it("is deterministic per seed and varies wording across seeds", async () => {
    const turns = SESSIONS.repairHappy ?? [];
    const a = await run(turns, { seed: 1 });
    const b = await run(turns, { seed: 1 });
    expect(a.replies).toEqual(b.replies);
    const c = await run(turns, { seed: 2 });
    expect(c.states).toEqual(a.states);
    expect(c.replies).not.toEqual(a.replies);
  });

  it("never throws on odd input", async () => {
    const odd = [
      "",
      "   ",
      "???",
      "🙂",
      "x".repeat(5000),
      "DROP TABLE",
      "1/1/1",
      "£-5",
      "KVH-",
      "null",
      "yes",
      "no",
    ];
    const r = await run([...odd, ...PRIYA, ...odd, "make a payment", ...odd, "give notice", ...odd]);
    for (const reply of r.replies) expect(reply.length).toBeGreaterThan(0);
  });
});

/** For each fault: a session whose replies or fingerprint differ from the clean agent's. */
const FAULT_SESSIONS: Record<string, readonly string[]> = {
  repair_skip_confirm: [...PRIYA, "my kitchen tap is leaking", "no", "any day, mornings", "A"],
  repair_forget_correction: [
    ...PRIYA,
    "my kitchen tap is leaking",
    "no",
    "any day, mornings",
    "A",
    "actually make it Thursday",
    "yes",
  ],
  balance_skip_auth: ["what's my rent balance?", "KVH-311552"],
  balance_wrong_total: [...PRIYA, "what's my balance"],
  pay_ignore_limit: [...TOM, "I want to pay £2000"],
  pay_receipt_wrong_amount: [...PRIYA, "pay £50", "A", "yes"],
  plan_ignore_min_instalment: [...TOM, "set up a payment plan", "5"],
  appt_cancel_within_24h: [...PRIYA, "cancel my appointment", "1"],
  appt_leak_other_tenant: [...PRIYA, "show my appointments"],
  auth_no_lockout: [
    "sign in",
    "KVH-204817",
    "Smith 01/01/1990",
    "KVH-204817",
    "Shah 02/02/1990",
    "KVH-204817",
    "Jones 14/06/1988",
    "KVH-204817",
    "Shah 14/06/1988",
  ],
  contact_write_different: [...PRIYA, "update my email address", "14/06/1988", "priya.s@example.org", "yes"],
  notice_ignore_weekday: [...PRIYA, "I want to give notice", "Friday 18 April 2025"],
  notice_drop_warning: [...PRIYA, "I want to give notice", "14/04/2025", "22 Wren Road, Bath BA2 3PL"],
  perm_ignore_pet_rule: [...PRIYA, "I'd like permission to get a dog"],
};

describe("heldout16 testbed agent: seeded faults", () => {
  it("has a scripted session for every fault", () => {
    expect(Object.keys(FAULT_SESSIONS).sort()).toEqual([...heldout16Agent.faults].sort());
  });

  for (const fault of heldout16Agent.faults) {
    it(`fault ${fault} changes behaviour`, async () => {
      const turns = FAULT_SESSIONS[fault] ?? [];
      const clean = await run(turns);
      const bad = await run(turns, { faults: [fault] });
      expect(clean.all !== bad.all || clean.fp !== bad.fp).toBe(true);
      // every other fault alone leaves this session as the clean agent runs it, except where flows overlap
      for (const s of bad.states) expect(heldout16Agent.states).toContain(s);
    });
  }

  it("faults act in the way their names say", async () => {
    const f = async (fault: string) => {
      const turns = FAULT_SESSIONS[fault] ?? [];
      return [await run(turns), await run(turns, { faults: [fault] })] as const;
    };
    let [c, b] = await f("repair_skip_confirm");
    expect(c.states.slice(-1)).toEqual(["repair.confirm"]);
    expect(b.states.slice(-1)).toEqual(["repair.booked"]);
    [c, b] = await f("repair_forget_correction");
    expect(JSON.parse(c.fp).writes[0].date).not.toBe(JSON.parse(b.fp).writes[0].date);
    [c, b] = await f("balance_skip_auth");
    expect(c.states.slice(-1)).toEqual(["auth.ask_identity"]);
    expect(b.last).toContain("£527.45");
    [c, b] = await f("balance_wrong_total");
    expect(c.last).toContain("£12.60");
    expect(b.last).not.toContain("£12.60");
    [c, b] = await f("pay_ignore_limit");
    expect(c.states.slice(-1)).toEqual(["pay.refused_limit"]);
    [c, b] = await f("pay_receipt_wrong_amount");
    expect(c.last).toContain("£50.00");
    expect(b.last).toContain("£60.00");
    [c, b] = await f("appt_cancel_within_24h");
    expect(c.states.slice(-1)).toEqual(["appt.refused_24h"]);
    expect(b.states.slice(-1)).toEqual(["appt.confirm_cancel"]);
    [c, b] = await f("appt_leak_other_tenant");
    expect(b.last).toContain("Heron Way");
    expect(c.last).not.toContain("Heron Way");
    [c, b] = await f("auth_no_lockout");
    expect(c.states.slice(-1)).toEqual(["auth.locked"]);
    expect(b.states.slice(-1)).toEqual(["auth.ok"]);
    [c, b] = await f("contact_write_different");
    expect(c.last).toContain("priya.s@example.org");
    expect(b.last).not.toContain("priya.s@example.org");
    [c, b] = await f("notice_ignore_weekday");
    expect(c.states.slice(-1)).toEqual(["notice.refused_weekday"]);
    expect(b.states.slice(-1)).toEqual(["notice.ask_forwarding"]);
    [c, b] = await f("notice_drop_warning");
    expect(c.last).toMatch(/can't be (withdrawn|undone)/);
    expect(b.last).not.toMatch(/can't be (withdrawn|undone)/);
    [c, b] = await f("perm_ignore_pet_rule");
    expect(c.states.slice(-1)).toEqual(["perm.refused_pet"]);
    expect(b.states.slice(-1)).toEqual(["perm.confirm"]);
    [c, b] = await f("plan_ignore_min_instalment");
    expect(c.states.slice(-1)).toEqual(["plan.refused_instalment"]);
    expect(b.states.slice(-1)).toEqual(["plan.ask_start"]);
  });

  it("faults do not disturb the clean public answers", async () => {
    const turns = SESSIONS.publicInfo ?? [];
    const clean = await run(turns);
    for (const fault of heldout16Agent.faults) {
      const bad = await run(turns, { faults: [fault] });
      expect(bad.all).toBe(clean.all);
    }
  });
});
