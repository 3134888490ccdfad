import { describe, expect, it } from "vitest";
import { HELDOUT11_FAULTS, heldout11Agent } from "../bench/agents/heldout11.ts";
import { FACTS, TEMPLATES } from "../bench/agents/heldout11-data.ts";
import type { TestbedTarget } from "../bench/agents/testbed.ts";
import { Facts } from "../src/boundary/types.ts";

const MAYA = "21234500012345";
const LEO = "21234500067890";
const PRIYA = "21234500099991";

/** Scripted conversations that together walk the designed states of the clean agent. */
const SCRIPTS: Record<string, string[]> = {
  public: [
    "hello",
    "what are your opening hours?",
    "any events this week?",
    "is The Hobbit available?",
    "do you have Dune?",
    "search the catalogue",
    "Moby Dick",
    "blorp",
    "can I talk to a librarian",
    "thanks, bye",
  ],
  lockout: ["show my loans", "1234567", "21234500055555", MAYA, "0000", "1111", "9999", "renew dune"],
  renew: [
    "renew a book",
    `${MAYA} 4821`,
    "Moby Dick",
    "Dune",
    "renew Educated",
    "renew Circe",
    "renew the hobbit",
    "no",
    "renew the hobbit",
    "yes",
    "show my loans",
    `show the loans for card ${PRIYA}`,
  ],
  holds: [
    "place a hold",
    MAYA,
    "4821",
    "Project Hail Mary",
    "yes",
    "2",
    "hold The Midnight Library",
    "cancel",
    "reserve Where the Crawdads Sing",
    "hold Demon Copperhead",
    "hold The Midnight Library",
    "1",
    "hold Lessons in Chemistry",
  ],
  child: [
    "sign in",
    LEO,
    "1357",
    "hold American Psycho",
    "hold The Hunger Games",
    "Millbrook",
    "renew The Wild Robot",
    "pay my fines",
  ],
  fines: [
    "pay my fines",
    MAYA,
    "4821",
    "$10",
    "0.50",
    "2",
    "1111",
    "actually pay $4.50",
    "4242",
    "what do I owe?",
  ],
  fineDecline: ["pay $5 of my fines", `${PRIYA} 2468`, "no"],
  room: [
    "book a study room",
    MAYA,
    "4821",
    "Sunday",
    "2025-04-30",
    "2025-03-12",
    "2 pm",
    "12 people",
    "4 people",
    "5 hours",
    "2 hours",
    "10 am",
    "actually make it 3 hours",
    "EDIT",
    "the time",
    "7 pm",
    "11 am",
    "CONFIRM",
    "book a study room tomorrow at 10 am for 1 hour for 2 people",
    "no",
  ],
  email: [
    "change my email",
    `${MAYA} 4821`,
    "priya.nair(at)mail",
    "maya.c@mailbox.org",
    "actually it's maya.chen2@mailbox.org",
    "no",
    "update my email to maya.c@mailbox.org",
    "yes",
  ],
  lost: [
    "I lost my library card",
    MAYA,
    "4821",
    "1111",
    "stop",
    "report my card as lost",
    "yes",
    "4821",
    "show my loans",
    MAYA,
  ],
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
  const target = heldout11Agent.create(options);
  const out: Record<string, Run> = {};
  for (const [name, turns] of Object.entries(SCRIPTS)) out[name] = await play(target, turns);
  await target.close();
  return out;
}

