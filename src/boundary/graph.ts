import dagre, {
  type EdgeLabel,
  type Graph,
  type GraphLabel,
  type NodeLabel,
  type Point,
} from "@dagrejs/dagre";
import { InputError } from "../core/errors.ts";
import type { AbstractTrace, ActivityNode, GraphEdge, Route, SessionTrace, WorkflowGraph } from "./types.ts";

/**
 * The `graph` stage of the boundary suite (AgentEval §IV-B, Alg. 1): the directly-follows graph of the
 * abstracted discovery traces, with the witnessing traces of each edge and a replayable route to each
 * activity (van der Aalst 2019: generate from witnessed prefixes, not arbitrary graph paths); and its picture.
 */

/** Most example replies kept per node. */
const EXAMPLES = 3;

/**
 * Mine the conversational workflow graph G = (V, E, S, T) exactly as AgentEval Alg. 1: every activity of a
 * trace's replies is a node and increments its support; each pair (a_i, a_i+1) of consecutive replies is an
 * edge, incrementing its frequency and counting u_i+1 (the user action of the turn that led to a_i+1) among
 * its user actions; the first activity of a trace is an entry, the last a terminal. Also keeps, per edge, the
 * ids of the traces witnessing it; per node, up to three distinct example replies; and per activity the
 * shortest witnessed route (the user turns of a trace up to and including the first turn whose reply has it;
 * ties go to the earlier trace).
 *
 * `abstracts` are matched to `traces` by id (extra abstracts are ignored); traces with zero turns are
 * skipped. Nodes and edges are listed in the order they are first seen (traces in the given order). Pure.
 *
 * @throws InputError when a trace with turns has no abstraction, or one of another length.
 */
export function mineDirectlyFollowsGraph(
  traces: readonly SessionTrace[],
  abstracts: readonly AbstractTrace[],
): WorkflowGraph {
  const byId = new Map(abstracts.map((a) => [a.traceId, a]));
  const nodes = new Map<string, ActivityNode>();
  const edges = new Map<string, GraphEdge>();
  const entry = new Map<string, number>();
  const terminal = new Map<string, number>();
  const routes = new Map<string, Route>();
  const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

  for (const trace of traces) {
    if (trace.turns.length === 0) continue;
    const abstract = byId.get(trace.id);
    if (!abstract)
      throw new InputError(
        { field: trace.id },
        `trace ${trace.id} has no abstraction`,
        "Re-run the abstract stage so every trace is labelled.",
      );
    if (abstract.turns.length !== trace.turns.length)
      throw new InputError(
        { field: trace.id },
        `trace ${trace.id} has ${trace.turns.length} turns but its abstraction has ${abstract.turns.length}`,
        "Re-run the abstract stage for this trace.",
      );
    const activities = abstract.turns.map((t) => t.activity);
    activities.forEach((activity, i) => {
      const node = nodes.get(activity) ?? { activity, support: 0, examples: [] };
      node.support += 1;
      const reply = trace.turns[i]?.reply ?? "";
      if (node.examples.length < EXAMPLES && !node.examples.includes(reply)) node.examples.push(reply);
      nodes.set(activity, node);
      const known = routes.get(activity);
      if (!known || i < known.turn)
        routes.set(activity, {
          traceId: trace.id,
          turn: i,
          userTurns: trace.turns.slice(0, i + 1).map((t) => t.user),
        });
    });
    for (let i = 0; i + 1 < activities.length; i++) {
      const from = activities[i] as string;
      const to = activities[i + 1] as string;
      const key = JSON.stringify([from, to]);
      const edge = edges.get(key) ?? { from, to, frequency: 0, userActions: {}, traces: [] };
      edge.frequency += 1;
      const action = abstract.turns[i + 1]?.userAction ?? "other";
      edge.userActions[action] = (edge.userActions[action] ?? 0) + 1;
      if (!edge.traces.includes(trace.id)) edge.traces.push(trace.id);
      edges.set(key, edge);
    }
    bump(entry, activities[0] as string);
    bump(terminal, activities[activities.length - 1] as string);
  }
  return {
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    entry: Object.fromEntries(entry),
    terminal: Object.fromEntries(terminal),
    routes: Object.fromEntries(routes),
  };
}

/* ---- Picture ---- */

