import { describe, expect, it } from "vitest";
import { HELDOUT13_FAULTS, heldout13Agent } from "../bench/agents/heldout13.ts";
import { FACTS, TEMPLATES } from "../bench/agents/heldout13-data.ts";
import type { TestbedTarget } from "../bench/agents/testbed.ts";
import { Facts } from "../src/boundary/types.ts";

const ANA = "ana.ruiz@mailbox.org";
const BEN = "ben.okafor@post.net";
const CHLOE = "chloe.martin@inbox.com";
const DEV = "dev.patel@webmail.com";

/** Scripted conversations that together walk every designed state of the clean agent. */
const SCRIPTS: Record<string, string[]> = {
  public: [
    "hello",
    "what can you do?",
    "what's on?",
    "tell me about the Aurora Quartet",
    "where can I park?",
    "is the venue wheelchair accessible?",
    "what are the box office opening hours?",
    "how are you?",
    "thanks!",
    "flibbertigibbet",
    "can I speak to a real person?",
    "bye",
  ],
  matinee: [
    "I'd like to buy some tickets",
    "Hamlet",
    "The Tempest, 2 tickets",
    "12 May",
    "the 7th",
    "17 May",
    "the matinee",
    "stalls please, no concessions",
    ANA,
    "actually make it 3 tickets",
    "yes, book it",
  ],
  capHeld: ["Can I get 5 tickets for The Tempest on 14 May?", "stalls", "no", ANA, "4", "no"],
  capSingle: [
    "book 7 tickets for Brass Giants",
    "24 May",
    "6",
    "stalls",
    "circle, we're all seniors",
    DEV,
    "never mind",
  ],
  presaleBad: [
    "I want to see the Aurora Quartet on 5 June",
    "AURORA24",
    "ok, 20 May instead then",
    "two",
    "balcony, student",
    BEN,
    "sounds good",
  ],
  presaleGood: [
    "tickets for Aurora Quartet on 5 June please",
    "my code is AURORA25",
    "4 tickets",
    "circle",
    "none",
    ANA,
    "yes",
  ],
  age: [
    "book Midnight Cabaret for 3 people on 16 May",
    "no, my daughter is 14",
    "ok, Midnight Cabaret on the 23rd for 2 then",
    "yes, we're all adults",
    "circle please",
    "we're students",
    "ok full price is fine",
    BEN,
    "yes please",
  ],
  concession: [
    "I'd like tickets for The Tempest",
    "2025-05-14, two of us",
    "balcony",
    "stalls then",
    "yes, a concession",
    "student",
    "circle instead",
    CHLOE,
    "go ahead",
  ],
  lockout: [
    "show my booking",
    "HB9999",
    `HB4821 and my email is ${BEN}`,
    "HB4821 wrong@example.com",
    "view my booking",
  ],
  view: [
    "I'd like to check my booking",
    "HB4821",
    ANA,
    "can you show booking HB5370 too?",
    "please add an accessibility request",
    "a wheelchair space",
    "show my booking",
  ],
  exchange: [
    "I want to exchange my tickets to another date",
    `HB4821 ${ANA}`,
    "12 May",
    "17 May",
    "evening",
    "no",
    "swap to the 10th of May please",
    "yes",
  ],
  window: ["can I move my tickets to a different date?", `HB5370, ${BEN}`, "then I want a refund"],
  refundOffer: [
    "can I get a refund?",
    `HB4821 ${ANA}`,
    "no thanks",
    "I want my money back",
    "yes please",
    "never mind",
  ],
  refund: [
    "I'd like a refund please",
    `HB6093 ${CHLOE}`,
    "no",
    "actually yes I do want the refund",
    "yes",
    "refund my booking",
  ],
  pastRefund: [
    "refund for booking HB7160 please",
    DEV,
    "can I exchange it instead?",
    `log in with HB7154 and ${DEV}`,
    "I'd like my money back",
    "yes",
  ],
  resend: [
    "please resend my e-tickets",
    `HB4821 ${ANA}`,
    "send them to ana.work@gmail.com instead",
    "1234",
    "no",
    "resend my tickets to ana.work@gmail.com",
    "4417",
    "resend my tickets",
    "yes",
  ],
};

/** For every fault, a script where the faulty agent says something different from the clean one. */
const WITNESS: Record<string, string> = {
  cap_off_by_one: "capSingle",
  cap_ignores_held: "capHeld",
  presale_code_unchecked: "presaleBad",
  age_check_skipped: "age",
  exchange_window_24h: "window",
  refund_if_past: "pastRefund",
  auth_any_customer_email: "lockout",
  resend_card_unchecked: "resend",
  total_ignores_concession: "concession",
  exchange_fee_once: "exchange",
  readback_qty_forgotten: "matinee",
  confirm_wrong_time: "matinee",
  leak_other_booking: "view",
  access_false_success: "view",
  final_zone_wrong: "matinee",
};