describe("heldout11 testbed agent (Shelfwise library assistant)", () => {
  it("declares its faults, states and facts", () => {
    expect(heldout11Agent.faults).toEqual(HELDOUT11_FAULTS);
    expect(heldout11Agent.faults.length).toBeGreaterThanOrEqual(10);
    expect(new Set(heldout11Agent.states).size).toBe(heldout11Agent.states.length);
    expect(heldout11Agent.states.length).toBeGreaterThanOrEqual(35);
    expect(() => Facts.parse(FACTS)).not.toThrow();
    expect(Facts.parse(heldout11Agent.facts).personas.length).toBeGreaterThanOrEqual(3);
    for (const [key, wordings] of Object.entries(TEMPLATES)) {
      expect(new Set(wordings).size, key).toBeGreaterThanOrEqual(3);
    }
  });

  it("walks nearly every designed state on the clean agent, and only designed ones", async () => {
    const runs = await playAll();
    const seen = new Set(Object.values(runs).flatMap((r) => [...r.states]));
    for (const s of seen) expect(heldout11Agent.states).toContain(s);
    const missed = heldout11Agent.states.filter((s) => !seen.has(s));
    expect(missed).toEqual([]);
    expect(seen.size / heldout11Agent.states.length).toBeGreaterThanOrEqual(0.9);
  });

  it("enforces its guards on the clean agent", async () => {
    const runs = await playAll();
    const last = (name: string) => runs[name]!.states.at(-1);
    expect(runs.lockout!.states).toContain("auth.locked");
    expect(last("lockout")).toBe("auth.locked");
    expect(runs.renew!.states).toEqual(
      expect.arrayContaining(["renew.refused_limit", "renew.refused_hold", "renew.refused_overdue"]),
    );
    expect(last("renew")).toBe("loans.refused_other_card");
    expect(last("holds")).toBe("hold.refused_limit");
    expect(runs.child!.states).toContain("hold.refused_restricted");
    expect(runs.room!.fingerprint).toContain(`room:${MAYA}:room-a:2025-03-12:660:3:4`);
    expect(runs.fines!.fingerprint).toContain(`fine_paid:${MAYA}:450:0`);
    expect(runs.fineDecline!.fingerprint).not.toContain("fine_paid");
    expect(runs.email!.fingerprint.match(/email:/g)).toHaveLength(1);
    expect(runs.lost!.fingerprint.match(/lost:/g)).toHaveLength(1);
    expect(last("lost")).toBe("auth.card_unknown");
  });

  it("keeps writes within one conversation: reset() restores the seeded database", async () => {
    const target = heldout11Agent.create();
    const first = await play(target, ["renew the hobbit", `${MAYA} 4821`, "yes", "show my loans"]);
    expect(first.replies.at(-1)).toContain("31 Mar");
    const again = await play(target, ["show my loans", `${MAYA} 4821`]);
    expect(again.replies.at(-1)).toContain("14 Mar");
    expect(again.replies.at(-1)).not.toContain("31 Mar");
    const other = heldout11Agent.create();
    await play(target, ["renew the hobbit", `${MAYA} 4821`, "yes"]);
    const fresh = await play(other, ["show my loans", `${MAYA} 4821`]);
    expect(fresh.replies.at(-1)).toContain("14 Mar");
  });

  it("every seeded fault changes behaviour on some script", async () => {
    const clean = await playAll();
    for (const fault of HELDOUT11_FAULTS) {
      const faulty = await playAll({ faults: [fault] });
      const differs = Object.keys(SCRIPTS).filter(
        (name) =>
          JSON.stringify(faulty[name]!.replies) !== JSON.stringify(clean[name]!.replies) ||
          faulty[name]!.fingerprint !== clean[name]!.fingerprint,
      );
      expect(differs.length, fault).toBeGreaterThan(0);
    }
  });

  it("paraphrase seeds change the wording but not the states or the fingerprint", async () => {
    const bySeed = [];
    for (let seed = 1; seed <= 5; seed++) bySeed.push(await playAll({ seed }));
    const base = bySeed[0]!;
    for (const name of Object.keys(SCRIPTS)) {
      for (const run of bySeed) {
        expect(run[name]!.states, name).toEqual(base[name]!.states);
        expect(run[name]!.fingerprint, name).toBe(base[name]!.fingerprint);
      }
      const wordings = new Set(bySeed.map((r) => JSON.stringify(r[name]!.replies)));
      expect(wordings.size, name).toBe(5);
    }
  });

  it("rejects unknown faults and refuses to answer after close()", async () => {
    expect(() => heldout11Agent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
    const target = heldout11Agent.create();
    await target.close();
    await target.close();
    await expect(target.send("hi")).rejects.toThrow(/closed/);
  });
});
