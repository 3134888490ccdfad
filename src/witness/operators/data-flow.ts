import type { NodePath } from "@babel/traverse";
import type * as t from "@babel/types";
import type { OperatorInput, OperatorResult, TransformOperator } from "../transform.ts";
import {
  bodyOf,
  compose,
  declareBefore,
  type Edit,
  freshName,
  helperName,
  indentUnit,
  initializedBefore,
  isPure,
  isRvalue,
  movableSite,
  type Part,
  rangeOf,
  references,
  returnBody,
  start,
  topicOf,
  unmovable,
  within,
} from "./site.ts";

/** Data Flow operators of WitnessGym Table 6 that reroute the value of the bug's expression through state. */

/**
 * Parameter Bundling: `S[E]` → `const checkX = ({ a, b }) => { return E; };` before `S`, and `S[checkX({ a, b })]`: the
 * free locals `E` reads travel to the helper packed in one argument object and are unpacked under their own
 * names. A local is bundled only when its value when the bundle is built equals its value where `E` reads it:
 * it is initialised there, `E` does not assign it, and it is never reassigned or `E` has no side effects and
 * does not capture it in a closure.
 */
export const parameterBundling: TransformOperator = {
  id: "parameter-bundling",
  family: "data-flow",
  title: "Parameter Bundling",
  description:
    "Packs the locals the bug's expression reads into one argument object passed to a local helper that unpacks them and evaluates the expression.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const found = movableSite(input);
    if (!found) return undefined;
    const { site, expr, stmt } = found;
    const pure = isPure(expr);
    const names: string[] = [];
    for (const ref of references(expr)) {
      const name = ref.node.name;
      const binding = ref.scope.getBinding(name);
      if (!binding || names.includes(name) || name === "arguments" || within(binding.path, expr)) continue;
      if (!initializedBefore(binding, stmt) || binding.constantViolations.some((v) => within(v, expr)))
        continue;
      const captured = references(expr).some(
        (r) => r.node.name === name && r.getFunctionParent() !== expr.getFunctionParent(),
      );
      if (binding.constantViolations.length > 0 && (!pure || captured)) continue;
      names.push(name);
      if (names.length === 4) break;
    }
    if (names.length === 0) return undefined;
    const name = helperName(
      input.text,
      input.salt,
      ["check", "evaluate", "compute", "resolve"],
      topicOf(expr),
    );
    const bundle = `{ ${names.join(", ")} }`;
    const param = site.ts ? `${bundle}: Record<string, any>` : bundle;
    const edits = [
      declareBefore(input.text, start(stmt), [
        `const ${name} = (${param}) => `,
        ...returnBody(input.text, expr),
        ";",
      ]),
      { ...rangeOf(expr), parts: [`${name}(${bundle})`] },
    ];
    return {
      ...compose(input.text, edits, input.site),
      summary: `bundled ${names.map((n) => `\`${n}\``).join(", ")} into the argument object of helper \`${name}\``,
    };
  },
};

/** Start of the first statement of the program after its imports. */
function programTop(program: t.Program): number | undefined {
  return program.body.find((s) => s.type !== "ImportDeclaration")?.start ?? undefined;
}

/** Start of the first statement of the function (or program) whose own code holds `p`. */
function topOfOwner(p: NodePath): number | undefined {
  const fn = p.getFunctionParent();
  if (!fn) return programTop(p.findParent((q) => q.isProgram())?.node as t.Program);
  const body = fn.node.body;
  return body.type === "BlockStatement" ? (body.body[0]?.start ?? undefined) : undefined;
}

/**
 * Intermediate State Passing: a holder `const pendingX = { value: undefined };` at the top of the enclosing
 * function; before the statement `const storeX = () => { pendingX.value = E; return pendingX; };` and
 * `const takeX = (state) => state.value;`; and `E` → `takeX(storeX())`. The value is written and read back
 * immediately, so recursion or re-entry cannot interleave.
 */
