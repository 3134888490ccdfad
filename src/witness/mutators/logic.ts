import type * as t from "@babel/types";
import {
  deleteStatement,
  end,
  flattenLogical,
  isConstant,
  isPath,
  isPure,
  loopOf,
  type Mutation,
  norm,
  type Splice,
  shorten,
  src,
  start,
  type Tree,
  within,
} from "./ast.ts";

/** Codemods of the Logic category (WitnessGym Table 5): guard inversion, skipped counter, misrouting. */

const FLIP: Record<string, string> = {
  "===": "!==",
  "!==": "===",
  "==": "!=",
  "!=": "==",
  "<": ">=",
  ">=": "<",
  ">": "<=",
  "<=": ">",
};

/**
 * guard-predicate-inversion: each if/ternary test and each operand of its &&/|| chain, and each operand of a
 * returned boolean chain, inverted. Skipped: constant conditions, loop tests (inverted, they hang or never run).
 */
export function guardInversions(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  const add = (cond: t.Node) => {
    if (isConstant(cond)) return;
    const edits = invert(tree, cond);
    const before = src(tree, cond);
    const after = spliceWithin(tree.text, { start: start(cond), end: end(cond) }, edits);
    out.push({
      type: "guard-predicate-inversion",
      anchor: { start: start(cond), end: end(cond) },
      edits,
      summary: `\`${shorten(before)}\` → \`${shorten(after)}\``,
    });
  };
  for (const n of tree.nodes) {
    let test: t.Node | undefined;
    let whole = true;
    if (n.type === "IfStatement" || n.type === "ConditionalExpression") test = n.test;
    else if (n.type === "ReturnStatement" && n.argument?.type === "LogicalExpression") {
      test = n.argument;
      whole = false; // a returned predicate: invert its operands, not the whole result
    }
    if (!test) continue;
    if (whole) add(test);
    if (test.type === "LogicalExpression" && (test.operator === "&&" || test.operator === "||")) {
      const operands = flattenLogical(test, test.operator);
      for (const o of operands) add(o);
    }
  }
  return out;
}

/** Splices inverting a condition: drop a leading `!`, flip a comparison operator, else wrap in `!(…)`. */
function invert(tree: Tree, c: t.Node): Splice[] {
  if (c.type === "UnaryExpression" && c.operator === "!")
    return [{ start: start(c), end: start(c) + 1, text: "" }];
  if (c.type === "BinaryExpression" && FLIP[c.operator] && c.left.type !== "PrivateName") {
    const gapStart = end(c.left);
    const at = tree.text.indexOf(c.operator, gapStart);
    if (at >= 0 && at < start(c.right))
      return [{ start: at, end: at + c.operator.length, text: FLIP[c.operator]! }];
  }
  const simple = ["Identifier", "MemberExpression", "CallExpression", "ThisExpression"].includes(c.type);
  if (simple) return [{ start: start(c), end: start(c), text: "!" }];
  return [
    { start: start(c), end: start(c), text: "!(" },
    { start: end(c), end: end(c), text: ")" },
  ];
}

/** The text of `range` after applying splices that lie inside it. */
function spliceWithin(text: string, range: { start: number; end: number }, edits: readonly Splice[]): string {
  let out = "";
  let at = range.start;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at, range.end);
}

/** The accumulator an update statement aggregates into (normalized text), with its root identifier. */
function accumulatorOf(tree: Tree, e: t.Node): { acc: string; root: string } | undefined {
  const rootOf = (x: t.Node): string | undefined =>
    x.type === "Identifier" ? x.name : x.type === "MemberExpression" ? rootOf(x.object) : undefined;
  const of = (x: t.Node) => {
    const root = isPath(x) ? rootOf(x) : undefined;
    return root ? { acc: norm(src(tree, x)), root } : undefined;
  };
  if (e.type === "UpdateExpression") return of(e.argument);
  if (e.type === "AssignmentExpression") {
    if (e.operator === "+=" || e.operator === "-=") return of(e.left);
    if (e.operator !== "=") return undefined;
    const left = e.left;
    // out[out.length] = v (the append idiom)
    if (left.type === "MemberExpression" && left.computed && isAppendIndex(tree, left.object, left.property))
      return of(left.object);
    // total = total + x
    if (
      e.right.type === "BinaryExpression" &&
      ["+", "-"].includes(e.right.operator) &&
      norm(src(tree, e.right.left)) === norm(src(tree, left))
    )
      return of(left);
    return undefined;
  }
  if (e.type === "CallExpression" && e.callee.type === "MemberExpression") {
    const c = e.callee;
    if (!c.computed && c.property.type === "Identifier" && c.property.name === "push") return of(c.object);
    // xs.push.apply(xs, more)
    if (
      !c.computed &&
      c.property.type === "Identifier" &&
      c.property.name === "apply" &&
      c.object.type === "MemberExpression" &&
      !c.object.computed &&
      c.object.property.type === "Identifier" &&
      c.object.property.name === "push"
    )
      return of(c.object.object);
  }
  return undefined;
}

