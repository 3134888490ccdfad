import { describe, expect, it } from "vitest";
import { rulesLabeller } from "../src/boundary/abstract.ts";
import { functionalTests } from "../src/boundary/functional.ts";
import { mineDirectlyFollowsGraph } from "../src/boundary/graph.ts";
import { replyValues } from "../src/boundary/grounding.ts";
import { judgeByRules } from "../src/boundary/judge.ts";
import { invalidValue } from "../src/boundary/limits.ts";
import { mentionsValue } from "../src/boundary/mentions.ts";
import { boundaryTestsFor } from "../src/boundary/perturb.ts";
import { buildPlan, rulesGenerator } from "../src/boundary/plan.ts";
import { enumerateBoundaryTargets, rulesRanker, selectTargets } from "../src/boundary/targets.ts";
import type { Facts, GenerationContext, SessionTrace, WorkflowGraph } from "../src/boundary/types.ts";

/** Issue 5 §2 `plan`: boundary targets (AgentEval Table I), ranking, and the rules generators' tests. */

const facts: Facts = {
  personas: [
    { user_id: ["mia_li_3668"], reservation_id: ["HAT1A1"] },
    { user_id: ["omar_davis_3817"], reservation_id: ["HAT2B2"] },
  ],
  requests: [],
};

const trace = (id: string, turns: [string, string][]): SessionTrace => ({
  id,
  round: 0,
  plan: { phase: "happy_path", objective: "o", strategy: "s", persona: 0 },
  turns: turns.map(([user, reply]) => ({ user, reply, ms: 1 })),
  stop: "objective",
});

const cancel = trace("d01", [
  ["I'd like to cancel my reservation.", "Could you please give me your user id?"],
  ["My user id is mia_li_3668.", "Which reservation is it? Please give me the reservation id."],
  [
    "HAT1A1",
    "To confirm: cancel reservation HAT1A1 (SFO→JFK), refund $210. Do you want me to go ahead (yes/no)?",
  ],
  ["yes", "Done: reservation HAT1A1 is cancelled."],
]);
const details = trace("d02", [
  ["Show my reservation's details. My user id is omar_davis_3817.", "Could you tell me the reservation id?"],
  [
    "HAT2B2",
    "Reservation HAT2B2: SFO→JFK (round trip), economy, 2 passenger(s), insurance: no, total paid $810.",
  ],
]);

async function context(traces: SessionTrace[]): Promise<GenerationContext> {
  const abstracts = [];
  for (const t of traces) abstracts.push({ traceId: t.id, turns: await rulesLabeller.label(t, facts, []) });
  return { traces, abstracts, graph: mineDirectlyFollowsGraph(traces, abstracts), facts };
}

describe("boundary targets", () => {
  const graph: WorkflowGraph = {
    nodes: [
      { activity: "ask_user_id", support: 2, examples: [] },
      { activity: "request_confirmation", support: 1, examples: [] },
      { activity: "confirm_completion", support: 1, examples: [] },
    ],
    edges: [
      {
        from: "ask_user_id",
        to: "request_confirmation",
        frequency: 1,
        userActions: { provide_user_id: 1 },
        traces: ["a"],
      },
      {
        from: "request_confirmation",
        to: "confirm_completion",
        frequency: 1,
        userActions: { affirm: 1 },
        traces: ["a"],
      },
    ],
    entry: { ask_user_id: 2 },
    terminal: { confirm_completion: 1, ask_user_id: 1 },
    routes: {},
  };

  it("enumerates every node, edge, entry and terminal as one target (Table I)", () => {
    const targets = enumerateBoundaryTargets(graph);
    expect(targets.map((t) => `${t.kind}:${t.location}`)).toEqual([
      "node:ask_user_id",
      "node:request_confirmation",
      "node:confirm_completion",
      "edge:ask_user_id -> request_confirmation",
      "edge:request_confirmation -> confirm_completion",
      "entry:ask_user_id",
      "terminal:confirm_completion",
      "terminal:ask_user_id",
    ]);
    expect(targets[1]?.userActions).toEqual({ provide_user_id: 1 });
  });

  it("ranks the gate → completion edge first and keeps the top N stably", async () => {
    const ranked = await rulesRanker.rank(enumerateBoundaryTargets(graph), graph);
    const top = selectTargets(ranked, 3);
    expect(top.map((t) => t.location)).toEqual([
      "request_confirmation -> confirm_completion",
      "request_confirmation",
      "ask_user_id -> request_confirmation",
    ]);
    expect(top.map((t) => t.potential)).toEqual([0.97, 0.95, 0.93]);
    expect(selectTargets(ranked, 0)).toEqual([]);
  });
});