export const intermediateStatePassing: TransformOperator = {
  id: "intermediate-state-passing",
  family: "data-flow",
  title: "Intermediate State Passing",
  description:
    "Stores the bug's intermediate value in a state holder of the enclosing function through one helper and reads it back through another, lengthening the value-flow path.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const found = movableSite(input);
    if (!found) return undefined;
    const { site, expr, stmt } = found;
    const top = topOfOwner(expr);
    if (top === undefined) return undefined;
    const topic = topicOf(expr);
    const text = input.text;
    const holder = helperName(text, input.salt, ["pending", "last", "current"], topic);
    const store = helperName(text, input.salt, ["store", "record", "stash"], topic, [holder]);
    const take = helperName(text, input.salt, ["take", "load", "recall"], topic, [holder, store]);
    const state = freshName(text, "state", [holder, store, take]);
    const holderDecl = site.ts
      ? `const ${holder}: { value?: any } = { value: undefined };`
      : `const ${holder} = { value: undefined };`;
    const stateParam = site.ts ? `${state}: typeof ${holder}` : state;
    const edits: Edit[] = [
      declareBefore(input.text, top, [holderDecl]),
      declareBefore(input.text, start(stmt), [
        `const ${store} = () => {\n${indentUnit(input.text)}${holder}.value = `,
        ...bodyOf(expr),
        `;\n${indentUnit(input.text)}return ${holder};\n};\nconst ${take} = (${stateParam}) => ${state}.value;`,
      ]),
      { ...rangeOf(expr), parts: [`${take}(${store}())`] },
    ];
    return {
      ...compose(input.text, edits, input.site),
      summary: `passed the bug's value through state holder \`${holder}\` (\`${store}\` then \`${take}\`)`,
    };
  },
};

/** Globals a cached read may take as a key without a binding. */
const SAFE_GLOBALS = new Set(["undefined", "NaN", "Infinity"]);

/**
 * The maximal side-effect-free reads of `expr` (identifiers, `this`, property chains), in evaluation order;
 * undefined when `expr` has anything else than operators and primitive literals over them, or a property read
 * that only runs on some inputs (`x && x.y`: reading `x.y` early could throw).
 */
function readsOf(expr: NodePath, stmt: NodePath): NodePath[] | undefined {
  const out: NodePath[] = [];
  const chain = (p: NodePath): boolean => {
    if (p.isThisExpression()) return true;
    if (p.isIdentifier()) {
      const binding = p.scope.getBinding(p.node.name);
      return binding ? initializedBefore(binding, stmt) : SAFE_GLOBALS.has(p.node.name);
    }
    if (p.isMemberExpression() || p.isOptionalMemberExpression()) {
      const property = p.get("property") as NodePath;
      return chain(p.get("object") as NodePath) && (!p.node.computed || visit(property, false, []));
    }
    return false;
  };
  const visit = (p: NodePath, conditional: boolean, into: NodePath[]): boolean => {
    if (p.isIdentifier() || p.isThisExpression()) return chain(p) && into.push(p) > 0;
    if (p.isMemberExpression() || p.isOptionalMemberExpression())
      return !conditional && chain(p) && into.push(p) > 0;
    if (p.isStringLiteral() || p.isNumericLiteral() || p.isBooleanLiteral() || p.isNullLiteral()) return true;
    if (p.isBigIntLiteral()) return true;
    if (p.isUnaryExpression())
      return p.node.operator !== "delete" && visit(p.get("argument"), conditional, into);
    if (p.isBinaryExpression())
      return (
        visit(p.get("left") as NodePath, conditional, into) &&
        visit(p.get("right") as NodePath, conditional, into)
      );
    if (p.isLogicalExpression())
      return visit(p.get("left"), conditional, into) && visit(p.get("right"), true, into);
    if (p.isConditionalExpression())
      return (
        visit(p.get("test"), conditional, into) &&
        visit(p.get("consequent"), true, into) &&
        visit(p.get("alternate"), true, into)
      );
    if (p.isTemplateLiteral())
      return p.get("expressions").every((q) => visit(q as NodePath, conditional, into));
    if (p.isTSAsExpression() || p.isTSNonNullExpression())
      return visit(p.get("expression") as NodePath, conditional, into);
    return false;
  };
  return visit(expr, false, out) ? out : undefined;
}

