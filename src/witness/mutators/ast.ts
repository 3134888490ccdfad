import type * as t from "@babel/types";
import { children, isFunctionNode, parseSource } from "../functions.ts";
import type { BugTypeId, Span } from "../types.ts";

/**
 * What the codemods of `mutators/` share: a parsed file with parent links, source-text helpers, and the
 * predicates the bug-type specs name (side-effect free, constant, path). Codemods only read the tree and
 * return text splices (offsets are UTF-16 indexes into the clean text); nothing is regenerated.
 */

/** A parsed file: every node in source (pre-)order and each node's parent. */
export interface Tree {
  file: string;
  text: string;
  nodes: t.Node[];
  parent: Map<t.Node, t.Node>;
}

/** One text replacement in the clean text (the file is implied). */
export interface Splice extends Span {
  text: string;
}

/** A mutation a codemod proposes; `anchor` decides the function the site belongs to. */
export interface Mutation {
  type: BugTypeId;
  anchor: Span;
  edits: Splice[];
  /** Short description, e.g. "`if (!x)` → `if (x)`". */
  summary: string;
  /**
   * Where the edits may lie. Default: the function the anchor belongs to. Wider only when the bug is a
   * declaration next to the reached function (a class member removed beside the equality method kept).
   */
  editScope?: Span;
}

/** Parse and index a file. @throws InputError when it does not parse. */
export function indexTree(file: string, text: string): Tree {
  const ast = parseSource(file, text);
  const nodes: t.Node[] = [];
  const parent = new Map<t.Node, t.Node>();
  const visit = (node: t.Node): void => {
    nodes.push(node);
    for (const child of children(node)) {
      parent.set(child, node);
      visit(child);
    }
  };
  visit(ast.program);
  return { file, text, nodes, parent };
}

export const start = (n: t.Node): number => n.start ?? 0;
export const end = (n: t.Node): number => n.end ?? 0;

/** Range of a node including the parentheses around it, if any (one pair). */
export function outer(tree: Tree, n: t.Node): Span {
  const extra = n.extra as { parenthesized?: boolean; parenStart?: number } | undefined;
  if (!extra?.parenthesized || extra.parenStart === undefined) return { start: start(n), end: end(n) };
  const close = tree.text.indexOf(")", end(n));
  return { start: extra.parenStart, end: close < 0 ? end(n) : close + 1 };
}

/** Source text of a node. */
export function src(tree: Tree, n: t.Node): string {
  return tree.text.slice(start(n), end(n));
}

/** Text with whitespace removed, for comparing expressions. */
export function norm(s: string): string {
  return s.replace(/\s+/g, "");
}

/** Shorten text to one line of at most `max` characters, for summaries. */
export function shorten(s: string, max = 48): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

/** True when `inner` lies within `outerNode`'s range. */
export function within(inner: t.Node | Span, outerNode: t.Node | Span): boolean {
  const a = "type" in inner ? { start: start(inner), end: end(inner) } : inner;
  const b = "type" in outerNode ? { start: start(outerNode), end: end(outerNode) } : outerNode;
  return b.start <= a.start && a.end <= b.end;
}

/** The nearest enclosing function node (not the node itself). */
export function enclosingFunctionNode(tree: Tree, n: t.Node): t.Function | undefined {
  for (let p = tree.parent.get(n); p; p = tree.parent.get(p)) if (isFunctionNode(p)) return p;
  return undefined;
}

const LOOPS = new Set([
  "ForStatement",
  "WhileStatement",
  "DoWhileStatement",
  "ForInStatement",
  "ForOfStatement",
]);
const ITERATION_METHODS = new Set([
  "forEach",
  "map",
  "flatMap",
  "filter",
  "reduce",
  "reduceRight",
  "some",
  "every",
  "find",
  "findIndex",
]);

/**
 * The innermost loop whose body holds `n` (not its test or update), stopping at function boundaries; an
 * iteration callback (`xs.forEach(function (x) {…})`) counts as a loop.
 */
export function loopOf(tree: Tree, n: t.Node): t.Node | undefined {
  let child = n;
  for (let p = tree.parent.get(n); p; child = p, p = tree.parent.get(p)) {
    if (LOOPS.has(p.type) && (p as t.ForStatement).body === child) return p;
    if (isFunctionNode(p)) return isIterationCallback(tree, p) ? p : undefined;
  }
  return undefined;
}