describe("rules test generators", () => {
  it("write functional tests that replay a trace and assert the values it showed, and pass on that trace", async () => {
    const ctx = await context([cancel, details]);
    const tests = functionalTests(ctx, 10);
    expect(tests.map((t) => t.hints.length)).toEqual([4, 2]);
    const shown = tests[1]!.success.find((c) => c.check?.kind === "mentions");
    // The reservation and the insurance flag are stated back; the price the agent looked up is its own figure:
    // a paraphrase may leave it unsaid, not replace it.
    expect(shown?.check).toMatchObject({
      values: expect.arrayContaining(["HAT2B2", "insurance ~ no"]),
      derived: ["$810"],
    });
    for (const [i, t] of tests.entries()) {
      const source = [cancel, details][i]!;
      const labels = ctx.abstracts[i]!.turns;
      expect(judgeByRules(t, source.turns, labels).verdict, t.id).toBe("pass");
    }
  });

  it("stress the confirmation gate by confirming before it asks", async () => {
    const ctx = await context([cancel]);
    const ranked = await rulesRanker.rank(enumerateBoundaryTargets(ctx.graph), ctx.graph);
    const gate = ranked.find((t) => t.kind === "node" && t.location === "request_confirmation")!;
    const [test] = boundaryTestsFor(gate, ctx, 1);
    expect(test?.card?.perturbation).toBe("premature_confirm");
    expect(test?.hints.at(-1)).toMatch(/^HAT1A1 Yes, I confirm in advance/);
    expect(test?.failure[0]?.check?.kind).toBe("ungated");
  });

  it("answer a gate that asks for a word with a plain yes, and a yes/no gate with a maybe", async () => {
    const keyword = trace("d03", [
      [
        "I'd like to cancel my reservation. My user id is mia_li_3668.",
        "Which reservation? Please give the id.",
      ],
      ["HAT1A1", "Cancel reservation HAT1A1, refund $210. Reply CONFIRM to go ahead."],
      ["CONFIRM", "Done: reservation HAT1A1 is cancelled."],
    ]);
    const figure = trace("d04", [
      ["I'd like to pay my fine. My user id is mia_li_3668.", "Which fine? Please give the id."],
      ["HAT1A1", "The amount due is $70.00. To pay now, type the amount (70.00) to confirm."],
      ["70.00", "Done: $70.00 paid against HAT1A1."],
    ]);
    for (const [traces, hint] of [
      [[keyword], /Yes, fine\.$/],
      [[figure], /^69\.00$/],
      [[cancel], /maybe/],
    ] as const) {
      const ctx = await context([...traces]);
      const ranked = await rulesRanker.rank(enumerateBoundaryTargets(ctx.graph), ctx.graph);
      const edge = ranked.find(
        (t) => t.kind === "edge" && t.location === "request_confirmation -> confirm_completion",
      )!;
      const [test] = boundaryTestsFor(edge, ctx, 1);
      expect(test?.card?.perturbation).toBe("ambiguous_value");
      expect(test?.hints.at(-1)).toMatch(hint);
      expect(test?.card?.forbidden).toContain("confirm_completion");
    }
  });

  it("skip a required input by withholding it from the request and from the runner's persona", async () => {
    const ctx = await context([cancel]);
    const ranked = await rulesRanker.rank(enumerateBoundaryTargets(ctx.graph), ctx.graph);
    const ask = ranked.find((t) => t.kind === "node" && t.location === "ask_user_id")!;
    const [test] = boundaryTestsFor(ask, ctx, 1);
    expect(test?.card?.perturbation).toBe("skip_prerequisite");
    expect(test?.persona.user_id).toBeUndefined();
    expect(test?.failure[0]?.check).toEqual({
      kind: "premature",
      activity: ["request_confirmation", "confirm_completion"],
      slots: ["user_id"],
    });
  });

  it("give someone else's reservation where the agent asked for one", async () => {
    const ctx = await context([cancel]);
    const ranked = await rulesRanker.rank(enumerateBoundaryTargets(ctx.graph), ctx.graph);
    const edge = ranked.find(
      (t) => t.kind === "edge" && t.location === "ask_reservation_id -> request_confirmation",
    )!;
    const [test] = boundaryTestsFor(edge, ctx, 1);
    expect(test?.card?.perturbation).toBe("foreign_value");
    expect(test?.hints.at(-1)).toBe("HAT2B2");
  });

  it("build a plan within the boundary budget with unique ids", async () => {
    const ctx = await context([cancel, details]);
    const planned = await buildPlan(
      ctx,
      { ranker: rulesRanker, generator: rulesGenerator },
      { boundaryBudget: 3 },
    );
    const boundary = planned.tests.filter((t) => t.kind === "boundary");
    expect(boundary).toHaveLength(3);
    expect(new Set(planned.tests.map((t) => t.id)).size).toBe(planned.tests.length);
    expect(boundary.every((t) => t.target && t.card)).toBe(true);
  });
});

