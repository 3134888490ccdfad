import type { Binding, NodePath } from "@babel/traverse";
import type * as t from "@babel/types";
import type { OperatorInput, OperatorResult, TransformOperator } from "../transform.ts";
import {
  compose,
  declareBefore,
  end,
  freshName,
  helperName,
  indentAt,
  indentUnit,
  initializedBefore,
  isPure,
  isRvalue,
  listStatement,
  locate,
  movableSite,
  overlaps,
  type Part,
  rangeOf,
  references,
  returnBody,
  scopeBefore,
  start,
  topicOf,
  unmovable,
  within,
} from "./site.ts";

/** The Call Stack family of WitnessGym Table 6: each rewrite adds a function boundary on the way to the bug. */

/**
 * Identifiers of a side-effect-free `expr` that can be passed by value to a helper called where `expr` was:
 * bound outside it, initialised by then, and either never reassigned or not captured by a closure inside it.
 */
function valueParameters(expr: NodePath, stmt: NodePath): string[] {
  if (!isPure(expr)) return [];
  const names: string[] = [];
  for (const ref of references(expr)) {
    const name = ref.node.name;
    const binding = ref.scope.getBinding(name);
    if (!binding || names.includes(name) || name === "arguments" || within(binding.path, expr)) continue;
    if (!initializedBefore(binding, stmt)) continue;
    const captured = references(expr).some(
      (r) => r.node.name === name && r.getFunctionParent() !== expr.getFunctionParent(),
    );
    if (captured && binding.constantViolations.length > 0) continue;
    names.push(name);
    if (names.length === 4) break;
  }
  return names;
}

/**
 * Helper Call Insertion: `S[E]` → `const checkX = (a, b) => { return E; };` before `S`, and `S[checkX(a, b)]`,
 * where `E` is the smallest rvalue expression holding the site and `S` its statement. `a, b` are the
 * side-effect-free expression's free locals passed by value (none in TS, or when `E` has effects: then the arrow
 * only closes over them). An arrow keeps `this`, `arguments` and `super`; the block body lets later operators
 * work inside the helper. Refused on `await`/`yield` or when a name of `E` would resolve differently before `S`.
 */
export const helperCallInsertion: TransformOperator = {
  id: "helper-call-insertion",
  family: "call-stack",
  title: "Helper Call Insertion",
  description:
    "Moves the expression holding the bug into a local helper arrow declared before its statement and calls the helper in its place, adding one call level between the caller and the bug.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const found = movableSite(input);
    if (!found) return undefined;
    const { site, expr, stmt } = found;
    const params = site.ts ? [] : valueParameters(expr, stmt);
    const name = helperName(
      input.text,
      input.salt,
      ["check", "compute", "resolve", "evaluate"],
      topicOf(expr),
    );
    const decl: Part[] = [`const ${name} = (${params.join(", ")}) => `, ...returnBody(input.text, expr), ";"];
    const edits = [
      declareBefore(input.text, start(stmt), decl),
      { ...rangeOf(expr), parts: [`${name}(${params.join(", ")})`] },
    ];
    return {
      ...compose(input.text, edits, input.site),
      summary: `moved the bug's expression into helper \`${name}\``,
    };
  },
};

/** The binding a function is called through: its declaration name, or the variable it initialises. */
function calledAs(fn: NodePath<t.Function>): { name: string; binding: Binding; decl: NodePath } | undefined {
  if (fn.isFunctionDeclaration() && fn.node.id) {
    const binding = fn.parentPath.scope.getBinding(fn.node.id.name);
    if (binding?.path === fn) return { name: fn.node.id.name, binding, decl: fn };
  }
  const parent = fn.parentPath;
  if ((fn.isFunctionExpression() || fn.isArrowFunctionExpression()) && parent.isVariableDeclarator()) {
    const id = parent.node.id;
    if (id.type !== "Identifier") return undefined;
    const binding = parent.scope.getBinding(id.name);
    if (binding?.path === parent) return { name: id.name, binding, decl: parent };
  }
  return undefined;
}

/**
 * Call-Site Rerouting: for the innermost function around the site that is called by name in the file (`foo`,
 * declared or assigned to a variable), add `function fooVia(...args) { return foo(...args); }` right after its
 * declaration and route every direct call `foo(…)` outside the site through `fooVia(…)`. The forwarder is hoisted
 * in the same scope, passes all arguments and the same (undefined) receiver, and resolves `foo` at call time.
 */