function isAppendIndex(tree: Tree, object: t.Node, index: t.Node): boolean {
  return (
    index.type === "MemberExpression" &&
    !index.computed &&
    index.property.type === "Identifier" &&
    index.property.name === "length" &&
    norm(src(tree, index.object)) === norm(src(tree, object))
  );
}

/** Names declared (var/let/const/params/functions) inside a node's range. */
function declaredWithin(tree: Tree, scope: t.Node): Set<string> {
  const names = new Set<string>();
  for (const n of tree.nodes) {
    if (!within(n, scope)) continue;
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier") names.add(n.id.name);
  }
  if ("params" in scope) for (const p of scope.params) if (p.type === "Identifier") names.add(p.name);
  return names;
}

/** Identifier names used in a loop's head (init, test, update): its indexes. */
function loopHeadNames(tree: Tree, loop: t.Node): Set<string> {
  const names = new Set<string>();
  const heads: (t.Node | null | undefined)[] =
    loop.type === "ForStatement"
      ? [loop.init, loop.test, loop.update]
      : loop.type === "WhileStatement" || loop.type === "DoWhileStatement"
        ? [loop.test]
        : loop.type === "ForInStatement" || loop.type === "ForOfStatement"
          ? [loop.left]
          : [];
  for (const h of heads) {
    if (!h) continue;
    for (const n of tree.nodes) if (n.type === "Identifier" && within(n, h)) names.add(n.name);
  }
  return names;
}

/**
 * skipped-aggregation-counter: in a loop, one branch's accumulator update deleted. The update must sit in a
 * branch (an if with an else on the way up to the loop, a switch case, or a block doing other work too).
 */
export function skippedCounters(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  for (const s of tree.nodes) {
    if (s.type !== "ExpressionStatement") continue;
    const accumulator = accumulatorOf(tree, s.expression);
    if (!accumulator) continue;
    const loop = loopOf(tree, s);
    if (!loop) continue;
    // Skipped: the loop's own index, and accumulators declared inside the loop (reset every iteration).
    if (loopHeadNames(tree, loop).has(accumulator.root) || declaredWithin(tree, loop).has(accumulator.root))
      continue;
    if (!inBranch(tree, s, loop)) continue;
    const edit = deleteStatement(tree, s);
    if (!edit) continue;
    out.push({
      type: "skipped-aggregation-counter",
      anchor: { start: start(s), end: end(s) },
      edits: [edit],
      summary: `removed \`${shorten(src(tree, s))}\` from one branch`,
    });
  }
  return out;
}

function inBranch(tree: Tree, s: t.Node, loop: t.Node): boolean {
  let child: t.Node = s;
  let sawBranch = false;
  for (let p = tree.parent.get(s); p && p !== loop; child = p, p = tree.parent.get(p)) {
    if (p.type === "SwitchCase") return true;
    if (p.type === "IfStatement" && child !== p.test) {
      if (p.alternate) return true;
      sawBranch = true;
    }
  }
  if (!sawBranch) return false;
  // An if without else: the branch must still do other work besides the update.
  const block = tree.parent.get(s);
  return block?.type === "BlockStatement" && block.body.length > 1;
}

/** The counter, bound and loop of `for (i = …; i < n; i++ | ++i | i += 1)`. */
function countingLoop(loop: t.Node): { index: string; bound: t.Node } | undefined {
  if (loop.type !== "ForStatement" || !loop.test || !loop.update) return undefined;
  const test = loop.test;
  if (test.type !== "BinaryExpression" || test.operator !== "<" || test.left.type !== "Identifier")
    return undefined;
  if (!isPure(test.right)) return undefined;
  const index = test.left.name;
  const u = loop.update;
  const ok =
    (u.type === "UpdateExpression" &&
      u.operator === "++" &&
      u.argument.type === "Identifier" &&
      u.argument.name === index) ||
    (u.type === "AssignmentExpression" &&
      u.operator === "+=" &&
      u.left.type === "Identifier" &&
      u.left.name === index &&
      u.right.type === "NumericLiteral" &&
      u.right.value === 1);
  return ok ? { index, bound: test.right } : undefined;
}