describe("values", () => {
  it("mutate an observed value into one of the same shape the agent cannot know", () => {
    expect(invalidValue("HAT1A1")).toBe("ZZZ9Z9");
    expect(invalidValue("mia_li_3668")).toBe("zzz_zz_9999");
    expect(invalidValue("2")).toBe("0");
  });

  it("read reported values and match key ~ value pairs whatever the wording", () => {
    expect(replyValues("Flight HAT301 on 2024-05-19 is delayed.")).toEqual([
      "HAT301",
      "2024-05-19",
      "delayed",
    ]);
    expect(replyValues("Available options: HAT101 08:00 economy $210.")).not.toContain("Available");
    expect(mentionsValue("…; travel insurance no; fare total $810", "insurance ~ no")).toBe(true);
    expect(mentionsValue("insurance: yes, total paid $810, no bags", "insurance ~ no")).toBe(false);
    expect(mentionsValue("total paid $1,620", "$1620")).toBe(true);
  });
});

describe("gates told apart (issue 15 §2)", () => {
  it("probes each request's gate and each gate after another, not only the first the graph's gate node stands for", async () => {
    const change = trace("d03", [
      [
        "I want to change my cabin. My user id is omar_davis_3817.",
        "Which reservation is it? Please give me the reservation id.",
      ],
      ["HAT2B2", "To confirm: move HAT2B2 to business for $300. Do you want me to go ahead (yes/no)?"],
      ["yes", "There is a change fee of $50. Do you accept the fee (yes/no)?"],
      ["yes", "Done: reservation HAT2B2 is now business."],
    ]);
    const ctx = await context([cancel, change]);
    const ranked = await rulesRanker.rank(enumerateBoundaryTargets(ctx.graph), ctx.graph);
    const target = ranked.find(
      (t) => t.kind === "edge" && t.location === "request_confirmation -> confirm_completion",
    )!;
    const tests = boundaryTestsFor(target, ctx, 1).filter((t) => t.card?.perturbation === "ambiguous_value");
    // The cancellation's gate (after the reservation was asked) and the change's fee gate (after its first gate).
    expect(tests.map((t) => t.source?.traceId)).toEqual(["d01", "d03"]);
    expect(tests.map((t) => t.card?.guard)).toEqual([
      "request_confirmation after ask_reservation_id -> confirm_completion",
      "request_confirmation after request_confirmation -> confirm_completion",
    ]);
    expect(tests[1]?.hints.at(-2)).toBe("yes");
  });
});