export const callSiteRerouting: TransformOperator = {
  id: "call-site-rerouting",
  family: "call-stack",
  title: "Call-Site Rerouting",
  description:
    "Adds a forwarding function next to the function holding the bug and routes its direct internal calls through it, so the bug is reached through one more dispatch step.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const site = locate(input.file, input.text, input.site);
    if (!site) return undefined;
    for (let fn = site.covering.isFunction() ? site.covering : site.covering.getFunctionParent(); fn; ) {
      const target = calledAs(fn);
      const calls = (target?.binding.referencePaths ?? []).filter(
        (r) => r.parentPath?.isCallExpression() && r.key === "callee" && !overlaps(r, input.site),
      );
      const stmt = target && listStatement(target.decl);
      if (
        target &&
        stmt &&
        calls.length > 0 &&
        scopeBefore(stmt).getBinding(target.name) === target.binding
      ) {
        const via = helperName(
          input.text,
          input.salt,
          ["dispatch", "route", "forward", "invoke"],
          cap(target.name),
        );
        const { indent } = indentAt(input.text, start(stmt));
        const unit = indentUnit(input.text);
        const rest = freshName(input.text, "args", [via]);
        const types = site.ts ? `: Parameters<typeof ${target.name}>` : "";
        const returns = site.ts ? `: ReturnType<typeof ${target.name}>` : "";
        const forwarder =
          `\n\n${indent}function ${via}(...${rest}${types})${returns} {\n` +
          `${indent}${unit}return ${target.name}(...${rest});\n${indent}}`;
        const edits = [
          { start: end(stmt), end: end(stmt), parts: [forwarder] },
          ...calls.map((c) => ({ ...rangeOf(c), parts: [via] })),
        ];
        return {
          ...compose(input.text, edits, input.site),
          summary: `routed ${calls.length} call(s) of \`${target.name}\` through forwarder \`${via}\``,
        };
      }
      fn = fn.getFunctionParent();
    }
    return undefined;
  },
};

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A value whose read cannot be changed by a side-effect-free expression evaluated before it: an identifier,
 * literal, `this`, or a non-computed property chain of those (getters are not modelled).
 */
function trivial(p: NodePath): boolean {
  if (p.isIdentifier() || p.isLiteral() || p.isThisExpression()) return !p.isTemplateLiteral();
  return p.isMemberExpression() && !p.node.computed && trivial(p.get("object"));
}

/**
 * True when `expr` (inside `child`) can be evaluated before the rest of `parent`: `child` is evaluated
 * unconditionally, and either first or after only trivial siblings while `expr` has no side effects.
 */
function evaluatedFirst(child: NodePath, parent: NodePath, expr: NodePath): boolean {
  const key = child.key;
  const swappable = (earlier: NodePath[]): boolean =>
    earlier.every((q) => start(q) >= start(child) || trivial(q)) && (earlier.length === 0 || isPure(expr));
  const pureBefore = (list: NodePath[]): boolean => swappable(list.filter((q) => start(q) < start(child)));
  if (parent.isBinaryExpression()) return key === "left" || swappable([parent.get("left") as NodePath]);
  if (parent.isLogicalExpression()) return key === "left";
  if (parent.isConditionalExpression()) return key === "test";
  if (parent.isUnaryExpression()) return parent.node.operator !== "delete";
  if (parent.isMemberExpression()) return key === "object" || swappable([parent.get("object")]);
  if ((parent.isCallExpression() || parent.isNewExpression()) && child.listKey === "arguments") {
    const callee = parent.get("callee") as NodePath;
    return (
      !callee.isSuper() && trivial(callee) && pureBefore([callee, ...(parent.get("arguments") as NodePath[])])
    );
  }
  if (parent.isTemplateLiteral()) return pureBefore(parent.get("expressions") as NodePath[]);
  if (parent.isArrayExpression()) return pureBefore(parent.get("elements") as NodePath[]);
  return /^TS(As|NonNull|Satisfies)Expression$/.test(parent.node.type);
}

/**
 * Extract-and-Apply Split: with `E` the site's expression and `C` the largest expression around it in which `E`
 * is evaluated first and unconditionally, `C[E]` → `applyX(extractX())` with
 * `const extractX = () => { return E; };` and
 * `const applyX = (v) => C[v];` declared before the statement. When `E` is a whole `if`/loop test, `C` is the
 * test's truthiness: `applyX = (v) => !!v`.
 */