/** Escape text for XML content and attribute values. */
const xml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] as string,
  );
const num = (n: number) => String(Math.round(n * 10) / 10);

/** Width of a text line in the picture's font, px (monospace-ish estimate). */
const textWidth = (s: string, size: number) => s.length * size * 0.62;

const NODE_FONT = 12;
const SMALL_FONT = 10;
const COLOURS = { entry: "#2e7d32", terminal: "#b71c1c", node: "#37474f", edge: "#78909c" };

/**
 * Draw the workflow graph as a standalone SVG document (UTF-8 string): one box per activity with its
 * support, arrows labelled with their frequency (thicker when more frequent). Entry activities have a green
 * border and a "start ×n" line, terminal activities a red double border and an "end ×n" line; a legend says
 * so. Layered layout by `@dagrejs/dagre` (top to bottom); every text is XML-escaped; hovering a box or an
 * arrow shows its examples or user actions. An empty graph gives a small picture saying so.
 */
export function renderGraphSvg(graph: WorkflowGraph): string {
  const g = new dagre.graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>({ multigraph: false });
  g.setGraph({ rankdir: "TB", nodesep: 28, ranksep: 46, edgesep: 12, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}) as EdgeLabel);
  for (const node of graph.nodes) {
    const lines = nodeLines(graph, node);
    const width = Math.max(...lines.map((l, i) => textWidth(l, i === 0 ? NODE_FONT : SMALL_FONT))) + 20;
    g.setNode(node.activity, { width, height: 18 + lines.length * 14 });
  }
  for (const edge of graph.edges) {
    const label = String(edge.frequency);
    g.setEdge(edge.from, edge.to, { width: textWidth(label, SMALL_FONT) + 4, height: 12, labelpos: "c" });
  }
  dagre.layout(g);
  const size = g.graph();
  const legendHeight = 28;
  const width = Math.max(size.width ?? 0, 380);
  const height = (size.height ?? 0) + legendHeight;
  const maxFrequency = Math.max(1, ...graph.edges.map((e) => e.frequency));

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" font-family="ui-monospace, Menlo, Consolas, monospace">`,
    "<title>Conversational workflow graph</title>",
    `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${COLOURS.edge}"/></marker></defs>`,
    `<rect x="0" y="0" width="${num(width)}" height="${num(height)}" fill="#ffffff"/>`,
    legend(legendHeight),
    `<g transform="translate(0 ${legendHeight})">`,
  ];
  if (graph.nodes.length === 0)
    out.push(`<text x="16" y="24" font-size="${NODE_FONT}" fill="${COLOURS.node}">(no activities)</text>`);
  for (const edge of graph.edges) {
    const shape = edgeShape(g, edge);
    if (!shape) continue;
    const stroke = maxFrequency > 1 ? 1.2 + (2.8 * Math.log(edge.frequency)) / Math.log(maxFrequency) : 1.2;
    const actions = Object.entries(edge.userActions)
      .map(([a, n]) => `${a} ×${n}`)
      .join(", ");
    out.push(
      `<g class="edge"><title>${xml(`${edge.from} → ${edge.to}: ${edge.frequency} (${actions})`)}</title>`,
      `<path d="${shape.d}" fill="none" stroke="${COLOURS.edge}" stroke-opacity="0.85" stroke-width="${num(stroke)}" marker-end="url(#arrow)"/>`,
      `<text x="${num(shape.label.x)}" y="${num(shape.label.y + 4)}" font-size="${SMALL_FONT}" text-anchor="middle" fill="#263238" stroke="#ffffff" stroke-width="3" paint-order="stroke">${edge.frequency}</text>`,
      "</g>",
    );
  }
  for (const node of graph.nodes) {
    const laid = g.node(node.activity);
    if (laid?.x === undefined || laid.y === undefined) continue;
    out.push(nodeSvg(graph, node, laid.x, laid.y, laid.width, laid.height));
  }
  out.push("</g>", "</svg>");
  return `${out.join("\n")}\n`;
}

/**
 * An edge's SVG path and label position: a smooth curve through dagre's points (midpoint quadratic
 * spline); a self-loop is drawn as a loop on the node's right side (dagre's own self-edge points are not
 * usable).
 */
