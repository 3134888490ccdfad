import type * as t from "@babel/types";
import {
  deleteStatement,
  enclosingFunctionNode,
  end,
  flattenLogical,
  freshName,
  isChainRoot,
  isPath,
  laterDeref,
  loopOf,
  type Mutation,
  norm,
  nullishPath,
  outer,
  presentPath,
  removeOperand,
  type Splice,
  shorten,
  src,
  start,
  type Tree,
} from "./ast.ts";

/** Codemods of the Value Flow category (WitnessGym Table 5): intra-function and collection-element null derefs. */

/** The range a dereference must fall in: the innermost function holding `n`, else the whole file. */
function functionScope(tree: Tree, n: t.Node): { start: number; end: number } {
  const fn = enclosingFunctionNode(tree, n);
  return fn ? { start: start(fn), end: end(fn) } : { start: 0, end: tree.text.length };
}

/** Whether a statement leaves the current path (return, throw, continue, break), or a block ending in one. */
function exits(s: t.Node): boolean {
  if (["ReturnStatement", "ThrowStatement", "ContinueStatement", "BreakStatement"].includes(s.type))
    return true;
  return s.type === "BlockStatement" && s.body.length > 0 && exits(s.body[s.body.length - 1]!);
}

/** Whether a statement (or a top-level statement of a block) assigns the path: `if (!x) { x = {}; }`. */
function defaults(tree: Tree, s: t.Node, pathText: string): boolean {
  const list = s.type === "BlockStatement" ? s.body : [s];
  return list.some(
    (x) =>
      x.type === "ExpressionStatement" &&
      x.expression.type === "AssignmentExpression" &&
      x.expression.operator === "=" &&
      norm(src(tree, x.expression.left)) === pathText,
  );
}

/**
 * intra-function-null-deref: a nullish guard removed where its path is dereferenced later in the function
 * (guard `if`, a guard operand of a &&/|| chain, `?.`, an `|| {}` default).
 */
export function nullGuardRemovals(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  const add = (anchor: t.Node, edits: Splice[], summary: string) =>
    out.push({
      type: "intra-function-null-deref",
      anchor: { start: start(anchor), end: end(anchor) },
      edits,
      summary,
    });
  for (const n of tree.nodes) {
    // if (!x) return; / if (x == null) throw …; / if (!x) { x = {}; }
    if (n.type === "IfStatement" && !n.alternate) {
      const path = nullishPath(n.test);
      if (path) {
        const p = norm(src(tree, path));
        if (
          (exits(n.consequent) || defaults(tree, n.consequent, p)) &&
          laterDeref(tree, functionScope(tree, n), end(n), p)
        ) {
          const edit = deleteStatement(tree, n);
          if (edit) add(n, [edit], `removed guard \`${shorten(src(tree, n), 40)}\``);
        }
      }
    }
    // x && x.y → x.y ;  !x || x.y → x.y
    if (
      n.type === "LogicalExpression" &&
      (n.operator === "&&" || n.operator === "||") &&
      isChainRoot(tree, n)
    ) {
      const operands = flattenLogical(n, n.operator);
      operands.forEach((o, i) => {
        const path = n.operator === "&&" ? presentPath(o) : nullishPath(o);
        if (!path) return;
        const p = norm(src(tree, path));
        if (!laterDeref(tree, functionScope(tree, n), end(o), p)) return;
        const edit = removeOperand(tree, operands, i);
        const after = tree.text.slice(start(n), edit.start) + tree.text.slice(edit.end, end(n));
        add(o, [edit], `\`${shorten(src(tree, n))}\` → \`${shorten(after)}\``);
      });
    }
    // x?.y → x.y ; f?.() → f()
    if ((n.type === "OptionalMemberExpression" || n.type === "OptionalCallExpression") && n.optional) {
      const left = n.type === "OptionalMemberExpression" ? n.object : n.callee;
      const at = tree.text.indexOf("?.", outer(tree, left).end);
      if (at < 0) continue;
      const next = tree.text[at + 2];
      const text = next === "[" || next === "(" ? "" : ".";
      add(
        n,
        [{ start: at, end: at + 2, text }],
        `\`${shorten(src(tree, n), 40)}\`: \`?.\` → \`${text || next}\``,
      );
    }
    // x || {} / x ?? [] → x, where the result is dereferenced
    if (
      n.type === "LogicalExpression" &&
      (n.operator === "||" || n.operator === "??") &&
      (n.right.type === "ObjectExpression" || n.right.type === "ArrayExpression") &&
      isPath(n.left) &&
      defaultIsDereferenced(tree, n)
    ) {
      const edit = { start: outer(tree, n.left).end, end: outer(tree, n.right).end, text: "" };
      add(n, [edit], `\`${shorten(src(tree, n))}\` → \`${shorten(src(tree, n.left))}\``);
    }
  }
  return out;
}