/** Whether a function is passed as the callback of forEach/map/reduce/…. */
export function isIterationCallback(tree: Tree, fn: t.Node): boolean {
  const call = tree.parent.get(fn);
  if (call?.type !== "CallExpression" || call.arguments[0] !== fn) return false;
  const callee = call.callee;
  return (
    callee.type === "MemberExpression" &&
    !callee.computed &&
    callee.property.type === "Identifier" &&
    ITERATION_METHODS.has(callee.property.name)
  );
}

/** Expressions without side effects (getters aside): names, literals, member reads, operators over them. */
export function isPure(n: t.Node): boolean {
  switch (n.type) {
    case "Identifier":
    case "StringLiteral":
    case "NumericLiteral":
    case "BooleanLiteral":
    case "NullLiteral":
    case "BigIntLiteral":
    case "RegExpLiteral":
    case "ThisExpression":
      return true;
    case "MemberExpression":
      return isPure(n.object) && (!n.computed || isPure(n.property));
    case "UnaryExpression":
      return n.operator !== "delete" && isPure(n.argument);
    case "BinaryExpression":
      return n.left.type !== "PrivateName" && isPure(n.left) && isPure(n.right);
    case "LogicalExpression":
      return isPure(n.left) && isPure(n.right);
    case "ConditionalExpression":
      return isPure(n.test) && isPure(n.consequent) && isPure(n.alternate);
    case "TemplateLiteral":
      return n.expressions.every((e) => isPure(e));
    default:
      return false;
  }
}

/** Expressions whose value does not depend on any variable (literals, `undefined`, operators over them). */
export function isConstant(n: t.Node): boolean {
  switch (n.type) {
    case "StringLiteral":
    case "NumericLiteral":
    case "BooleanLiteral":
    case "NullLiteral":
    case "BigIntLiteral":
    case "RegExpLiteral":
      return true;
    case "Identifier":
      return n.name === "undefined" || n.name === "NaN" || n.name === "Infinity";
    case "TemplateLiteral":
      return n.expressions.every((e) => isConstant(e));
    case "UnaryExpression":
      return n.operator !== "typeof" && n.operator !== "delete" && isConstant(n.argument);
    case "BinaryExpression":
      return n.left.type !== "PrivateName" && isConstant(n.left) && isConstant(n.right);
    case "LogicalExpression":
      return isConstant(n.left) && isConstant(n.right);
    default:
      return false;
  }
}

/** A side-effect-free access path: `x`, `this.x`, `a.b.c`, `a[k]`, `a[i + 1]`. */
export function isPath(n: t.Node): boolean {
  if (n.type === "Identifier") return n.name !== "undefined";
  if (n.type === "ThisExpression") return true;
  if (n.type === "MemberExpression") return isPath(n.object) && (!n.computed || isPure(n.property));
  return false;
}

/** The operands of a chain of one logical operator (`a && b && c` → a, b, c), parenthesized sub-chains kept whole. */
export function flattenLogical(n: t.Node, operator: string, root = true): t.Node[] {
  const parenthesized = (n.extra as { parenthesized?: boolean } | undefined)?.parenthesized;
  if (n.type === "LogicalExpression" && n.operator === operator && (root || !parenthesized))
    return [...flattenLogical(n.left, operator, false), ...flattenLogical(n.right, operator, false)];
  return [n];
}

/** Whether `n` is the root of its logical chain (its parent is not the same operator continuing it). */
export function isChainRoot(tree: Tree, n: t.LogicalExpression): boolean {
  const p = tree.parent.get(n);
  if (p?.type !== "LogicalExpression" || p.operator !== n.operator) return true;
  return (n.extra as { parenthesized?: boolean } | undefined)?.parenthesized === true;
}

/** Splice removing operand `i` of a flattened chain together with one adjacent operator. */
export function removeOperand(tree: Tree, operands: readonly t.Node[], i: number): Splice {
  const me = outer(tree, operands[i]!);
  if (i === 0) return { start: me.start, end: outer(tree, operands[1]!).start, text: "" };
  return { start: outer(tree, operands[i - 1]!).end, end: me.end, text: "" };
}

/**
 * Splice deleting a statement: its whole line when it stands alone on it, else just its text. Undefined
 * when the statement is not an element of a statement list (deleting it would change the parent statement).
 */
