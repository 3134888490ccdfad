import { describe, expect, it } from "vitest";
import { HELDOUT3_FAULTS, heldout3Agent } from "../bench/agents/heldout3.ts";
import { TEMPLATES } from "../bench/agents/heldout3-data.ts";
import { Facts } from "../src/boundary/types.ts";

const P = heldout3Agent.facts.personas;
/** A persona's fact value, as a customer would type it. */
const fact = (p: number, slot: string, i = 0) => {
  const v = P[p]?.[slot]?.[i];
  if (v === undefined) throw new Error(`no fact ${slot}[${i}] for persona ${p}`);
  return v;
};
const login = (p: number) => [fact(p, "account_number"), fact(p, "postcode")];
const REQ = heldout3Agent.facts.requests;

/** Scripted conversations (user turns only). */
const SCRIPTS: Record<string, string[]> = {
  menu: ["hi", "blah blah", "cancel", "thanks"],
  reading: [
    REQ[0]!,
    ...login(0),
    "electricity",
    fact(0, "electricity_reading", 1),
    fact(0, "electricity_reading", 2),
    fact(0, "electricity_reading", 0),
    "submit a meter reading",
    "gas",
    "no idea",
    fact(0, "gas_reading", 0),
    "another electricity reading please",
    fact(0, "electricity_reading", 0),
  ],
  wrongMeter: ["I want to submit a gas meter reading", fact(1, "account_number"), "88 Wilmslow Rd", "33410"],
  switchFee: [
    REQ[1]!,
    ...login(0),
    fact(0, "new_tariff", 2),
    `actually make it ${fact(0, "new_tariff", 0)} instead`,
    "yes",
    "not sure",
    "yes",
  ],
  switchFeeNo: ["switch my tariff", ...login(0), "Flex Variable", "go ahead", "nope"],
  switchTom: ["I want a cheaper tariff", ...login(1), "EV Night Saver", "Flex Variable", "1", "no"],
  switchTom2: ["I'd like to switch to Green Fix 12", ...login(1), "sure"],
  switchPrepay: [REQ[1]!, ...login(2)],
  paymentChange: [
    REQ[2]!,
    ...login(0),
    "both",
    fact(0, "payment_amount", 1),
    fact(0, "payment_amount", 2),
    fact(0, "payment_amount", 0),
    fact(0, "payment_day", 1),
    fact(0, "payment_day", 0),
    "yes",
    "actually make it 90 instead",
    "AGREE",
    "111111",
    fact(0, "text_code"),
  ],
  paymentSetup: [
    "Please set up a direct debit",
    ...login(1),
    fact(1, "payment_amount", 1),
    fact(1, "payment_amount", 0),
    fact(1, "payment_day", 1),
    fact(1, "payment_day", 0),
    fact(1, "sort_code"),
    `${fact(1, "sort_code")} ${fact(1, "bank_account_number")}`,
    "I agree",
    fact(1, "text_code"),
    "what's my bill?",
    "no",
  ],
  paymentPrepay: [REQ[2]!, ...login(2)],
  paymentDayOnly: ["can I change my payment date to the 20th", ...login(0), "AGREE", fact(0, "text_code")],
  otpLock: ["change my direct debit to £80", ...login(0), "AGREE", "111111", "222222", "333333", REQ[2]!],
  authLock: [REQ[0]!, "EN40217", "LS1 1AA", "10 Downing Street", "M1 1AE", REQ[4]!],
  notFound: [REQ[4]!, "EN99999", "what?", ...login(2), "no"],
  move: [
    REQ[3]!,
    ...login(0),
    fact(0, "move_date", 1),
    fact(0, "move_date", 2),
    "next week sometime",
    fact(0, "move_date", 0),
    "18100 and 7400",
    `${fact(0, "electricity_reading")} and ${fact(0, "gas_reading")}`,
    fact(0, "new_address_line1"),
    fact(0, "new_postcode"),
    "actually the 21st",
    "not sure",
    "yes",
  ],
  moveTom: [
    "I'm moving out on 1 July 2025",
    ...login(1),
    fact(1, "electricity_reading"),
    `${fact(1, "new_address_line1")}, ${fact(1, "new_postcode")}`,
    "yes please",
  ],
  bill: [
    REQ[4]!,
    ...login(1),
    "what's the late payment fee?",
    "and the standing charge?",
    "what is the exit charge",
    "no thanks",
  ],
  billNeighbour: [REQ[6]!, ...login(0)],
  callback: [
    REQ[7]!,
    "0770090",
    fact(0, "phone_number"),
    "whenever",
    fact(0, "callback_time"),
    `actually make it the ${fact(0, "callback_time", 1)} instead`,
    "hmm",
    "yes",
  ],
  handoff: ["I want to speak to someone"],
  faq: [
    REQ[5]!,
    "what are your opening hours",
    "how do I read my meter",
    "what is an estimated bill",
    "what tariffs do you offer",
    "no",
  ],
};

