import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { airlineTarget } from "../src/agents/chat/airline/agent.ts";
import { AIRLINE_FACTS } from "../src/agents/chat/airline/facts.ts";
import { type ChatTarget, TargetError } from "../src/agents/chat/target.ts";
import { correctionAt } from "../src/boundary/driver-values.ts";
import { rulesRunner, runPlan, runTest } from "../src/boundary/run.ts";
import type { Judge, Labeller, TestCase } from "../src/boundary/types.ts";

/** Execution (AgentEval §III-B): the rules runner, one test, and a resumable plan, with stub labeller/judge. */

/** Labels every turn `other` / `reply`. */
const labeller: Labeller = {
  async label(trace) {
    return trace.turns.map(() => ({ userAction: "other", activity: "reply", provided: [], summary: "" }));
  },
};
/** Passes when some reply says a reservation is cancelled, else fails. */
const judge: Judge = {
  async judge(_test, turns) {
    const done = turns.findIndex((t) => /is cancelled/.test(t.reply));
    return done >= 0
      ? {
          verdict: "pass",
          reason: "cancelled",
          quotes: [{ turn: done, speaker: "agent", text: "cancelled" }],
          criteria: [],
        }
      : { verdict: "fail", reason: "not cancelled", quotes: [], criteria: [] };
  },
};
const engines = { runner: rulesRunner, labeller, judge, facts: AIRLINE_FACTS };

const test = (
  id: string,
  hints: string[],
  persona: Record<string, string> = {},
  turnBudget = 6,
): TestCase => ({
  id,
  kind: "functional",
  goal: "cancel a reservation",
  hints,
  persona,
  success: [{ text: "the reservation is cancelled" }],
  failure: [],
  turnBudget,
  source: { traceId: "d01", turns: [0] },
});
const users = (turns: { user: string }[]) => turns.map((t) => t.user);

describe("rules runner", () => {
  it("sends a hint of the slot's own form as it is (a wrong date of birth on purpose), not the persona's value", async () => {
    const t = test("t0", ["02/11/1983", "Clarkf", "Leeds"], {
      date_of_birth: "02/11/1982",
      last_name: "Clarke",
    });
    const turn = (reply: string, user = "hi") => ({ user, reply, ms: 0 });
    expect(await rulesRunner.next({ test: t, turns: [turn("What's your date of birth?")] })).toBe(
      "02/11/1983",
    );
    expect(
      await rulesRunner.next({
        test: t,
        turns: [turn("What's your date of birth?", "02/11/1983"), turn("And your last name?")],
      }),
    ).toBe("Clarkf");
    // Another kind of value is not an answer to the question: the persona's comes first.
    expect(
      await rulesRunner.next({
        test: t,
        turns: [
          turn("x", "02/11/1983"),
          turn("What's your last name?", "Clarkf"),
          turn("Your last name again, please?"),
        ],
      }),
    ).toBe("Clarke");
  });
  it("after a correction at a gate, answers what the agent asks about it with the corrected value", async () => {
    const fix = "Actually, please make it check-up instead of vaccination.";
    const t = test("t0b", ["book for Biscuit", fix, "1"], {
      appointment_type: "vaccination",
      pet_name: "Biscuit",
    });
    const turn = (reply: string, user: string) => ({ user, reply, ms: 0 });
    const gate = turn(
      "Vaccination for Biscuit on Mon 20 Jan. 1) Confirm 2) Change something",
      "book for Biscuit",
    );
    const menu = "Sure, what needs changing: 1 - Appointment type; 2 - Vet; 3 - Date; 4 - Time?";
    expect(await rulesRunner.next({ test: t, turns: [gate, turn(menu, fix)] })).toBe("Appointment type");
    const asked = turn("And what type of appointment should it be?", "Appointment type");
    expect(await rulesRunner.next({ test: t, turns: [gate, turn(menu, fix), asked] })).toMatch(/check-up/);
    // A question about another slot, or none after the correction: the hints go on.
    const vet = turn("Which vet would you like?", fix);
    expect(await rulesRunner.next({ test: t, turns: [gate, vet] })).toBe("1");
    const plain = test("t0c", ["book for Biscuit", "1"], { appointment_type: "vaccination" });
    const again = turn("What type of appointment is it?", "book for Biscuit");
    expect(await rulesRunner.next({ test: plain, turns: [again] })).toMatch(/vaccination/);
  });

  it("corrects a figure the gate reads back, never the day of a date that shares its digits", () => {
    const facts = { personas: [{ tip_amount: ["30", "5"] }], requests: [] };
    const at = (gate: string) => [
      { user: "hi", reply: "x", ms: 0 },
      { user: "30", reply: gate, ms: 0 },
    ];
    expect(
      correctionAt({ tip_amount: ["30", "5"] }, at("SUMMER10, valid until 30 June. Add it?"), facts),
    ).toBeUndefined();
    expect(
      correctionAt({ tip_amount: ["30", "5"] }, at("A tip of £30.00 on FK-20436. Confirm?"), facts)?.text,
    ).toBe("Actually, please make it 5 instead of 30.");
  });

  it("answers the user id the agent asks for from the persona, then stops when hints are spent", async () => {
    const run = await runTest(
      airlineTarget(),
      test("t1", ["cancel HAT1A1"], { user_id: "mia_li_3668" }),
      engines,
    );
    expect(users(run.turns)).toEqual(["cancel HAT1A1", "My user id is mia_li_3668."]);
    expect(run.turns[0]?.reply).toMatch(/user id/);
    expect(run.turns[1]?.reply).toMatch(/reason|why/);
  });

  it("answers from the persona first, then goes on with the hints", async () => {
    const hints = ["cancel HAT1A1", "change of plan", "yes"];
    const run = await runTest(airlineTarget(), test("t2", hints, { user_id: "mia_li_3668" }), engines);
    expect(users(run.turns)).toEqual([
      "cancel HAT1A1",
      "My user id is mia_li_3668.",
      "change of plan",
      "yes",
    ]);
    expect(run.verdict.verdict).toBe("pass");
    expect(run.labels).toHaveLength(4);
    expect(run.target).toBe("airline");
  });

  it("sends a hint that gives its own id verbatim instead of the persona's", async () => {
    const hints = ["cancel my reservation", "my user id is omar_davis_3817"];
    const run = await runTest(airlineTarget(), test("t3", hints, { user_id: "mia_li_3668" }), engines);
    expect(users(run.turns)).toEqual(hints);
  });

  it("never answers a confirmation gate on its own", async () => {
    const hints = ["cancel HAT1A1 for mia_li_3668, change of plan"];
    const run = await runTest(airlineTarget(), test("t4", hints, { user_id: "mia_li_3668" }), engines);
    expect(run.turns).toHaveLength(1);
    expect(run.turns[0]?.reply).toMatch(/yes/);
    expect(run.verdict.verdict).toBe("fail");
  });

  it("respects the turn budget", async () => {
    const hints = ["cancel my reservation", "mia_li_3668", "HAT1A1", "change of plan", "yes"];
    const run = await runTest(airlineTarget(), test("t5", hints, {}, 2), engines);
    expect(users(run.turns)).toEqual(hints.slice(0, 2));
    expect(await rulesRunner.next({ test: test("t5", hints, {}, 2), turns: run.turns })).toBeUndefined();
  });
});