export function deleteStatement(tree: Tree, stmt: t.Node): Splice | undefined {
  const p = tree.parent.get(stmt);
  if (!p || !(p.type === "BlockStatement" || p.type === "Program" || p.type === "SwitchCase"))
    return undefined;
  if (p.type === "SwitchCase" && p.test === stmt) return undefined;
  const { text } = tree;
  const lineStart = text.lastIndexOf("\n", start(stmt) - 1) + 1;
  let lineEnd = text.indexOf("\n", end(stmt));
  if (lineEnd < 0) lineEnd = text.length;
  if (text.slice(lineStart, start(stmt)).trim() === "" && text.slice(end(stmt), lineEnd).trim() === "")
    return { start: lineStart, end: Math.min(lineEnd + 1, text.length), text: "" };
  return { start: start(stmt), end: end(stmt), text: "" };
}

/** `!x` style check that a path is nullish: returns the path for `!P`, `P == null`, `P === undefined`, `typeof P === 'undefined'`. */
export function nullishPath(n: t.Node): t.Node | undefined {
  if (n.type === "UnaryExpression" && n.operator === "!" && isPath(n.argument)) return n.argument;
  return nullCheck(n, ["==", "==="]);
}

/** Check that a path is present: returns the path for `P`, `P != null`, `P !== undefined`, `typeof P !== 'undefined'`. */
export function presentPath(n: t.Node): t.Node | undefined {
  if (isPath(n)) return n;
  return nullCheck(n, ["!=", "!=="]);
}

function nullCheck(n: t.Node, ops: readonly string[]): t.Node | undefined {
  if (n.type !== "BinaryExpression" || !ops.includes(n.operator) || n.left.type === "PrivateName")
    return undefined;
  const isNullish = (x: t.Node) =>
    x.type === "NullLiteral" ||
    (x.type === "Identifier" && x.name === "undefined") ||
    (x.type === "UnaryExpression" && x.operator === "void");
  const isUndefinedString = (x: t.Node) => x.type === "StringLiteral" && x.value === "undefined";
  for (const [a, b] of [
    [n.left, n.right],
    [n.right, n.left],
  ] as const) {
    if (isNullish(b) && isPath(a)) return a;
    if (isUndefinedString(b) && a.type === "UnaryExpression" && a.operator === "typeof" && isPath(a.argument))
      return a.argument;
  }
  return undefined;
}

/** Whether `n` writes `pathText` (assignment to it, `++`/`--` of it). */
export function assigns(tree: Tree, n: t.Node, pathText: string): boolean {
  if (n.type === "AssignmentExpression") return norm(src(tree, n.left)) === pathText;
  if (n.type === "UpdateExpression") return norm(src(tree, n.argument)) === pathText;
  return false;
}

/**
 * The first dereference of the path (normalized text) inside `scope` after offset `from`: a member access on
 * it, a call of it, `k in P`, `for (… of P)`, or `Object.keys|values|entries(P)`; undefined when there is none,
 * or when the path is reassigned before it.
 */
export function laterDeref(tree: Tree, scope: Span, from: number, pathText: string): t.Node | undefined {
  for (const n of tree.nodes) {
    if (start(n) < from || end(n) > scope.end || start(n) < scope.start) continue;
    if (assigns(tree, n, pathText)) return undefined;
    const target = derefTarget(n);
    if (target && norm(src(tree, target)) === pathText) return n;
  }
  return undefined;
}

function derefTarget(n: t.Node): t.Node | undefined {
  if (n.type === "MemberExpression") return n.object;
  if (n.type === "CallExpression") {
    const c = n.callee;
    if (
      c.type === "MemberExpression" &&
      c.object.type === "Identifier" &&
      c.object.name === "Object" &&
      c.property.type === "Identifier" &&
      ["keys", "values", "entries"].includes(c.property.name) &&
      n.arguments[0]
    )
      return n.arguments[0];
    return c.type === "V8IntrinsicIdentifier" ? undefined : c;
  }
  if (n.type === "BinaryExpression" && n.operator === "in") return n.right;
  if (n.type === "ForOfStatement") return n.right;
  return undefined;
}

/** Whether an expression needs parentheses to be pasted as an operand of a binary operator. */
export function needsParens(n: t.Node): boolean {
  return [
    "BinaryExpression",
    "LogicalExpression",
    "ConditionalExpression",
    "AssignmentExpression",
    "SequenceExpression",
    "ArrowFunctionExpression",
    "YieldExpression",
  ].includes(n.type);
}

/** A name that does not occur as a word in the text (for introduced parameters). */
export function freshName(
  text: string,
  candidates: readonly string[] = ["item", "element", "entry", "value"],
): string {
  for (const c of candidates) if (!new RegExp(`\\b${c}\\b`).test(text)) return c;
  let i = 1;
  while (new RegExp(`\\bitem${i}\\b`).test(text)) i++;
  return `item${i}`;
}