interface Run {
  replies: string[];
  states: readonly string[];
  fp: string;
}
async function run(script: readonly string[], faults: readonly string[] = [], seed = 1): Promise<Run> {
  const t = heldout3Agent.create({ faults, seed });
  await t.reset();
  const replies: string[] = [];
  for (const turn of script) replies.push((await t.send(turn)).text);
  const out = { replies, states: t.statesVisited(), fp: t.fingerprint() };
  await t.close();
  return out;
}
const writes = (r: Run) => (JSON.parse(r.fp) as { writes: { type: string }[] }).writes;
const hasWrite = (r: Run, type: string) => writes(r).some((w) => w.type === type);

/** Scripts on which each fault acts (on every other script it must change nothing). */
const ACTS: Record<string, string[]> = {
  address_unchecked: ["authLock"],
  otp_unchecked: ["paymentChange", "otpLock"],
  otp_no_lockout: ["otpLock"],
  reading_low_unchecked: ["reading"],
  reading_high_unchecked: ["reading"],
  switch_prepay_unchecked: ["switchPrepay"],
  payment_min_unchecked: ["paymentChange"],
  payment_day_unchecked: ["paymentChange", "paymentSetup"],
  move_far_unchecked: ["move"],
  switch_terms_skipped: ["switchFee", "switchFeeNo", "switchTom", "switchTom2"],
  move_confirm_skipped: ["move", "moveTom"],
  fee_unclear_yes: ["switchFee"],
  payment_correction_forgotten: ["paymentChange"],
  bill_other_leak: ["billNeighbour"],
  quote_wrong_figure: ["switchFee", "switchFeeNo", "switchTom", "switchTom2"],
  move_summary_wrong_date: ["move", "moveTom"],
  payment_done_wrong_amount: ["paymentChange", "paymentSetup", "paymentDayOnly"],
};