/**
 * Cached Value Access: a module-level slot `const memoX = { keys: null, value: undefined };` and, before the
 * statement, an accessor `cachedX(...keys)` that returns the slot's value when every key is `Object.is`-equal to
 * the stored ones, else evaluates `E` and stores it when all keys are primitives; `E` → `cachedX(r1, r2, …)`
 * with `r1, r2, …` copies of the reads `E` is computed from. Only for expressions built from operators over such
 * reads (no calls, no object/array/regex literals), so equal primitive keys give an equal value.
 */
export const cachedValueAccess: TransformOperator = {
  id: "cached-value-access",
  family: "data-flow",
  title: "Cached Value Access",
  description:
    "Routes the bug's derived value through a caching accessor keyed on the values it is computed from, instead of computing it directly.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const found = movableSite(input);
    if (!found) return undefined;
    const { site, stmt } = found;
    let expr: NodePath = found.expr;
    for (
      let up = expr.parentPath;
      up?.isExpression() && isRvalue(up) && readsOf(up, stmt);
      up = up.parentPath
    )
      if (!unmovable(up, stmt)) expr = up;
    const reads = readsOf(expr, stmt);
    const program = expr.findParent((q) => q.isProgram());
    if (!reads?.length || !program || ["Object", "Array"].some((g) => expr.scope.getBinding(g)))
      return undefined;
    const top = programTop(program.node as t.Program) ?? start(stmt);
    const topic = topicOf(expr);
    const text = input.text;
    const memo = helperName(text, input.salt, ["memo", "cache", "saved"], topic);
    const get = helperName(text, input.salt, ["cached", "lookup", "memoized"], topic, [memo]);
    const taken = [memo, get];
    for (const base of ["keys", "value", "key", "i", "hit"]) taken.push(freshName(text, base, taken));
    const [keys, value, k, i, hit] = taken.slice(2);
    const u = indentUnit(input.text);
    const memoDecl = site.ts
      ? `const ${memo}: { keys: unknown[] | null; value: any } = { keys: null, value: undefined };`
      : `const ${memo} = { keys: null, value: undefined };`;
    const accessor: Part[] = [
      `const ${get} = (...${keys}${site.ts ? ": unknown[]" : ""}) => {\n`,
      `${u}const ${hit} = ${memo}.keys !== null && ${memo}.keys.length === ${keys}.length;\n`,
      `${u}if (${hit} && ${keys}.every((${k}, ${i}) => Object.is(${k}, ${memo}.keys${site.ts ? "!" : ""}[${i}]))) return ${memo}.value;\n`,
      `${u}const ${value} = `,
      ...bodyOf(expr),
      `;\n${u}if (${keys}.every((${k}) => ${k} === null || (typeof ${k} !== "object" && typeof ${k} !== "function"))) {\n`,
      `${u}${u}${memo}.keys = ${keys};\n${u}${u}${memo}.value = ${value};\n${u}}\n${u}return ${value};\n};`,
    ];
    const args = reads.flatMap((r, n) => (n ? [", ", rangeOf(r)] : [rangeOf(r)]));
    const edits: Edit[] = [
      declareBefore(input.text, top, [memoDecl]),
      declareBefore(input.text, start(stmt), accessor),
      { ...rangeOf(expr), parts: [`${get}(`, ...args, ")"] },
    ];
    return {
      ...compose(input.text, edits, input.site),
      summary: `routed the bug's value through cached accessor \`${get}\` keyed on ${reads.length} read(s)`,
    };
  },
};