/** The default's result is dereferenced: directly (`(x || {}).y`, `Object.keys(x || {})`) or through the variable it initialises. */
function defaultIsDereferenced(tree: Tree, n: t.LogicalExpression): boolean {
  const p = tree.parent.get(n);
  if (!p) return false;
  if (p.type === "MemberExpression" && p.object === n) return true;
  if (
    p.type === "CallExpression" &&
    p.arguments[0] === n &&
    p.callee.type === "MemberExpression" &&
    p.callee.object.type === "Identifier" &&
    p.callee.object.name === "Object" &&
    p.callee.property.type === "Identifier" &&
    ["keys", "values", "entries"].includes(p.callee.property.name)
  )
    return true;
  let target: t.Node | undefined;
  if (p.type === "VariableDeclarator" && p.init === n && p.id.type === "Identifier") target = p.id;
  if (p.type === "AssignmentExpression" && p.right === n && p.operator === "=" && isPath(p.left))
    target = p.left;
  if (!target) return false;
  return laterDeref(tree, functionScope(tree, n), end(p), norm(src(tree, target))) !== undefined;
}

/**
 * collection-element-null-deref: removals turned into holes (filter → map, delete → `= undefined`,
 * Map delete → set undefined, splice(i, 1) → `= undefined`), and a loop's element filter weakened.
 */
export function elementNullifications(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  const add = (anchor: t.Node, edits: Splice[], summary: string) =>
    out.push({
      type: "collection-element-null-deref",
      anchor: { start: start(anchor), end: end(anchor) },
      edits,
      summary,
    });
  for (const n of tree.nodes) {
    if (n.type === "CallExpression" && n.callee.type === "MemberExpression") {
      const method = methodName(n.callee);
      const statement = tree.parent.get(n)?.type === "ExpressionStatement";
      const arg = n.arguments[0];
      if (
        method === "filter" &&
        !n.callee.computed &&
        !statement &&
        n.arguments.length === 1 &&
        arg &&
        arg.type !== "SpreadElement"
      ) {
        const edits = filterToHoles(tree, n.callee.property, arg);
        if (edits)
          add(
            n,
            edits,
            `\`.filter(${shorten(src(tree, arg), 24)})\` keeps rejected elements as \`undefined\``,
          );
      }
      if (
        method === "delete" &&
        statement &&
        n.arguments.length === 1 &&
        arg &&
        arg.type !== "SpreadElement"
      ) {
        const receiver = norm(src(tree, n.callee.object));
        if (isMapLike(tree, receiver)) {
          const prop = n.callee.property;
          const name =
            prop.type === "StringLiteral" ? `${tree.text[start(prop)]}set${tree.text[start(prop)]}` : "set";
          add(
            n,
            [
              { start: start(prop), end: end(prop), text: name },
              { start: end(arg), end: end(arg), text: ", undefined" },
            ],
            `\`${shorten(src(tree, n), 32)}\` → \`set(…, undefined)\``,
          );
        }
      }
      if (
        method === "splice" &&
        statement &&
        n.arguments.length === 2 &&
        arg &&
        arg.type !== "SpreadElement" &&
        n.arguments[1]!.type === "NumericLiteral" &&
        (n.arguments[1] as t.NumericLiteral).value === 1 &&
        isPath(n.callee.object)
      ) {
        const text = `${src(tree, n.callee.object)}[${src(tree, arg)}] = undefined`;
        add(
          n,
          [{ start: start(n), end: end(n), text }],
          `\`${shorten(src(tree, n), 32)}\` → \`${shorten(text, 32)}\``,
        );
      }
    }
    // delete o[k] → o[k] = undefined
    if (
      n.type === "UnaryExpression" &&
      n.operator === "delete" &&
      n.argument.type === "MemberExpression" &&
      tree.parent.get(n)?.type === "ExpressionStatement"
    ) {
      add(
        n,
        [
          { start: start(n), end: start(n.argument), text: "" },
          { start: end(n.argument), end: end(n.argument), text: " = undefined" },
        ],
        `\`${shorten(src(tree, n), 32)}\` → \`${shorten(src(tree, n.argument), 24)} = undefined\``,
      );
    }
    // In a loop: if (typeof a[i] !== 'undefined') { out… = a[i] } → if (a[i] !== null) …
    if (n.type === "IfStatement" && !n.alternate && loopOf(tree, n)) {
      const weakened = weakenElementCheck(tree, n);
      if (weakened)
        add(n.test, [weakened], `\`${shorten(src(tree, n.test), 40)}\` → \`${shorten(weakened.text, 40)}\``);
    }
  }
  return out;
}

