import { describe, expect, it } from "vitest";
import { HELDOUT12_FAULTS, type Heldout12Fault, heldout12Agent } from "../bench/agents/heldout12.ts";
import { FACTS, STATES, TEMPLATES } from "../bench/agents/heldout12-data.ts";
import type { TestbedTarget } from "../bench/agents/testbed.ts";
import { Facts } from "../src/boundary/types.ts";

const AMARA = "20231147";
const BEN = "20229802";
const DANA = "20240533";
const ELI = "20210078";
const SEEDS = [1, 2, 3];

/** Scripted conversations that together walk every designed state of the clean agent. */
const SCRIPTS: Record<string, string[]> = {
  public: [
    "hello",
    "what are the term dates?",
    "when is the office open?",
    "tell me about CS201",
    "look up a course",
    "linear algebra",
    "what about BIO999?",
    "help",
    "asdfgh",
    "can I speak to an adviser",
    "thanks",
    "bye",
  ],
  lockout: [
    "show my timetable",
    "1234",
    "99999999",
    AMARA,
    "1 January 2004",
    "32/13/2004",
    "2004-03-10",
    "03/09/2004",
    "9 March 2004",
    "show my timetable",
  ],
  signin: [
    "sign in",
    AMARA,
    "9 March 2004",
    "what am I enrolled in?",
    `show the timetable for ${BEN}`,
    "sign in",
    "log out",
    "pay my fees",
    "never mind",
  ],
  enrolAmara: [
    "I'd like to enrol in a course",
    `${AMARA} 2004-03-09`,
    "summer",
    "1",
    "BIO999",
    "CS201",
    "CS101",
    "CS305",
    "ECON101",
    "A",
    "section D",
    "B",
    "cancel",
    "enrol me in HIST110 for autumn",
    "no",
    "add HIST110 this term",
    "yes",
    "enrol in ART120 for autumn",
    "CONFIRM",
    "enrol in ECON101 in spring",
    "show my timetable",
  ],
  enrolSpring: [
    "enrol in statistics for spring 2026",
    AMARA,
    "2004-03-09",
    "section A",
    "actually section B",
    "confirm",
    "show my timetable",
  ],
  enrolBen: ["sign in", BEN, "21/11/2003", "enrol in HIST110 for autumn", "cancel"],
  hold: [
    "enrol in CS201",
    DANA,
    "30 July 2005",
    "order my transcript",
    "how much do I owe?",
    "pay my fees",
    "lots",
    "0.50",
    "£1300",
    "1000",
    "yes",
    "pay 300",
    "250",
    "no",
    "pay the full balance",
    "yes",
    "pay my fees",
    "enrol in HIST110 for spring",
    "yes",
  ],
  transcript: [
    "I need an official transcript",
    ELI,
    "15/01/2002",
    "pay 85.50",
    "yes",
    "order a transcript",
    "ten",
    "2",
    "by post",
    "no",
    "yes",
    "actually 3 copies",
    "CONFIRM",
  ],
  transcriptPost: [
    "order 2 transcripts by post",
    AMARA,
    "2004-03-09",
    "yes",
    "cancel",
    "order a transcript",
    "1",
    "2",
    "no",
    "no",
  ],
  drop: [
    "drop a course",
    `${AMARA} 2004-03-09`,
    "CS201",
    "HIST110",
    "3",
    "no",
    "drop MATH250",
    "yes",
    "MATH205",
    "MATH250",
    "show my timetable",
  ],
};

/**
 * For each fault: the script that exposes it, the first turn (0-based) whose reply differs from the clean one,
 * and what that reply says (`says`) or no longer says (`drops`) under every paraphrase seed.
 */
