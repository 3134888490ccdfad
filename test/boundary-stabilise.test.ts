import { describe, expect, it } from "vitest";
import type { ChatTarget } from "../src/agents/chat/target.ts";
import { rulesLabeller } from "../src/boundary/abstract.ts";
import { rulesJudge } from "../src/boundary/judge.ts";
import { rulesRunner } from "../src/boundary/run.ts";
import { stabilisePlan } from "../src/boundary/stabilise.ts";
import type { Criterion, Facts, TestCase } from "../src/boundary/types.ts";

/**
 * The plan stage keeps a test only when it passes every run against the agent it was planned from, run as
 * `boundary run` runs it (stabilise.ts): a test the clean agent fails under another paraphrase seed, or
 * because the runner answered a question the discovery trace never saw, must not reach CI.
 */

const FACTS: Facts = { personas: [{ order_number: ["A-1001"] }], requests: [] };

/** A tiny shop bot: asks for the order number, then reports the status; `seed` 2 words it differently. */
function shop(seed: number, reference = () => "REF-1"): ChatTarget {
  let asked = false;
  return {
    name: `shop?seed=${seed}`,
    async reset() {
      asked = false;
    },
    async send(text: string) {
      if (/A-1001/.test(text))
        return {
          text:
            seed === 2
              ? `Order A-1001 has shipped (ticket ${reference()}). Anything else?`
              : `Your order A-1001 is on its way (ticket ${reference()}). Anything else?`,
          ms: 0,
        };
      if (!asked) {
        asked = true;
        return { text: "Sure. What is your order number?", ms: 0 };
      }
      return { text: "Sorry, I did not get that. What is your order number?", ms: 0 };
    },
    async close() {},
  };
}

const test = (id: string, kind: TestCase["kind"], success: Criterion[], failure: Criterion[] = []) =>
  ({
    id,
    kind,
    goal: "track an order",
    hints: ["Where is my order?"],
    persona: { order_number: "A-1001" },
    success,
    failure,
    turnBudget: 4,
    source: { traceId: "d01", turns: [0, 1] },
  }) satisfies TestCase;

const engines = { runner: rulesRunner, labeller: rulesLabeller, judge: rulesJudge, facts: FACTS };
const mentions = (values: string[]): Criterion => ({
  text: `the agent states ${values.map((v) => `"${v}"`).join(", ")} (values from the trace)`,
  check: { kind: "mentions", values, from: 0 },
});

