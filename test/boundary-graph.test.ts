import { describe, expect, it } from "vitest";
import { mineDirectlyFollowsGraph, renderGraphSvg } from "../src/boundary/graph.ts";
import type { AbstractTrace, SessionTrace, WorkflowGraph } from "../src/boundary/types.ts";
import { InputError } from "../src/core/errors.ts";

/** The directly-follows graph of abstracted traces (AgentEval Alg. 1) and its SVG picture. */

/** A trace and its abstraction from [user, userAction, activity] turns; replies are `<activity> reply`. */
function session(
  id: string,
  turns: [string, string, string][],
): { trace: SessionTrace; abstract: AbstractTrace } {
  return {
    trace: {
      id,
      round: 0,
      plan: { phase: "free", objective: "explore", strategy: "ask", persona: 0 },
      turns: turns.map(([user, , activity], i) => ({ user, reply: `${activity} reply ${i}`, ms: 1 })),
      stop: "driver_stop",
    },
    abstract: {
      traceId: id,
      turns: turns.map(([, userAction, activity]) => ({ userAction, activity, provided: [], summary: "" })),
    },
  };
}

function mine(sessions: { trace: SessionTrace; abstract: AbstractTrace }[]): WorkflowGraph {
  return mineDirectlyFollowsGraph(
    sessions.map((s) => s.trace),
    sessions.map((s) => s.abstract),
  );
}

const SESSIONS = [
  session("d00", [
    ["cancel my reservation", "request_cancel", "ask_user_id"],
    ["mia_li_3668", "provide_user_id", "ask_reservation_id"],
    ["HAT1A1", "provide_reservation_id", "request_confirmation"],
    ["yes", "affirm", "confirm_completion"],
  ]),
  session("d01", [
    ["hi", "other", "offer_capabilities"],
    ["cancel HAT1A1", "request_cancel", "ask_user_id"],
    ["mia_li_3668", "provide_user_id", "request_confirmation"],
    ["no", "deny", "acknowledge_abort"],
  ]),
  session("d02", []),
  session("d03", [
    ["cancel my reservation please", "request_cancel", "ask_user_id"],
    ["omar_davis_3817", "provide_user_id", "ask_reservation_id"],
  ]),
  session("d04", [["yes", "affirm", "confirm_completion"]]),
];

describe("mineDirectlyFollowsGraph", () => {
  const graph = mine(SESSIONS);

  it("counts node support as the replies mapped to each activity, in first-seen order", () => {
    expect(graph.nodes.map((n) => [n.activity, n.support])).toEqual([
      ["ask_user_id", 3],
      ["ask_reservation_id", 2],
      ["request_confirmation", 2],
      ["confirm_completion", 2],
      ["offer_capabilities", 1],
      ["acknowledge_abort", 1],
    ]);
  });

  it("counts edge frequency with the user action of the later turn and the witnessing traces", () => {
    expect(graph.edges).toEqual([
      {
        from: "ask_user_id",
        to: "ask_reservation_id",
        frequency: 2,
        userActions: { provide_user_id: 2 },
        traces: ["d00", "d03"],
      },
      {
        from: "ask_reservation_id",
        to: "request_confirmation",
        frequency: 1,
        userActions: { provide_reservation_id: 1 },
        traces: ["d00"],
      },
      {
        from: "request_confirmation",
        to: "confirm_completion",
        frequency: 1,
        userActions: { affirm: 1 },
        traces: ["d00"],
      },
      {
        from: "offer_capabilities",
        to: "ask_user_id",
        frequency: 1,
        userActions: { request_cancel: 1 },
        traces: ["d01"],
      },
      {
        from: "ask_user_id",
        to: "request_confirmation",
        frequency: 1,
        userActions: { provide_user_id: 1 },
        traces: ["d01"],
      },
      {
        from: "request_confirmation",
        to: "acknowledge_abort",
        frequency: 1,
        userActions: { deny: 1 },
        traces: ["d01"],
      },
    ]);
  });

  it("records entry and terminal activities per session, skipping empty sessions", () => {
    expect(graph.entry).toEqual({ ask_user_id: 2, offer_capabilities: 1, confirm_completion: 1 });
    expect(graph.terminal).toEqual({ confirm_completion: 2, acknowledge_abort: 1, ask_reservation_id: 1 });
  });

  it("keeps the shortest witnessed route to each activity, ties going to the earlier trace", () => {
    expect(graph.routes).toEqual({
      ask_user_id: { traceId: "d00", turn: 0, userTurns: ["cancel my reservation"] },
      ask_reservation_id: { traceId: "d00", turn: 1, userTurns: ["cancel my reservation", "mia_li_3668"] },
      request_confirmation: {
        traceId: "d00",
        turn: 2,
        userTurns: ["cancel my reservation", "mia_li_3668", "HAT1A1"],
      },
      confirm_completion: { traceId: "d04", turn: 0, userTurns: ["yes"] },
      offer_capabilities: { traceId: "d01", turn: 0, userTurns: ["hi"] },
      acknowledge_abort: { traceId: "d01", turn: 3, userTurns: ["hi", "cancel HAT1A1", "mia_li_3668", "no"] },
    });
  });

  it("keeps up to three distinct example replies per node", () => {
    const loop = session("d05", [
      ["cancel", "request_cancel", "ask_user_id"],
      ["bob", "other", "ask_user_id"],
      ["bob", "other", "ask_user_id"],
      ["bob", "other", "ask_user_id"],
    ]);
    const g = mine([SESSIONS[0] as (typeof SESSIONS)[0], loop]);
    expect(g.nodes[0]).toEqual({
      activity: "ask_user_id",
      support: 5,
      examples: ["ask_user_id reply 0", "ask_user_id reply 1", "ask_user_id reply 2"],
    });
    expect(g.edges.find((e) => e.from === "ask_user_id" && e.to === "ask_user_id")).toEqual({
      from: "ask_user_id",
      to: "ask_user_id",
      frequency: 3,
      userActions: { other: 3 },
      traces: ["d05"],
    });
  });

  it("rejects a trace without its abstraction, or with one of another length", () => {
    const [first] = SESSIONS;
    expect(() => mineDirectlyFollowsGraph([first!.trace], [])).toThrow(InputError);
    const short = { ...first!.abstract, turns: first!.abstract.turns.slice(1) };
    expect(() => mineDirectlyFollowsGraph([first!.trace], [short])).toThrow(
      /4 turns but its abstraction has 3/,
    );
  });
});