export const extractAndApplySplit: TransformOperator = {
  id: "extract-and-apply-split",
  family: "call-stack",
  title: "Extract-and-Apply Split",
  description:
    "Splits the computation around the bug into an extraction helper that computes the bug's expression and an application helper that uses the extracted value, so the bug crosses two function boundaries.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const found = movableSite(input);
    if (!found) return undefined;
    const { site, expr, stmt } = found;
    let comp: NodePath = expr;
    for (let parent = comp.parentPath; parent?.isExpression() && isRvalue(parent); parent = comp.parentPath) {
      if (!evaluatedFirst(comp, parent, expr)) break;
      comp = parent;
    }
    const testOf = expr.parentPath;
    const isTest =
      expr.key === "test" &&
      (testOf.isIfStatement() ||
        testOf.isWhileStatement() ||
        testOf.isDoWhileStatement() ||
        testOf.isForStatement());
    const logical = expr.parentPath;
    if (comp === expr && logical.isLogicalExpression() && expr.key === "right" && isRvalue(logical))
      return splitGuardedOperand(input, site.ts, expr, logical, stmt);
    if (comp === expr && !isTest) return undefined;
    if (comp !== expr && unmovable(comp, stmt)) return undefined;
    const topic = topicOf(expr);
    const extract = helperName(input.text, input.salt, ["extract", "read", "fetch", "select"], topic);
    const apply = helperName(
      `${input.text} ${extract}`,
      input.salt,
      ["apply", "use", "consume", "decide"],
      topic,
    );
    const v = helperName(
      `${input.text} ${extract} ${apply}`,
      input.salt,
      ["extracted", "value", "input"],
      "",
    );
    const param = site.ts ? `${v}: ReturnType<typeof ${extract}>` : v;
    const applied: Part[] =
      comp === expr
        ? [`!!${v}`]
        : [{ start: start(comp), end: start(expr) }, v, { start: end(expr), end: end(comp) }];
    const wrap = comp.isObjectExpression() || comp.isSequenceExpression();
    const decl: Part[] = [
      `const ${extract} = () => `,
      ...returnBody(input.text, expr),
      `;\nconst ${apply} = (${param}) => `,
      ...(wrap ? ["(", ...applied, ")"] : applied),
      ";",
    ];
    const edits = [
      declareBefore(input.text, start(stmt), decl),
      { ...rangeOf(comp), parts: [`${apply}(${extract}())`] },
    ];
    return {
      ...compose(input.text, edits, input.site),
      summary: `split the computation around the bug into \`${extract}\` and \`${apply}\``,
    };
  },
};

/**
 * The conditional form of Extract-and-Apply Split, for `L op E` with `op` one of `&&`, `||`, `??`: `E` runs only
 * when `L` lets it, so the applier receives the extractor and calls it itself:
 * `const extractX = () => { return E; };`, `const applyX = (left, read) => left op read();` and
 * `L op E` → `applyX(L, extractX)`.
 */
function splitGuardedOperand(
  input: OperatorInput,
  ts: boolean,
  expr: NodePath,
  logical: NodePath<t.LogicalExpression>,
  stmt: NodePath,
): OperatorResult {
  const topic = topicOf(expr);
  const extract = helperName(input.text, input.salt, ["extract", "read", "fetch", "select"], topic);
  const apply = helperName(input.text, input.salt, ["apply", "combine", "guard", "decide"], topic, [extract]);
  const left = freshName(input.text, "left", [extract, apply]);
  const read = freshName(input.text, "read", [extract, apply, left]);
  const types = ts ? [`: unknown`, `: typeof ${extract}`] : ["", ""];
  const decl: Part[] = [
    `const ${extract} = () => `,
    ...returnBody(input.text, expr),
    `;\nconst ${apply} = (${left}${types[0]}, ${read}${types[1]}) => ${left} ${logical.node.operator} ${read}();`,
  ];
  const edits = [
    declareBefore(input.text, start(stmt), decl),
    { start: start(logical), end: start(logical.node.left), parts: [`${apply}(`] },
    { start: end(logical.node.left), end: end(logical), parts: [`, ${extract})`] },
  ];
  return {
    ...compose(input.text, edits, input.site),
    summary: `split the guarded operand holding the bug into \`${extract}\`, applied by \`${apply}\``,
  };
}