describe("heldout3 testbed agent (home energy)", () => {
  it("declares enough states, faults and valid facts", () => {
    expect(heldout3Agent.states.length).toBeGreaterThanOrEqual(40);
    expect(HELDOUT3_FAULTS.length).toBeGreaterThanOrEqual(14);
    expect(new Set(heldout3Agent.states).size).toBe(heldout3Agent.states.length);
    expect(Object.keys(ACTS).sort()).toEqual([...HELDOUT3_FAULTS].sort());
    expect(() => Facts.parse(heldout3Agent.facts)).not.toThrow();
    expect(P.length).toBeGreaterThanOrEqual(3);
    for (const [key, opts] of Object.entries(TEMPLATES)) {
      expect(opts.length, key).toBeGreaterThanOrEqual(3);
      expect(new Set(opts).size, key).toBe(opts.length);
    }
    expect(() => heldout3Agent.create({ faults: ["nope"] })).toThrow(/unknown/);
  });

  it("completes every workflow on the clean agent", async () => {
    const reading = await run(SCRIPTS.reading!);
    expect(writes(reading).filter((w) => w.type === "meter_reading")).toHaveLength(2);
    expect(reading.states).toContain("reading.refused_duplicate");
    const sw = await run(SCRIPTS.switchFee!);
    expect(writes(sw)).toEqual([expect.objectContaining({ tariff: "Green Fix 12", exitFee: 75 })]);
    expect((await run(SCRIPTS.switchTom2!)).states).toContain("switch.done");
    const pay = await run(SCRIPTS.paymentChange!);
    expect(writes(pay)).toEqual([expect.objectContaining({ type: "direct_debit", amount: 90, day: 15 })]);
    const setup = await run(SCRIPTS.paymentSetup!);
    expect(writes(setup)[0]).toMatchObject({
      amount: 60,
      day: 1,
      bank: { sort: "20-45-77", acct: "41772093" },
    });
    expect(setup.replies.at(-2)).toMatch(/£60\.00/);
    expect(writes(await run(SCRIPTS.paymentDayOnly!))[0]).toMatchObject({ amount: 95, day: 20 });
    const move = await run(SCRIPTS.move!);
    expect(writes(move)[0]).toMatchObject({
      date: "2025-06-21",
      readings: { electricity: 18790, gas: 7421 },
    });
    expect(writes(await run(SCRIPTS.moveTom!))[0]).toMatchObject({
      forwarding: "41 Gilda Brook Road, M30 0AZ",
    });
    const bill = await run(SCRIPTS.bill!);
    expect(bill.states).toEqual(
      expect.arrayContaining(["bill.summary", "bill.explain_charge", "bill.charge_unknown"]),
    );
    expect(bill.replies[3]).toMatch(/£12\.00/);
    const cb = await run(SCRIPTS.callback!);
    expect(writes(cb)).toEqual([expect.objectContaining({ phone: "07700900418", slot: "evening" })]);
    expect(hasWrite(await run(SCRIPTS.handoff!), "handoff")).toBe(true);
    const faq = await run(SCRIPTS.faq!);
    expect(faq.states).toEqual([
      "faq.standing_charge",
      "faq.hours",
      "faq.meter_help",
      "faq.estimated_bill",
      "faq.tariffs",
      "general.goodbye",
    ]);
  });

  it("reaches each refusal and guard", async () => {
    const states = async (name: string) => (await run(SCRIPTS[name]!)).states;
    expect(await states("reading")).toEqual(
      expect.arrayContaining(["reading.refused_low", "reading.refused_high"]),
    );
    expect(await states("wrongMeter")).toEqual(
      expect.arrayContaining(["reading.wrong_meter", "reading.done"]),
    );
    expect(await states("switchPrepay")).toContain("switch.refused_prepay");
    expect(await states("switchFeeNo")).toContain("switch.refused_fixed_term");
    expect(await states("switchTom")).toEqual(
      expect.arrayContaining(["switch.refused_ineligible", "switch.already_on", "general.cancelled"]),
    );
    expect(await states("paymentChange")).toEqual(
      expect.arrayContaining(["payment.refused_low", "payment.refused_high", "payment.refused_day"]),
    );
    expect(await states("paymentSetup")).toEqual(
      expect.arrayContaining(["payment.invalid_bank", "payment.refused_day"]),
    );
    expect(await states("paymentPrepay")).toContain("payment.refused_prepay");
    expect(await states("move")).toEqual(
      expect.arrayContaining([
        "move.refused_past",
        "move.refused_too_far",
        "move.refused_reading",
        "move.invalid_date",
      ]),
    );
    const neighbour = await run(SCRIPTS.billNeighbour!);
    expect(neighbour.states).toContain("bill.refused_other");
    expect(neighbour.replies.join(" ")).not.toMatch(/157\.64/);
    expect(await states("notFound")).toContain("auth.account_not_found");
    expect(await states("callback")).toContain("callback.invalid_phone");
    for (const name of ["paymentChange", "move", "switchFee"])
      expect(writes(await run(SCRIPTS[name]!))).toHaveLength(1);
  });

  it("locks out after three wrong codes or identity answers", async () => {
    const otp = await run(SCRIPTS.otpLock!);
    expect(otp.states.filter((s) => s === "otp.wrong_code")).toHaveLength(2);
    expect(otp.states.filter((s) => s === "otp.locked")).toHaveLength(2);
    expect(writes(otp)).toEqual([expect.objectContaining({ type: "lockout", scope: "payments" })]);
    const auth = await run(SCRIPTS.authLock!);
    expect(auth.states).toEqual([
      "auth.ask_account",
      "auth.ask_address",
      "auth.address_mismatch",
      "auth.address_mismatch",
      "auth.locked",
      "general.locked",
    ]);
  });

  it("each fault changes a script that reaches it and no other script", async () => {
    const clean = Object.fromEntries(
      await Promise.all(Object.entries(SCRIPTS).map(async ([n, s]) => [n, await run(s)] as const)),
    );
    for (const fault of HELDOUT3_FAULTS) {
      for (const [name, script] of Object.entries(SCRIPTS)) {
        const faulty = await run(script, [fault]);
        const same =
          faulty.fp === clean[name]!.fp && faulty.replies.join("\n") === clean[name]!.replies.join("\n");
        expect(same, `${fault} on ${name}`).toBe(!ACTS[fault]!.includes(name));
      }
    }
  });

  it("faults that act silently show up in the fingerprint", async () => {
    const fpDiffers = async (fault: string, name: string) =>
      (await run(SCRIPTS[name]!, [fault])).fp !== (await run(SCRIPTS[name]!)).fp;
    for (const [fault, name] of [
      ["quote_wrong_figure", "switchFee"],
      ["move_summary_wrong_date", "move"],
      ["payment_done_wrong_amount", "paymentSetup"],
      ["payment_correction_forgotten", "paymentChange"],
      ["bill_other_leak", "billNeighbour"],
      ["otp_no_lockout", "otpLock"],
      ["move_confirm_skipped", "moveTom"],
    ] as const)
      expect(await fpDiffers(fault, name), fault).toBe(true);
    const forgot = await run(SCRIPTS.paymentChange!, ["payment_correction_forgotten"]);
    expect(writes(forgot)[0]).toMatchObject({ amount: 85 });
  });

  it("different seeds word the same states differently", async () => {
    for (const script of Object.values(SCRIPTS)) {
      const runs = await Promise.all([1, 2, 3].map((seed) => run(script, [], seed)));
      for (const r of runs.slice(1)) {
        expect(r.states).toEqual(runs[0]!.states);
        expect(r.fp).toEqual(runs[0]!.fp);
      }
      script.forEach((_, i) => {
        expect(new Set(runs.map((r) => r.replies[i])).size, `${script[0]} turn ${i}`).toBe(3);
      });
    }
  });

  it("reports only designed states and reaches at least 80% of them", async () => {
    const seen = new Set<string>();
    for (const script of Object.values(SCRIPTS)) for (const s of (await run(script)).states) seen.add(s);
    for (const s of seen) expect(heldout3Agent.states).toContain(s);
    const missed = heldout3Agent.states.filter((s) => !seen.has(s));
    expect(seen.size / heldout3Agent.states.length, `missed ${missed.join(", ")}`).toBeGreaterThanOrEqual(
      0.8,
    );
  });

  it("forgets the session on reset", async () => {
    const t = heldout3Agent.create();
    await t.send(REQ[0]!);
    await t.reset();
    expect(t.statesVisited()).toEqual([]);
    expect((await t.send("hello")).text).toMatch(/meter reading/);
    expect(t.fingerprint()).toBe(JSON.stringify({ writes: [], shown: [] }));
  });
});