/**
 * in-bounds-misrouting: in a loop, an element write routed to the neighbouring index or key (kept in bounds),
 * or an append turned into an insertion before the last element every other time.
 */
export function misroutings(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  const add = (anchor: t.Node, edits: Splice[], before: string, after: string) =>
    out.push({
      type: "in-bounds-misrouting",
      anchor: { start: start(anchor), end: end(anchor) },
      edits,
      summary: `\`${shorten(before)}\` → \`${shorten(after)}\``,
    });
  for (const n of tree.nodes) {
    if (n.type !== "ExpressionStatement") continue;
    const e = n.expression;
    const loop = loopOf(tree, n);
    if (!loop) continue;
    const splice = (o: string) => `${o}.splice(${o}.length - ${o}.length % 2, 0, `;
    // out.push(v) → out.splice(out.length - out.length % 2, 0, v)
    if (
      e.type === "CallExpression" &&
      e.callee.type === "MemberExpression" &&
      !e.callee.computed &&
      e.callee.property.type === "Identifier" &&
      e.callee.property.name === "push" &&
      isPath(e.callee.object) &&
      e.arguments.length === 1 &&
      e.arguments[0]!.type !== "SpreadElement"
    ) {
      const o = src(tree, e.callee.object);
      const arg = e.arguments[0]!;
      add(
        e,
        [{ start: start(e), end: start(arg), text: splice(o) }],
        src(tree, e),
        `${splice(o)}${shorten(src(tree, arg), 16)})`,
      );
      continue;
    }
    if (
      e.type !== "AssignmentExpression" ||
      e.operator !== "=" ||
      e.left.type !== "MemberExpression" ||
      !e.left.computed
    )
      continue;
    const target = e.left;
    if (!isPath(target.object)) continue;
    // out[out.length] = v → out.splice(out.length - out.length % 2, 0, v)
    if (isAppendIndex(tree, target.object, target.property)) {
      const o = src(tree, target.object);
      add(
        e,
        [
          { start: start(e), end: start(e.right), text: splice(o) },
          { start: end(e.right), end: end(e.right), text: ")" },
        ],
        src(tree, e),
        `${splice(o)}${shorten(src(tree, e.right), 16)})`,
      );
      continue;
    }
    const counting = countingLoop(loop);
    if (!counting) continue;
    const { index, bound } = counting;
    const neighbour = `(${index} ^ 1) < ${src(tree, bound)} ? ${index} ^ 1 : ${index}`;
    const p = target.property;
    let edit: Splice | undefined;
    if (p.type === "Identifier" && p.name === index) edit = { start: start(p), end: end(p), text: neighbour };
    else if (
      p.type === "MemberExpression" &&
      p.computed &&
      isPath(p.object) &&
      p.property.type === "Identifier" &&
      p.property.name === index
    )
      edit = { start: start(p.property), end: end(p.property), text: neighbour };
    else if (p.type === "Identifier") {
      // key = keys[i] declared in the loop body and never reassigned there → o[keys[neighbour]]
      const alias = aliasOfIndexed(tree, loop as t.ForStatement, p.name, index);
      if (alias) edit = { start: start(p), end: end(p), text: `${src(tree, alias)}[${neighbour}]` };
    }
    if (!edit) continue;
    add(
      target,
      [edit],
      src(tree, target),
      `${src(tree, target.object)}[${edit.text.length > 30 ? shorten(edit.text, 30) : edit.text}]`,
    );
  }
  return out;
}

/** For `var key = keys[i]` in the loop body (key not reassigned there): the `keys` node. */
function aliasOfIndexed(tree: Tree, loop: t.ForStatement, name: string, index: string): t.Node | undefined {
  let found: t.Node | undefined;
  for (const n of tree.nodes) {
    if (!within(n, loop.body)) continue;
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.id.name === name) {
      const init = n.init;
      if (
        init?.type === "MemberExpression" &&
        init.computed &&
        isPath(init.object) &&
        init.property.type === "Identifier" &&
        init.property.name === index
      )
        found = init.object;
      else return undefined;
    }
    if (n.type === "AssignmentExpression" && n.left.type === "Identifier" && n.left.name === name)
      return undefined;
  }
  return found;
}