describe("stabilisePlan", () => {
  it("keeps what passes on every variant, drops a test one paraphrase seed fails, and says why", async () => {
    const tests = [
      test("f-order", "functional", [mentions(["A-1001"])]),
      test("b-wording", "boundary", [mentions(["on its way"])]),
    ];
    const out = await stabilisePlan([shop(1), shop(2)], tests, engines, { sessions: 3 });
    expect(out.tests.map((t) => t.id)).toEqual(["f-order"]);
    expect(out.rejected).toEqual([
      {
        id: "b-wording",
        kind: "boundary",
        reason: expect.stringMatching(/^fail against shop\?seed=2: /),
        goal: expect.any(String),
        // The failing run, so a person can see what the agent said instead.
        turns: expect.arrayContaining([
          expect.objectContaining({ user: expect.any(String), activity: expect.any(String) }),
        ]),
      },
    ]);
    // Three passes of two tests, less b-wording's third (a boundary test that failed is not run again), then
    // the rehearsal of f-order on both targets.
    expect(out.conversations).toBe(7);
    // The runner answered the order-number question from the persona, as `boundary run` does.
    expect(out.targetTurns).toBe(14);
  });

  it("runs the plan in passes, each the whole plan in plan order against one target, as `boundary run` does", async () => {
    const seen: string[] = [];
    const logged = (seed: number) => {
      const t = shop(seed);
      const send = t.send.bind(t);
      let first = true;
      return {
        ...t,
        async reset() {
          first = true;
          await t.reset();
        },
        async send(text: string) {
          if (first) seen.push(`${t.name}: ${text}`);
          first = false;
          return send(text);
        },
      };
    };
    const tests = ["Where is my order?", "Track A-1001 please"].map((hint, i) => ({
      ...test(`f-${i}`, "functional", [mentions(["A-1001"])]),
      hints: [hint],
    }));
    await stabilisePlan([logged(1), logged(2)], tests, engines, { sessions: 3 });
    expect(seen.map((s) => s.replace(/:.*order.*/i, ": 0").replace(/:.*A-1001.*/, ": 1"))).toEqual([
      "shop?seed=1: 0",
      "shop?seed=1: 1",
      "shop?seed=2: 0",
      "shop?seed=2: 1",
      "shop?seed=1: 0",
      "shop?seed=1: 1",
      // The rehearsal: the kept plan in plan order on each target.
      "shop?seed=1: 0",
      "shop?seed=1: 1",
      "shop?seed=2: 0",
      "shop?seed=2: 1",
    ]);
  });

  it("keeps a functional test whose success criteria a paraphrase undid when it still holds a guard", async () => {
    const stop: Criterion = {
      text: "After the refusal at turn 2 the agent asks to confirm or reports the action done.",
      check: { kind: "activity", activity: ["request_confirmation", "confirm_completion"], from: 1 },
    };
    const guarded = { ...test("f-guard", "functional", [mentions(["REF-9"])]), failure: [stop] };
    const bare = test("f-bare", "functional", [mentions(["REF-9"])]);
    const out = await stabilisePlan([shop(1)], [guarded, bare], engines);
    // REF-9 is never said: both lose their success criterion; only the one that holds a guard stays.
    expect(out.tests.map((t) => [t.id, t.success.length, t.failure.length])).toEqual([["f-guard", 0, 1]]);
    expect(out.droppedTests).toBe(1);
  });

  it("drops in the rehearsal a test that fails only after the conversations the real run puts before it", async () => {
    // A target whose 11th conversation goes wrong: the third pass ends at the 9th, the rehearsal of the kept plan
    // meets f-b there (as `boundary run` of that plan on a fresh agent with the same history would).
    let conversation = 0;
    const base = shop(1);
    const counted = {
      ...base,
      async reset() {
        conversation++;
        await base.reset();
      },
      async send(text: string) {
        if (conversation === 11) return { text: "Sorry, our systems are down.", ms: 0 };
        return base.send(text);
      },
    };
    const tests = ["f-a", "f-b", "f-c"].map((id) => test(id, "functional", [mentions(["A-1001"])]));
    const out = await stabilisePlan([counted], tests, engines, { sessions: 3 });
    expect(out.tests.map((t) => t.id)).toEqual(["f-a", "f-c"]);
    expect(out.rejected.map((r) => [r.id, r.reason.includes("rehearsal")])).toEqual([["f-b", true]]);
    expect(conversation).toBe(14);
  });

  it("drops from a functional test a value the agent makes up per conversation, keeps what reproduces", async () => {
    let n = 0;
    const target = shop(1, () => `REF-${++n}`);
    const out = await stabilisePlan(
      [target],
      [test("f-ref", "functional", [mentions(["A-1001", "REF-1"])])],
      engines,
    );
    expect(out.sessions).toBe(3);
    expect(out.droppedValues).toBe(1);
    expect(out.tests[0]?.success[0]?.check).toMatchObject({ values: ["A-1001"] });
    expect(out.rejected).toEqual([]);
  });

  it("keeps a test unverified (not dropped) when the target cannot answer", async () => {
    const { TargetError } = await import("../src/agents/chat/target.ts");
    const down: ChatTarget = {
      name: "down",
      async reset() {},
      async send() {
        throw new TargetError("down", "connection refused");
      },
      async close() {},
    };
    const out = await stabilisePlan([down], [test("f-x", "functional", [mentions(["A-1001"])])], engines);
    expect(out.unverified).toBe(1);
    expect(out.tests.map((t) => t.id)).toEqual(["f-x"]);
  });

  it("holds a step every clean run reached at its own turn to that turn, and leaves a late one loose", async () => {
    const step = (from: number): Criterion => ({
      text: `At turn ${from + 1} (or the next), the agent reaches inform (as at turn ${from + 1} of the discovery trace).`,
      check: { kind: "activity", activity: ["inform"], from, until: from + 1 },
    });
    // Every run informs at turn 2 (after the order-number question): from turn 2 it is exact; from turn 1 it
    // only holds a turn late, so it stays loose.
    const out = await stabilisePlan(
      [shop(1), shop(2)],
      [test("f-step", "functional", [step(1), step(0)])],
      engines,
    );
    const [exact, late] = out.tests[0]?.success ?? [];
    expect(exact?.check).toMatchObject({ from: 1, until: 1 });
    expect(exact?.text).not.toContain("(or the next)");
    expect(late?.check).toMatchObject({ from: 0, until: 1 });
    expect(late?.text).toContain("(or the next)");
  });

  it("requires a worked-out figure every clean run stated, and drops one a run left out", async () => {
    const figure = (derived: string[]): Criterion => ({
      text: `Its inform reply states "A-1001", and ${derived.map((d) => `"${d}"`).join(", ")} or no other figure in its place (values observed in discovery).`,
      check: { kind: "mentions", values: ["A-1001"], derived, from: 1 },
    });
    // Both seeds state the ticket; only seed 1 says "on its way".
    const out = await stabilisePlan(
      [shop(1), shop(2)],
      [test("f-fig", "functional", [figure(["REF-1"]), figure(["on its way"])])],
      engines,
    );
    const [ticket, wording] = out.tests[0]?.success ?? [];
    expect(ticket?.check).toEqual({ kind: "mentions", values: ["A-1001", "REF-1"], from: 1 });
    expect(ticket?.text).not.toContain("no other figure");
    expect(wording?.check).toEqual({ kind: "mentions", values: ["A-1001"], from: 1 });
  });
});
