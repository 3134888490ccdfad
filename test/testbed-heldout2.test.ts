import { describe, expect, it } from "vitest";
import { HELDOUT2_FAULTS, heldout2Agent } from "../bench/agents/heldout2.ts";
import { RESPONSES } from "../bench/agents/heldout2-data.ts";

/** Send `turns` to a fresh session of the held-out student-office agent; replies, states and fingerprint. */
async function talk(turns: readonly string[], faults: readonly string[] = [], seed = 1) {
  const target = heldout2Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

const writes = (fp: string) => (JSON.parse(fp) as { writes: Record<string, unknown>[] }).writes;

const AMARA = ["S2104387", "14 March 2003"];
const JONAS = ["S2209951", "2 November 2002"];
const PRIYA = ["S2311020", "29/07/2004"];
const TOMAS = ["S2015566", "5 January 2001"];

/** Scripted conversations: every flow, its refusals, corrections, the lock-out and the hand-off. */
const SCRIPTS: Record<string, readonly string[]> = {
  enrol: [
    "hi",
    "I want to enrol in a course",
    "S2104387",
    "1 January 2000",
    "14 March 2003",
    "STA201",
    "yes",
    "SUBMIT",
    "no thanks",
  ],
  enrolRefusals: [
    "I'd like to add a course",
    ...AMARA,
    "XYZ999",
    "PSY100",
    "CS101",
    "STA101",
    "HIS110",
    "no",
    "yes",
  ],
  tomasDeadline: ["enrol me in ECO130 please", ...TOMAS, "CS201", "no"],
  tomasPrereq: ["enrol me in CS201 please", ...TOMAS, "no"],
  amaraCap: ["sign me up for BIO140", ...AMARA, "no"],
  amaraPrereq: ["I want to take CS201", ...AMARA, "no"],
  jonasHold: ["can I enrol in BIO140?", ...JONAS, "and I need my transcript"],
  jonasTranscript: ["I need 1 copy of my transcript by post", ...JONAS],
  drop: ["I need to withdraw from a course", ...AMARA, "XYZ123", "1", "actually make it PHI120", "submit"],
  dropLate: ["I want to drop MAT150", ...AMARA, "thanks"],
  dropHalf: ["I want to drop CS101", ...AMARA, "submit"],
  minLoad: ["withdraw me from CS201", ...PRIYA],
  transcript: ["I'd like an official transcript", ...PRIYA, "8", "3", "email", "by post instead", "submit"],
  tomasTranscript: ["I need 2 copies of my transcript by post", ...TOMAS, "submit"],
  resit: ["can I book a resit?", ...TOMAS, "CS101", "submit", "I want to resit CS101 again"],
  resitRefusals: [
    "I want to register for a resit",
    ...JONAS,
    "ECO130",
    "resit MAT150 please",
    "resit STA101",
    "resit BIO140",
  ],
  jonasLimit: ["can I resit MAT150?", ...JONAS, "submit"],
  noResits: ["I'd like to resit an exam", ...AMARA],
  grades: ["show me my grades", ...PRIYA, "show me the grades of S2104387"],
  lock: ["show my grades", "S9999999", "S2104387", "1 Jan 2000", "2000-01-02", "03/01/2000", "yes", "hello?"],
  handoff: [
    "hello",
    "blah blah",
    "what can you do?",
    "which courses are available?",
    "can I talk to an advisor?",
  ],
  aborted: ["withdraw me from PHI120", ...AMARA, "no, leave it", "yes", "no"],
};

/** For each seeded fault, a conversation in which it acts. */
const WHERE: Record<(typeof HELDOUT2_FAULTS)[number], string> = {
  skipDob: "enrol",
  anyDob: "enrol",
  skipApproval: "dropHalf",
  yesSubmits: "enrol",
  ignorePrereq: "tomasPrereq",
  ignoreCreditCap: "amaraCap",
  ignoreAddDeadline: "tomasDeadline",
  lateWithdrawal: "dropLate",
  ignoreHold: "jonasTranscript",
  gradeLeak: "grades",
  forgetCorrection: "drop",
  wrongRefund: "dropHalf",
  wrongFee: "transcript",
  wrongResitDate: "resit",
  ignoreResitLimit: "jonasLimit",
};

describe("the held-out student-office testbed agent (bench/agents/heldout2.ts)", () => {
  it("declares its faults, states and facts", () => {
    expect(heldout2Agent.name).toBe("heldout2");
    expect(heldout2Agent.faults.length).toBeGreaterThanOrEqual(10);
    expect(heldout2Agent.states.length).toBeGreaterThanOrEqual(35);
    expect(heldout2Agent.states.length).toBeLessThanOrEqual(45);
    expect(heldout2Agent.facts.personas.length).toBeGreaterThan(1);
    for (const variants of Object.values(RESPONSES)) expect(variants.length).toBeGreaterThanOrEqual(3);
    expect(() => heldout2Agent.create({ faults: ["nope"] })).toThrow();
  });

  it("the scripted flows reach every designed state, and only designed states", async () => {
    const seen = new Set<string>();
    for (const turns of Object.values(SCRIPTS)) for (const s of (await talk(turns)).states) seen.add(s);
    for (const s of seen) expect(heldout2Agent.states).toContain(s);
    expect(heldout2Agent.states.filter((s) => !seen.has(s))).toEqual([]);
  });

  it("verifies by date of birth and writes only after SUBMIT", async () => {
    const clean = await talk(SCRIPTS.enrol as string[]);
    expect(clean.states.slice(1, 5)).toEqual([
      "auth.ask_id",
      "auth.ask_dob",
      "auth.dob_wrong",
      "enrol.ask_course",
    ]);
    expect(writes(clean.fingerprint)).toEqual([
      { kind: "enrol", student: "S2104387", course: "STA201", credits: 5, turn: 8 },
    ]);
    const beforeSubmit = await talk((SCRIPTS.enrol as string[]).slice(0, 7));
    expect(writes(beforeSubmit.fingerprint)).toHaveLength(0);
    const lock = await talk(SCRIPTS.lock as string[]);
    expect(lock.states).toContain("auth.locked");
    expect(lock.states.slice(-2)).toEqual(["handoff", "handoff"]);
  });

  it("computes refunds, fees and resit dates, and takes corrections at the gate", async () => {
    expect(writes((await talk(SCRIPTS.dropHalf as string[])).fingerprint)[0]).toMatchObject({
      course: "CS101",
      refund: 356.25,
    });
    expect(writes((await talk(SCRIPTS.drop as string[])).fingerprint)[0]).toMatchObject({
      course: "PHI120",
      refund: 475,
    });
    expect(writes((await talk(SCRIPTS.transcript as string[])).fingerprint)[0]).toMatchObject({
      copies: 3,
      delivery: "post",
      fee: 22.5,
    });
    expect(writes((await talk(SCRIPTS.tomasTranscript as string[])).fingerprint)[0]).toMatchObject({
      fee: 10.5,
    });
    const resit = await talk(SCRIPTS.resit as string[]);
    expect(writes(resit.fingerprint)).toEqual([
      { kind: "resit", student: "S2015566", course: "CS101", date: "2025-10-13", turn: 5 },
    ]);
    expect(resit.states.at(-1)).toBe("resit.already_booked");
    const aborted = await talk(SCRIPTS.aborted as string[]);
    expect(aborted.states).toContain("gate.aborted");
    expect(writes(aborted.fingerprint)).toHaveLength(0);
  });

  it("refuses with the guard that applies", async () => {
    const last = async (name: string) => (await talk(SCRIPTS[name] as string[])).states;
    expect(await last("tomasDeadline")).toContain("enrol.refused_deadline");
    expect(await last("tomasPrereq")).toContain("enrol.refused_prereq");
    expect(await last("amaraCap")).toContain("enrol.refused_cap");
    expect(await last("jonasHold")).toEqual(
      expect.arrayContaining(["enrol.refused_hold", "transcript.refused_hold"]),
    );
    expect(await last("dropLate")).toContain("drop.refused_deadline");
    expect(await last("minLoad")).toContain("drop.refused_min_load");
    expect(await last("jonasLimit")).toContain("resit.refused_attempts");
    expect(await last("grades")).toContain("grades.refused_other");
  });

  it.each(HELDOUT2_FAULTS)(
    "fault %s changes the fingerprint of the conversation it acts in",
    async (fault) => {
      const turns = SCRIPTS[WHERE[fault]] as string[];
      const clean = await talk(turns);
      const faulty = await talk(turns, [fault]);
      expect(faulty.fingerprint).not.toBe(clean.fingerprint);
      expect(clean.fingerprint).toBe((await talk(turns)).fingerprint);
    },
  );

  it("a fault leaves conversations it does not act in alone", async () => {
    const clean = await talk(SCRIPTS.minLoad as string[]);
    for (const fault of ["wrongFee", "wrongResitDate", "gradeLeak", "ignoreResitLimit"])
      expect((await talk(SCRIPTS.minLoad as string[], [fault])).fingerprint).toBe(clean.fingerprint);
  });

  it("the seed picks the wording, not the behaviour", async () => {
    for (const turns of Object.values(SCRIPTS)) {
      const a = await talk(turns, [], 1);
      const b = await talk(turns, [], 2);
      expect(a.replies).toEqual((await talk(turns, [], 1)).replies);
      expect(a.states).toEqual(b.states);
      expect(a.fingerprint).toBe(b.fingerprint);
    }
    const a = await talk(SCRIPTS.enrol as string[], [], 1);
    expect(a.replies).not.toEqual((await talk(SCRIPTS.enrol as string[], [], 2)).replies);
  });
});