function edgeShape(
  g: Graph<GraphLabel, NodeLabel, EdgeLabel>,
  edge: GraphEdge,
): { d: string; label: Point } | undefined {
  if (edge.from === edge.to) {
    const node = g.node(edge.from);
    if (node?.x === undefined || node.y === undefined) return undefined;
    const right = node.x + node.width / 2;
    const [x, y] = [right, node.y];
    return {
      d: `M${num(x)},${num(y - 8)} C${num(x + 34)},${num(y - 26)} ${num(x + 34)},${num(y + 26)} ${num(x + 2)},${num(y + 8)}`,
      label: { x: x + 32, y },
    };
  }
  const laid = g.edge(edge.from, edge.to) as EdgeLabel | undefined;
  const points: Point[] = laid?.points ?? [];
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return undefined;
  let d = `M${num(first.x)},${num(first.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i] as Point;
    const next = points[i + 1] as Point;
    d += ` Q${num(p.x)},${num(p.y)} ${num((p.x + next.x) / 2)},${num((p.y + next.y) / 2)}`;
  }
  d += ` L${num(last.x)},${num(last.y)}`;
  const middle = points[Math.floor(points.length / 2)] as Point;
  return { d, label: laid?.x !== undefined && laid.y !== undefined ? { x: laid.x, y: laid.y } : middle };
}

/** The lines written in a node's box: activity, support, and start/end counts. */
function nodeLines(graph: WorkflowGraph, node: ActivityNode): string[] {
  const marks = [`support ${node.support}`];
  if (graph.entry[node.activity]) marks.push(`start ×${graph.entry[node.activity]}`);
  if (graph.terminal[node.activity]) marks.push(`end ×${graph.terminal[node.activity]}`);
  return [node.activity, marks.join(" · ")];
}

function nodeSvg(graph: WorkflowGraph, node: ActivityNode, x: number, y: number, w: number, h: number) {
  const entry = Boolean(graph.entry[node.activity]);
  const terminal = Boolean(graph.terminal[node.activity]);
  const left = x - w / 2;
  const top = y - h / 2;
  const stroke = entry ? COLOURS.entry : terminal ? COLOURS.terminal : COLOURS.node;
  const [title, marks] = nodeLines(graph, node);
  const tip = [`${node.activity} (support ${node.support})`, ...node.examples.map((e) => `“${e}”`)].join(
    "\n",
  );
  const parts = [
    `<g class="node${entry ? " entry" : ""}${terminal ? " terminal" : ""}"><title>${xml(tip)}</title>`,
    `<rect x="${num(left)}" y="${num(top)}" width="${num(w)}" height="${num(h)}" rx="6" fill="#f5f7f8" stroke="${stroke}" stroke-width="${entry ? 2.5 : 1.2}"/>`,
  ];
  if (terminal)
    parts.push(
      `<rect x="${num(left + 3)}" y="${num(top + 3)}" width="${num(w - 6)}" height="${num(h - 6)}" rx="4" fill="none" stroke="${COLOURS.terminal}" stroke-width="1.2"/>`,
    );
  parts.push(
    `<text x="${num(x)}" y="${num(top + 20)}" font-size="${NODE_FONT}" text-anchor="middle" fill="#102027">${xml(title ?? "")}</text>`,
    `<text x="${num(x)}" y="${num(top + 34)}" font-size="${SMALL_FONT}" text-anchor="middle" fill="#546e7a">${xml(marks ?? "")}</text>`,
    "</g>",
  );
  return parts.join("\n");
}

function legend(height: number): string {
  const y = height / 2 + 4;
  return [
    `<g class="legend" font-size="${SMALL_FONT}" fill="#37474f">`,
    `<rect x="16" y="${y - 10}" width="14" height="12" rx="3" fill="#f5f7f8" stroke="${COLOURS.entry}" stroke-width="2.5"/>`,
    `<text x="36" y="${y}">entry (start ×sessions)</text>`,
    `<rect x="190" y="${y - 10}" width="14" height="12" rx="3" fill="#f5f7f8" stroke="${COLOURS.terminal}" stroke-width="1.2"/>`,
    `<rect x="192" y="${y - 8}" width="10" height="8" rx="2" fill="none" stroke="${COLOURS.terminal}" stroke-width="1"/>`,
    `<text x="210" y="${y}">terminal (end ×sessions)</text>`,
    "</g>",
  ].join("\n");
}