function methodName(callee: t.MemberExpression): string | undefined {
  if (!callee.computed && callee.property.type === "Identifier") return callee.property.name;
  if (callee.computed && callee.property.type === "StringLiteral") return callee.property.value;
  return undefined;
}

/** A receiver the file also calls `.get(` or `.set(` on: a Map or Map-like channel (not a Set). */
function isMapLike(tree: Tree, receiver: string): boolean {
  return tree.nodes.some(
    (n) =>
      n.type === "CallExpression" &&
      n.callee.type === "MemberExpression" &&
      ["get", "set"].includes(methodName(n.callee) ?? "") &&
      norm(src(tree, n.callee.object)) === receiver,
  );
}

/** `.filter(p)` → `.map(…)` that returns the element when p holds and `undefined` otherwise. */
function filterToHoles(tree: Tree, property: t.Node, predicate: t.Node): Splice[] | undefined {
  const rename: Splice = { start: start(property), end: end(property), text: "map" };
  if (
    (predicate.type === "FunctionExpression" || predicate.type === "ArrowFunctionExpression") &&
    predicate.params.length >= 1 &&
    predicate.params[0]!.type === "Identifier"
  ) {
    const param = (predicate.params[0] as t.Identifier).name;
    const body = predicate.body;
    let expr: t.Node | undefined;
    if (body.type === "BlockStatement") {
      const only = body.body.length === 1 ? body.body[0] : undefined;
      if (only?.type === "ReturnStatement" && only.argument) expr = only.argument;
    } else expr = body;
    if (!expr) return undefined;
    const loose = [
      "ConditionalExpression",
      "AssignmentExpression",
      "SequenceExpression",
      "ArrowFunctionExpression",
      "YieldExpression",
    ];
    const test = loose.includes(expr.type) ? `(${src(tree, expr)})` : src(tree, expr);
    const wrapped = `${test} ? ${param} : undefined`;
    const range = outer(tree, expr);
    return [
      rename,
      { start: range.start, end: range.end, text: body.type === "BlockStatement" ? wrapped : `(${wrapped})` },
    ];
  }
  if (isPath(predicate)) {
    const x = freshName(tree.text);
    const p = src(tree, predicate);
    return [
      rename,
      {
        start: start(predicate),
        end: end(predicate),
        text: `function (${x}) { return ${p}(${x}) ? ${x} : undefined; }`,
      },
    ];
  }
  return undefined;
}

/**
 * An element presence check whose consequent copies the element: `typeof E !== 'undefined'` / `E !== undefined`
 * → `E !== null`, `E !== null` / `E != null` → `E !== undefined` (the wrong nullish value lets holes through).
 */
function weakenElementCheck(tree: Tree, n: t.IfStatement): Splice | undefined {
  const test = n.test;
  if (test.type !== "BinaryExpression" || (test.operator !== "!==" && test.operator !== "!="))
    return undefined;
  const element = presentPath(test);
  if (!element || element === test || element.type !== "MemberExpression" || !element.computed)
    return undefined;
  const e = norm(src(tree, element));
  const copies = tree.nodes.some(
    (x) =>
      start(x) >= start(n.consequent) &&
      end(x) <= end(n.consequent) &&
      ((x.type === "AssignmentExpression" && norm(src(tree, x.right)) === e) ||
        (x.type === "CallExpression" && x.arguments.some((a) => norm(src(tree, a)) === e))),
  );
  if (!copies) return undefined;
  const checksNull = test.left.type === "NullLiteral" || test.right.type === "NullLiteral";
  const text = `${src(tree, element)} !== ${checksNull ? "undefined" : "null"}`;
  return { start: start(test), end: end(test), text };
}