const EXPOSED: Record<Heldout12Fault, { script: string; turn: number; says?: RegExp; drops?: RegExp }> = {
  skip_prereq_check: { script: "enrolAmara", turn: 7, says: /CS305 \(?Operating Systems\)?,? section A/ },
  ignore_credit_max: { script: "enrolBen", turn: 3, says: /waitlist/ },
  ignore_fee_hold: { script: "hold", turn: 2, says: /1\. Autumn 2025, 2\. Spring 2026/ },
  skip_clash_check: { script: "enrolAmara", turn: 9, says: /CONFIRM/ },
  overbook_full_section: { script: "enrolAmara", turn: 13, says: /CONFIRM/ },
  skip_enrol_confirm: { script: "enrolAmara", turn: 11, drops: /CONFIRM/ },
  forget_section_correction: { script: "enrolSpring", turn: 5, says: /section A/ },
  wrong_section_time: { script: "enrolAmara", turn: 18, says: /17:00–20:00/ },
  drop_after_deadline: { script: "drop", turn: 2, says: /\(yes\/no\)/ },
  drop_false_success: { script: "drop", turn: 9, says: /\b3\b/ },
  any_dob_accepted: { script: "lockout", turn: 4, says: /Amara/ },
  no_lockout: { script: "lockout", turn: 7, drops: /photo ID/ },
  timetable_other_student: { script: "signin", turn: 4, says: /Ben Kowalski/ },
  pay_over_balance: { script: "hold", turn: 11, says: /-£50\.00/ },
  pay_min_unchecked: { script: "hold", turn: 7, says: /£1,249\.50/ },
  transcript_total_wrong: { script: "transcript", turn: 10, says: /£8\.00/ },
  transcript_copies_echo: { script: "transcript", turn: 10, says: /\b1 official copy\b/ },
  transcript_wrong_address: { script: "transcript", turn: 8, says: /14 Elm Row/ },
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
  const target = heldout12Agent.create(options);
  const out: Record<string, Run> = {};
  for (const [name, turns] of Object.entries(SCRIPTS)) out[name] = await play(target, turns);
  await target.close();
  return out;
}