interface Run {
  replies: string[];
  states: readonly string[];
  fingerprint: string;
}

async function play(target: TestbedTarget, turns: readonly string[]): Promise<Run> {
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: target.statesVisited(), fingerprint: target.fingerprint() };
}

async function playAll(options: { faults?: string[]; seed?: number } = {}): Promise<Record<string, Run>> {
  const target = heldout13Agent.create(options);
  const out: Record<string, Run> = {};
  for (const [name, turns] of Object.entries(SCRIPTS)) out[name] = await play(target, turns);
  await target.close();
  return out;
}

describe("heldout13 testbed agent (Harbourside Hall box office)", () => {
  it("declares its faults, states and facts", () => {
    expect(heldout13Agent.name).toBe("heldout13");
    expect(heldout13Agent.faults).toEqual(HELDOUT13_FAULTS);
    expect(heldout13Agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(heldout13Agent.states).size).toBe(heldout13Agent.states.length);
    expect(heldout13Agent.states.length).toBeGreaterThanOrEqual(40);
    expect(() => Facts.parse(FACTS)).not.toThrow();
    expect(Facts.parse(heldout13Agent.facts).personas.length).toBeGreaterThanOrEqual(3);
    for (const [key, wordings] of Object.entries(TEMPLATES)) {
      expect(new Set(wordings).size, key).toBeGreaterThanOrEqual(2);
      expect(wordings.length, key).toBeLessThanOrEqual(4);
    }
    expect(Object.keys(WITNESS).sort()).toEqual([...HELDOUT13_FAULTS].sort());
  });

  it("walks every designed state on the clean agent under seeds 1..3, and only designed ones", async () => {
    for (let seed = 1; seed <= 3; seed++) {
      const runs = await playAll({ seed });
      const seen = new Set(Object.values(runs).flatMap((r) => [...r.states]));
      for (const s of seen) expect(heldout13Agent.states).toContain(s);
      expect(heldout13Agent.states.filter((s) => !seen.has(s))).toEqual([]);
    }
  });

  it("walks the public states in order", async () => {
    const runs = await playAll();
    expect(runs.public!.states).toEqual([
      "public.greet",
      "public.help",
      "public.whats_on",
      "public.show_info",
      "public.parking",
      "public.access_info",
      "public.hours",
      "public.smalltalk",
      "public.smalltalk",
      "public.unknown",
      "public.handoff",
      "public.goodbye",
    ]);
  });

  it("enforces its purchase guards and books only on consent", async () => {
    const runs = await playAll();
    const last = (name: string) => runs[name]!.states.at(-1);
    expect(runs.matinee!.states).toEqual([
      "buy.ask_show",
      "buy.unknown_show",
      "buy.ask_date",
      "buy.date_unavailable",
      "buy.refused_past",
      "buy.ask_time",
      "buy.ask_zone",
      "buy.ask_email",
      "buy.summary",
      "buy.summary_updated",
      "buy.confirmed",
    ]);
    expect(runs.matinee!.fingerprint).toBe(`book:HB9001:tempest-0517m:3:stalls:none:135:${ANA}`);
    expect(runs.matinee!.replies.at(-1)).toMatch(/3 .*stalls/);
    expect(runs.matinee!.replies.at(-1)).toContain("2:30 pm");
    expect(runs.capHeld!.states).toContain("buy.refused_cap");
    expect(runs.capHeld!.replies[3]).toContain("4");
    expect(last("capHeld")).toBe("buy.declined");
    expect(runs.capHeld!.fingerprint).toBe("");
    expect(runs.capSingle!.states).toEqual(
      expect.arrayContaining(["buy.refused_cap", "buy.zone_sold_out", "buy.summary"]),
    );
    expect(runs.capSingle!.replies.at(-2)).toContain("£144");
    expect(last("capSingle")).toBe("flow.cancelled");
    expect(runs.capSingle!.fingerprint).toBe("");
    expect(runs.presaleBad!.states).toContain("buy.refused_presale");
    expect(runs.presaleBad!.fingerprint).toBe(`book:HB9001:aurora-0520:2:balcony:student:40:${BEN}`);
    expect(runs.presaleGood!.fingerprint).toBe(`book:HB9001:aurora-0605:4:circle:none:168:${ANA}`);
    expect(runs.age!.states.slice(0, 2)).toEqual(["buy.ask_age", "buy.refused_age"]);
    expect(runs.age!.fingerprint).toBe(`book:HB9001:cabaret-0523:2:circle:none:60:${BEN}`);
    expect(runs.concession!.states).toEqual(
      expect.arrayContaining(["buy.zone_sold_out", "buy.ask_concession_type", "buy.concession_not_in_zone"]),
    );
    expect(runs.concession!.fingerprint).toBe(`book:HB9001:tempest-0514:2:circle:student:56:${CHLOE}`);
  });

  it("guards existing bookings", async () => {
    const runs = await playAll();
    const last = (name: string) => runs[name]!.states.at(-1);
    expect(runs.lockout!.states).toEqual([
      "auth.ask_reference",
      "auth.not_found",
      "auth.mismatch",
      "auth.locked",
      "auth.locked",
    ]);
    expect(runs.view!.states).toContain("order.refused_other");
    expect(runs.view!.replies.join("\n")).not.toContain("Ben Okafor");
    expect(runs.view!.replies.at(-1)).toContain("wheelchair");
    expect(runs.exchange!.states).toEqual(
      expect.arrayContaining(["exchange.date_unavailable", "exchange.ask_time", "exchange.declined"]),
    );
    expect(runs.exchange!.fingerprint).toBe("exchange:HB4821:tempest-0514->tempest-0510:6");
    expect(runs.window!.states).toEqual(["auth.ask_reference", "exchange.refused_window", "refund.refused"]);
    expect(runs.refundOffer!.states).toEqual([
      "auth.ask_reference",
      "refund.refused",
      "flow.cancelled",
      "refund.refused",
      "exchange.ask_date",
      "flow.cancelled",
    ]);
    expect(runs.refundOffer!.fingerprint).toBe("");
    expect(runs.refund!.fingerprint).toBe("refund:HB6093:40");
    expect(last("refund")).toBe("refund.already");
    expect(runs.pastRefund!.states.slice(0, 4)).toEqual([
      "auth.ask_email",
      "refund.refused",
      "exchange.refused_past",
      "auth.signed_in",
    ]);
    expect(runs.pastRefund!.fingerprint).toBe("refund:HB7154:56");
    expect(runs.resend!.states).toContain("resend.refused_card");
    expect(runs.resend!.fingerprint).toBe(
      "resend:HB4821:ana.work@gmail.com|resend:HB4821:ana.ruiz@mailbox.org",
    );
  });

  it("keeps records within one conversation: reset() restores the seeded orders", async () => {
    const target = heldout13Agent.create();
    const first = await play(target, [...SCRIPTS.exchange!, "show my booking"]);
    expect(first.replies.at(-1)).toContain("Sat 10 May");
    const again = await play(target, ["show my booking", `HB4821 ${ANA}`]);
    expect(again.replies.at(-1)).toContain("Wed 14 May");
    expect(again.fingerprint).toBe("show:HB4821");
    const locked = await play(target, SCRIPTS.lockout!);
    expect(locked.states.at(-1)).toBe("auth.locked");
    const fresh = await play(target, ["view my booking", `HB4821 ${ANA}`]);
    expect(fresh.states.at(-1)).toBe("order.view");
  });

  it("every seeded fault changes what the agent says on its witness script", async () => {
    const clean = await playAll();
    for (const fault of HELDOUT13_FAULTS) {
      const faulty = await playAll({ faults: [fault] });
      const name = WITNESS[fault]!;
      expect(faulty[name]!.replies, fault).not.toEqual(clean[name]!.replies);
    }
  });

  it("paraphrase seeds change the wording but not the states or the fingerprint", async () => {
    const bySeed = [];
    for (let seed = 1; seed <= 3; seed++) bySeed.push(await playAll({ seed }));
    const base = bySeed[0]!;
    for (const name of Object.keys(SCRIPTS)) {
      for (const run of bySeed) {
        expect(run[name]!.states, name).toEqual(base[name]!.states);
        expect(run[name]!.fingerprint, name).toBe(base[name]!.fingerprint);
      }
      const wordings = new Set(bySeed.map((r) => JSON.stringify(r[name]!.replies)));
      expect(wordings.size, name).toBe(3);
    }
  });

  it("rejects unknown faults and refuses to answer after close()", async () => {
    expect(() => heldout13Agent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
    const target = heldout13Agent.create();
    await target.close();
    await target.close();
    await expect(target.send("hi")).rejects.toThrow(/closed/);
  });
});