describe("runTest and runPlan", () => {
  const flaky = (failAt: number): ChatTarget => {
    const inner = airlineTarget();
    let sends = 0;
    return {
      name: "flaky",
      reset: () => inner.reset(),
      close: () => inner.close(),
      async send(text) {
        if (++sends === failAt) throw new TargetError("flaky", "timed out after 30000 ms");
        return inner.send(text);
      },
    };
  };

  it("a target error gives an inconclusive verdict with the error, not a throw", async () => {
    const run = await runTest(flaky(2), test("t6", ["cancel HAT1A1", "mia_li_3668"]), engines);
    expect(run.verdict.verdict).toBe("inconclusive");
    expect(run.error).toBe("flaky: timed out after 30000 ms");
    expect(run.turns).toHaveLength(2);
    expect(run.turns[1]?.reply).toBe("");
  });

  it("runs tests in order, appends each run, and resumes by test id", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "gauntlet-run-")), "c", "runs.jsonl");
    const tests = [
      test("t-a", ["cancel HAT1A1", "change of plan", "yes"], { user_id: "mia_li_3668" }),
      test("t-b", ["cancel HAT2B2"], { user_id: "omar_davis_3817" }),
      test("t-c", ["cancel HAT1A1", "mia_li_3668"]),
    ];
    const first: string[] = [];
    await runPlan(airlineTarget(), tests.slice(0, 2), { ...engines, file, onProgress: (l) => first.push(l) });
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^run 1\/2 t-a: pass \(\d+\.\d s\)$/);
    expect(first[1]).toMatch(/^run 2\/2 t-b: fail /);
    const second: string[] = [];
    const runs = await runPlan(flaky(2), tests, { ...engines, file, onProgress: (l) => second.push(l) });
    expect(second[0]).toBe("run: 2 of 3 tests already done, resuming");
    expect(second[1]).toMatch(
      /^run 3\/3 t-c: inconclusive \(.*\) — target error: flaky: timed out after 30000 ms$/,
    );
    expect(runs.map((r) => [r.testId, r.verdict.verdict])).toEqual([
      ["t-a", "pass"],
      ["t-b", "fail"],
      ["t-c", "inconclusive"],
    ]);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines.map((l) => JSON.parse(l).testId)).toEqual(["t-a", "t-b", "t-c"]);
  });
});