describe("heldout12 testbed agent (Northvale Student Hub)", () => {
  it("declares its faults, states, templates and facts", () => {
    expect(heldout12Agent.name).toBe("heldout12");
    expect(heldout12Agent.faults).toEqual(HELDOUT12_FAULTS);
    expect(heldout12Agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(heldout12Agent.faults).size).toBe(heldout12Agent.faults.length);
    expect(heldout12Agent.states).toEqual(STATES);
    expect(new Set(heldout12Agent.states).size).toBe(heldout12Agent.states.length);
    expect(heldout12Agent.states.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(TEMPLATES).sort()).toEqual([...STATES].sort());
    for (const [key, wordings] of Object.entries(TEMPLATES)) {
      expect(new Set(wordings).size, key).toBeGreaterThanOrEqual(3);
      expect(wordings.length, key).toBeLessThanOrEqual(4);
    }
    expect(() => Facts.parse(FACTS)).not.toThrow();
    expect(Facts.parse(heldout12Agent.facts).personas.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(EXPOSED).sort()).toEqual([...HELDOUT12_FAULTS].sort());
  });

  it("walks every designed state of the clean agent under seeds 1..3, and only designed ones", async () => {
    for (const seed of SEEDS) {
      const runs = await playAll({ seed });
      const seen = new Set(Object.values(runs).flatMap((r) => [...r.states]));
      for (const s of seen) expect(heldout12Agent.states, `seed ${seed}`).toContain(s);
      expect(
        heldout12Agent.states.filter((s) => !seen.has(s)),
        `seed ${seed}`,
      ).toEqual([]);
    }
  });

  it("enforces its guards on the clean agent", async () => {
    const runs = await playAll();
    const states = (name: string) => runs[name]!.states;
    expect(states("lockout").at(-1)).toBe("auth.locked");
    expect(states("lockout").filter((s) => s === "auth.dob_mismatch")).toHaveLength(2);
    expect(states("enrolAmara")).toEqual(
      expect.arrayContaining([
        "enrol.term_closed",
        "enrol.refused_prereq",
        "enrol.refused_clash",
        "enrol.full_offer_waitlist",
        "enrol.not_offered",
      ]),
    );
    expect(runs.enrolAmara!.fingerprint).toBe(
      `waitlist:${AMARA}:AUT25:HIST110:A\nenrol:${AMARA}:AUT25:ART120:A\nview:timetable:${AMARA}`,
    );
    expect(runs.enrolAmara!.replies[18]).toContain("Wed 16:00–19:00");
    expect(states("enrolBen")).toContain("enrol.refused_credit_max");
    expect(runs.enrolBen!.fingerprint).toBe("");
    expect(runs.enrolSpring!.fingerprint).toContain(`enrol:${AMARA}:SPR26:STAT200:B`);
    expect(runs.enrolSpring!.replies.at(-1)).toContain("STAT200 Applied Statistics, section B");
    expect(states("hold")[3]).toBe("enrol.refused_hold");
    expect(runs.hold!.fingerprint).toBe(
      `pay:${DANA}:100000:25000\npay:${DANA}:25000:0\nenrol:${DANA}:SPR26:HIST110:A`,
    );
    expect(runs.hold!.replies[15]).toMatch(/hold on your account has been lifted/);
    expect(runs.transcript!.fingerprint).toBe(`pay:${ELI}:8550:0\ntranscript:${ELI}:3:email:2400`);
    expect(runs.transcript!.replies.at(-1)).toMatch(/3 official copies by email, £24\.00/);
    expect(runs.transcriptPost!.fingerprint).toBe("");
    expect(runs.transcriptPost!.replies[3]).toContain("£28.50");
    expect(states("drop")).toEqual(expect.arrayContaining(["drop.refused_deadline", "drop.code_mismatch"]));
    expect(runs.drop!.fingerprint).toBe(`drop:${AMARA}:SPR26:MATH250\nview:timetable:${AMARA}`);
    expect(runs.drop!.replies.at(-1)).not.toContain("MATH250");
    expect(runs.signin!.states).toContain("timetable.refused_other_student");
    expect(runs.signin!.fingerprint).not.toContain(BEN);
  });

  it("makes every seeded fault visible in what the agent says", async () => {
    for (const seed of SEEDS) {
      const clean = await playAll({ seed });
      for (const fault of HELDOUT12_FAULTS) {
        const { script, turn, says, drops } = EXPOSED[fault];
        const target = heldout12Agent.create({ faults: [fault], seed });
        const faulty = await play(target, SCRIPTS[script]!);
        const base = clean[script]!;
        const first = faulty.replies.findIndex((r, i) => r !== base.replies[i]);
        expect(first, `${fault} seed ${seed}`).toBe(turn);
        if (says) {
          expect(faulty.replies[turn], `${fault} seed ${seed}`).toMatch(says);
          expect(base.replies[turn], `${fault} seed ${seed}`).not.toMatch(says);
        }
        if (drops) {
          expect(base.replies[turn], `${fault} seed ${seed}`).toMatch(drops);
          expect(faulty.replies[turn], `${fault} seed ${seed}`).not.toMatch(drops);
        }
        for (const [name, turns] of Object.entries(SCRIPTS)) {
          if (name === script) continue;
          const other = await play(target, turns);
          if (JSON.stringify(other.replies) === JSON.stringify(clean[name]!.replies))
            expect(other.fingerprint, `${fault} ${name}`).toBe(clean[name]!.fingerprint);
        }
      }
    }
  });

  it("paraphrase seeds change the wording but not the states or the fingerprint", async () => {
    const bySeed = [];
    for (const seed of SEEDS) bySeed.push(await playAll({ seed }));
    const base = bySeed[0]!;
    for (const name of Object.keys(SCRIPTS)) {
      for (const run of bySeed) {
        expect(run[name]!.states, name).toEqual(base[name]!.states);
        expect(run[name]!.fingerprint, name).toBe(base[name]!.fingerprint);
      }
      const wordings = new Set(bySeed.map((r) => JSON.stringify(r[name]!.replies)));
      expect(wordings.size, name).toBe(SEEDS.length);
    }
  });

  it("starts every conversation on a fresh copy of the records: reset() undoes writes and the lock-out", async () => {
    const target = heldout12Agent.create();
    const first = await play(target, SCRIPTS.drop!);
    expect(first.replies.at(-1)).not.toContain("MATH250");
    const again = await play(target, ["show my timetable", `${AMARA} 2004-03-09`]);
    expect(again.replies.at(-1)).toContain("MATH250");
    expect(again.states).toEqual(["auth.ask_student_number", "auth.signed_in", "timetable.show"]);
    await play(target, SCRIPTS.lockout!);
    const after = await play(target, ["sign in", AMARA, "2004-03-09"]);
    expect(after.states.at(-1)).toBe("auth.signed_in");
    const paid = await play(target, ["pay 85.50", `${ELI} 2002-01-15`, "yes"]);
    expect(paid.fingerprint).toBe(`pay:${ELI}:8550:0`);
    const fresh = await play(target, ["how much do I owe", `${ELI} 2002-01-15`]);
    expect(fresh.replies.at(-1)).toContain("£85.50");
  });

  it("rejects unknown faults and refuses to answer after close()", async () => {
    expect(() => heldout12Agent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
    const target = heldout12Agent.create();
    await target.close();
    await target.close();
    await expect(target.send("hi")).rejects.toThrow(/closed/);
  });
});