/** Throws unless `svg` is one well-formed XML element (tags nest, `<` and `&` escaped everywhere). */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  let roots = 0;
  const badAmp = /&(?!(?:amp|lt|gt|quot|apos|#\d+);)/;
  const token = /<!--[\s\S]*?-->|<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of svg.trim().matchAll(token)) {
    const [all, close, name, attrs, selfClose, text, stray] = m;
    if (stray) throw new Error(`unescaped < at ${m.index}: ${svg.slice(m.index, m.index + 40)}`);
    if (all.startsWith("<!--")) continue;
    if (text !== undefined) {
      if (badAmp.test(text)) throw new Error(`unescaped & in ${text}`);
      if (stack.length === 0 && text.trim()) throw new Error(`text outside the root: ${text}`);
      continue;
    }
    for (const value of (attrs ?? "").matchAll(/="([^"]*)"/g))
      if (badAmp.test(value[1] as string) || (value[1] as string).includes("<"))
        throw new Error(`bad attribute ${value[0]}`);
    if (close) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes nothing open`);
    } else {
      if (stack.length === 0) roots += 1;
      if (!selfClose) stack.push(name as string);
    }
  }
  if (stack.length > 0) throw new Error(`unclosed ${stack.join(", ")}`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
}

describe("renderGraphSvg", () => {
  it("draws a well-formed SVG naming every activity, with entry and terminal activities marked", () => {
    const svg = renderGraphSvg(mine(SESSIONS));
    assertWellFormed(svg);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    for (const node of mine(SESSIONS).nodes) expect(svg).toContain(`>${node.activity}</text>`);
    expect(svg).toContain('<g class="node entry">');
    expect(svg).toContain('<g class="node terminal">');
    expect(svg).toContain('<g class="node entry terminal">');
    expect(svg).toContain("start ×2");
    expect(svg).not.toContain("NaN");
  });

  it("escapes < and & in labels, examples and user actions", () => {
    const odd = session("x", [
      ["a", "say_<b>&c", "inform_<x>&y"],
      ["b", "say_<b>&c", 'ask_"q"\'s'],
    ]);
    odd.trace.turns[0]!.reply = "Price < $5 & tax";
    const svg = renderGraphSvg(mine([odd]));
    assertWellFormed(svg);
    expect(svg).toContain("inform_&lt;x&gt;&amp;y");
    expect(svg).toContain("Price &lt; $5 &amp; tax");
    expect(svg).toContain("say_&lt;b&gt;&amp;c ×1");
    expect(svg).not.toContain("<x>");
  });

  it("lays out a graph of forty activities with loops, and an empty graph", () => {
    const activities = Array.from({ length: 40 }, (_, i) => `activity_${i}`);
    const sessions = Array.from({ length: 12 }, (_, s) =>
      session(
        `s${s}`,
        Array.from({ length: 8 }, (_, t): [string, string, string] => [
          `u${t}`,
          `request_${t % 3}`,
          activities[(s * 7 + t * t * 3) % 40] as string,
        ]),
      ),
    );
    const graph = mine(sessions);
    const svg = renderGraphSvg(graph);
    assertWellFormed(svg);
    expect(svg.match(/<g class="node/g)?.length).toBe(graph.nodes.length);
    expect(svg.match(/<g class="edge">/g)?.length).toBe(graph.edges.length);
    expect(svg).not.toContain("NaN");
    const empty = renderGraphSvg({ nodes: [], edges: [], entry: {}, terminal: {}, routes: {} });
    assertWellFormed(empty);
    expect(empty).toContain("(no activities)");
  });
});
