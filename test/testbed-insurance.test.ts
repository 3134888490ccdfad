import { describe, expect, it } from "vitest";
import { INSURANCE_FAULTS, insuranceAgent } from "../bench/agents/insurance.ts";

/** Send `turns` to a fresh insurance session; replies, states entered and fingerprint. */
async function talk(turns: readonly string[], faults: readonly string[] = [], seed = 1) {
  const target = insuranceAgent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

type Write = Record<string, unknown>;
const writes = (fp: string) => (JSON.parse(fp) as { writes: Write[] }).writes;
const shown = (fp: string) => (JSON.parse(fp) as { shown: { what: string; value: unknown }[] }).shown;

const EMMA = ["HM-204852", "BS1 4DJ", "Clarke"];
const RAJ = ["HM-317720", "M14 5TP", "Patel"];
const SOPHIE = ["HM-559034", "EH3 9QT", "Martin"];
const EMMA_HOME = ["HM-204851", "BS1 4DJ", "Clarke"];

const WINDSCREEN = [
  "I want to file a claim",
  ...EMMA,
  "car",
  "my windscreen is cracked",
  "3 June 2025",
  "£640",
];
const CORRECTED = [...WINDSCREEN, "actually the date was 5 June", "yes"];
const THEFT = ["My car was stolen yesterday", ...EMMA, "£4,000", "CR/4471/25", "go ahead"];
const STORM_BASIC = ["I need to make a claim for storm damage", ...EMMA_HOME, "28 May 2025", "£900", "yes"];
const OLD = ["new claim please", ...SOPHIE, "theft", "12 February 2025", "£800", "PS/20931/25", "yes"];
const SMALL = ["new claim please", ...SOPHIE, "storm", "28 May 2025", "£450", "yes"];
const FUTURE = ["new claim please", ...RAJ, "collision", "2025-06-28", "£2,400", "yes"];
const NO_REPORT = ["report a theft", ...SOPHIE, "yesterday", "£800", "I don't have one", "yes"];
const LEAK = ["what's the status of my claim?", ...RAJ, "CL-51230", "check claim CL-40112"];
const WITHDRAW_PAID = ["I want to withdraw a claim", ...EMMA_HOME, "CL-40187", "yes"];
const ADULT = ["add a named driver", ...EMMA, "Oliver Clarke", "1998-04-20", "yes"];
const UNDERAGE = ["add a named driver", ...EMMA, "Lily Clarke", "2006-09-01", "yes"];
const WRONG_POSTCODE = ["check claim CL-40112", "HM-204851", "ZZ1 1ZZ", "Clarke"];
const WRONG_NAME = ["check claim CL-40112", "HM-204851", "BS1 4DJ", "Smith"];

describe("the insurance testbed agent (bench/agents/insurance.ts)", () => {
  it("declares 35–45 designed states, its faults, and facts in the Facts shape", () => {
    expect(insuranceAgent.states.length).toBeGreaterThanOrEqual(35);
    expect(insuranceAgent.states.length).toBeLessThanOrEqual(45);
    expect(new Set(insuranceAgent.states).size).toBe(insuranceAgent.states.length);
    expect(insuranceAgent.faults.length).toBeGreaterThanOrEqual(10);
    expect(insuranceAgent.facts.personas.length).toBeGreaterThanOrEqual(3);
    for (const p of insuranceAgent.facts.personas)
      for (const key of ["policy_number", "postcode", "last_name", "claim_id"]) expect(p[key]).toBeDefined();
    expect(() => insuranceAgent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
  });

  it("verifies policy, postcode and last name, asks each slot, and files a claim only after approval", async () => {
    const clean = await talk([...WINDSCREEN, "yes"]);
    expect(clean.states.slice(0, 4)).toEqual([
      "auth.ask_policy",
      "auth.ask_postcode",
      "auth.ask_last_name",
      "claim.ask_policy",
    ]);
    expect(clean.states).toEqual(
      expect.arrayContaining(["claim.ask_type", "claim.ask_date", "claim.confirm"]),
    );
    expect(clean.states.at(-1)).toBe("claim.done");
    for (const s of clean.states) expect(insuranceAgent.states).toContain(s);
    expect(writes(clean.fingerprint)).toEqual([
      expect.objectContaining({ kind: "claim", policy: "HM-204852", type: "windscreen", date: "2025-06-03" }),
    ]);
    expect(writes((await talk(WINDSCREEN)).fingerprint)).toHaveLength(0);
    const abandoned = await talk([...WINDSCREEN, "no"]);
    expect(abandoned.states.at(-1)).toBe("gate.aborted");
    expect(writes(abandoned.fingerprint)).toHaveLength(0);
  });

  it("a correction at the read-back updates the value and reads it back again", async () => {
    const r = await talk(CORRECTED);
    expect(r.states.filter((s) => s === "claim.confirm")).toHaveLength(2);
    expect(r.replies.at(-2)).toContain("5 June 2025");
    expect(writes(r.fingerprint)[0]).toMatchObject({ date: "2025-06-05", approved: true });
  });

  it("needs a police reference for thefts and refuses without one", async () => {
    const theft = await talk(THEFT);
    expect(theft.states).toContain("claim.ask_police_report");
    expect(writes(theft.fingerprint)[0]).toMatchObject({ type: "theft", policeReport: "CR/4471/25" });
    const none = await talk(NO_REPORT);
    expect(none.states).toContain("claim.refused_no_report");
    expect(writes(none.fingerprint)).toHaveLength(0);
  });

  it("refuses ineligible claims: cover tier, 90-day window, future dates, below the deductible", async () => {
    const cases: [readonly string[], string][] = [
      [STORM_BASIC, "claim.refused_coverage"],
      [["my windscreen is chipped", ...RAJ], "claim.refused_coverage"],
      [["my car was hit by another car", ...SOPHIE], "claim.refused_coverage"],
      [OLD, "claim.refused_window"],
      [SMALL, "claim.refused_deductible"],
      [FUTURE, "claim.refused_future"],
    ];
    for (const [turns, state] of cases) {
      const r = await talk(turns);
      expect(r.states).toContain(state);
      if (state !== "claim.refused_future") expect(writes(r.fingerprint)).toHaveLength(0);
    }
    const future = await talk([...FUTURE.slice(0, 6), "2025-06-10", "£2,400", "yes"]);
    expect(writes(future.fingerprint)[0]).toMatchObject({ date: "2025-06-10", amount: 2400 });
  });

  it("shows the status of the customer's own claims only, without revealing others", async () => {
    const r = await talk(LEAK);
    expect(r.states.slice(-2)).toEqual(["status.show", "status.not_found"]);
    expect(r.replies.at(-2)).toContain("approved");
    expect(r.replies.at(-1)).not.toMatch(/water|open|1,200|20 May/);
    expect(shown(r.fingerprint).filter((x) => x.what === "claim_status")).toHaveLength(1);
  });

  it("withdraws an open claim after approval, never an approved or paid one; reset restores the database", async () => {
    const open = ["I want to withdraw a claim", ...EMMA_HOME, "CL-40112", "yes", "status of claim CL-40112"];
    const r = await talk(open);
    expect(r.states).toEqual(expect.arrayContaining(["withdraw.confirm", "withdraw.done"]));
    expect(writes(r.fingerprint)).toEqual([
      { kind: "withdraw_claim", claim: "CL-40112", from: "open", approved: true },
    ]);
    expect(r.replies.at(-1)).toContain("withdrawn");
    const paid = await talk(WITHDRAW_PAID);
    expect(paid.states).toContain("withdraw.refused_status");
    expect(writes(paid.fingerprint)).toHaveLength(0);
    const approved = await talk(["withdraw claim CL-51230", ...RAJ]);
    expect(approved.states.at(-1)).toBe("withdraw.refused_status");
    const target = insuranceAgent.create();
    await target.reset();
    for (const t of open.slice(0, 6)) await target.send(t);
    await target.reset();
    for (const t of ["status of claim CL-40112", ...EMMA_HOME]) await target.send(t);
    expect(shown(target.fingerprint()).find((x) => x.what === "claim_status")?.value).toMatchObject({
      claim: "CL-40112",
      status: "open",
    });
  });

  it("adds a named driver 21+ with the premium quoted and approved; refuses underage, full or car-less", async () => {
    const adult = await talk(ADULT);
    expect(adult.states.slice(-2)).toEqual(["driver.confirm", "driver.done"]);
    expect(adult.replies.at(-2)).toContain("£120");
    expect(writes(adult.fingerprint)).toEqual([
      expect.objectContaining({ kind: "named_driver", premium_change: 120 }),
    ]);
    const young = await talk(UNDERAGE);
    expect(young.states).toContain("driver.refused_underage");
    expect(writes(young.fingerprint)).toHaveLength(0);
    expect((await talk(["add a named driver", ...RAJ])).states.at(-1)).toBe("driver.refused_max");
    expect((await talk(["add a named driver", ...SOPHIE])).states.at(-1)).toBe("driver.refused_no_car");
  });

  it("locks identity checks after two mismatches and offers a callback; general questions need no sign-in", async () => {
    const lock = await talk([
      "file a claim",
      "HM-204852",
      "BS1 4DJ",
      "Smith",
      "BS1 4DJ",
      "Jones",
      "yes",
      ...EMMA,
    ]);
    expect(lock.states).toEqual(expect.arrayContaining(["auth.failed", "auth.locked", "callback.arranged"]));
    expect(lock.replies[5]).toMatch(/callback/i);
    expect(lock.states.at(-1)).not.toBe("claim.ask_policy");
    expect(writes(lock.fingerprint)).toEqual([{ kind: "callback", policy: "HM-204852" }]);
    const info = await talk([
      "what is a deductible?",
      "how long do claims take?",
      "what are your office hours?",
    ]);
    expect(info.states).toEqual(["info.deductible", "info.claim_time", "info.hours"]);
    expect((await talk(["hello", "can I speak to a human?", "hello?"])).states).toEqual([
      "greet",
      "handoff",
      "handoff",
    ]);
  });

  it("each fault changes what the session does (outcome and fingerprint) versus the clean bot", async () => {
    const scenarios: Record<string, readonly string[]> = {
      skipPostcode: WRONG_POSTCODE,
      anyLastName: WRONG_NAME,
      skipApproval: WINDSCREEN,
      ignoreDeductible: SMALL,
      ignoreWindow: OLD,
      futureDate: FUTURE,
      coverageIgnored: STORM_BASIC,
      noPoliceReport: NO_REPORT,
      otherCustomerClaim: LEAK,
      forgetCorrection: CORRECTED,
      wrongPremium: ADULT,
      withdrawPaid: WITHDRAW_PAID,
      underageDriver: UNDERAGE,
    };
    expect(Object.keys(scenarios).sort()).toEqual([...INSURANCE_FAULTS].sort());
    for (const [fault, turns] of Object.entries(scenarios)) {
      const clean = await talk(turns);
      const faulty = await talk(turns, [fault]);
      expect(faulty.fingerprint, fault).not.toBe(clean.fingerprint);
      expect(faulty.replies, fault).not.toEqual(clean.replies);
      expect((await talk(turns)).fingerprint, fault).toBe(clean.fingerprint);
    }
    const forgot = await talk(CORRECTED, ["forgetCorrection"]);
    expect(writes(forgot.fingerprint)[0]).toMatchObject({ date: "2025-06-03" });
    expect(forgot.replies.at(-2)).toContain("5 June 2025");
    const leak = await talk(LEAK, ["otherCustomerClaim"]);
    expect(leak.replies.at(-1)).toContain("1,200");
    const rushed = await talk(WINDSCREEN, ["skipApproval"]);
    expect(writes(rushed.fingerprint)[0]).toMatchObject({ approved: false });
    expect(rushed.states).not.toContain("claim.confirm");
  });

  it("no fault acts on a session it is not about", async () => {
    const info = ["what is a deductible?", "what are your office hours?", "can I speak to a human?"];
    const clean = await talk(info);
    for (const fault of INSURANCE_FAULTS)
      expect((await talk(info, [fault])).fingerprint, fault).toBe(clean.fingerprint);
    const status = await talk(["status of claim CL-51301", ...RAJ]);
    for (const fault of ["skipApproval", "wrongPremium", "withdrawPaid", "forgetCorrection"])
      expect((await talk(["status of claim CL-51301", ...RAJ], [fault])).replies).toEqual(status.replies);
  });

  it("the seed picks the wording, not the behaviour", async () => {
    const a = await talk(CORRECTED, [], 1);
    const b = await talk(CORRECTED, [], 2);
    expect(a.replies).toEqual((await talk(CORRECTED, [], 1)).replies);
    expect(a.replies).not.toEqual(b.replies);
    expect(a.states).toEqual(b.states);
    expect(a.fingerprint).toBe(b.fingerprint);
  });
});
