import type * as t from "@babel/types";
import { isFunctionNode } from "../functions.ts";
import {
  end,
  flattenLogical,
  isConstant,
  isPath,
  isPure,
  type Mutation,
  needsParens,
  norm,
  removeOperand,
  type Splice,
  shorten,
  src,
  start,
  type Tree,
  within,
} from "./ast.ts";

/**
 * Codemods of the API Contract category (WitnessGym Table 5): comparison of identical values, and the
 * equals/hashCode family restated for JS (see `bug-types.ts` for each analogue).
 */

const COMPARISONS = new Set(["===", "!==", "==", "!=", "<", "<=", ">", ">="]);

/** identical-comparison: `a OP b` → `a OP a` (or `b OP b` when `a` is a constant). */
export function identicalComparisons(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  for (const n of tree.nodes) {
    if (n.type !== "BinaryExpression" || !COMPARISONS.has(n.operator) || n.left.type === "PrivateName")
      continue;
    const { left, right } = n;
    // Skipped: operands with side effects (copying would run them twice), identical operands (already
    // constant), two constants (not a value compared with itself).
    if (!isPure(left) || !isPure(right) || inLoopTest(tree, n)) continue;
    if (norm(src(tree, left)) === norm(src(tree, right))) continue;
    if (isConstant(left) && isConstant(right)) continue;
    const [from, to] = isConstant(left) ? [right, left] : [left, right];
    const copy = needsParens(from) ? `(${src(tree, from)})` : src(tree, from);
    const edit: Splice = { start: start(to), end: end(to), text: copy };
    const before = src(tree, n);
    const after = tree.text.slice(start(n), edit.start) + copy + tree.text.slice(edit.end, end(n));
    out.push({
      type: "identical-comparison",
      anchor: { start: start(n), end: end(n) },
      edits: [edit],
      summary: `\`${shorten(before)}\` → \`${shorten(after)}\``,
    });
  }
  return out;
}

/** Whether a node lies in a loop's test (a constant there hangs the loop or skips it: a timeout, not a witness). */
function inLoopTest(tree: Tree, n: t.Node): boolean {
  let child = n;
  for (let p = tree.parent.get(n); p && !isFunctionNode(p); child = p, p = tree.parent.get(p)) {
    if (
      (p.type === "ForStatement" || p.type === "WhileStatement" || p.type === "DoWhileStatement") &&
      p.test === child
    )
      return true;
  }
  return false;
}

/** Behaviour protocols (the `equals` family). */
const PROTOCOL_NAMES = new Set([
  "equals",
  "isEqual",
  "compare",
  "compareTo",
  "valueOf",
  "toJSON",
  "then",
  "inspect",
]);
const PROTOCOL_SYMBOLS = new Set(["iterator", "asyncIterator"]);
/** Key-producing members (the `hashCode` family). */
const KEY_NAMES = new Set(["toString", "hashCode", "hash", "getKey", "keyOf"]);
const KEY_SYMBOLS = new Set(["toPrimitive"]);
const EQUALITY_NAMES = new Set(["equals", "isEqual", "compare", "compareTo"]);
const SYMBOL_TYPO: Record<string, string> = {
  iterator: "asyncIterator",
  asyncIterator: "iterator",
  toPrimitive: "toStringTag",
};

/**
 * A plausible misspelling: a case slip for camelCase names (`toString` → `tostring`, `toJSON` → `toJson`),
 * else two letters transposed (`decoder` → `deocder`).
 */
export function typoOf(name: string): string {
  const run = /[A-Z]{2,}/.exec(name);
  if (run) return name.slice(0, run.index + 1) + name.slice(run.index + 1).toLowerCase();
  const upper = /[A-Z]/.exec(name.slice(1));
  if (upper) return name.slice(0, upper.index + 1) + name.slice(upper.index + 1).toLowerCase();
  if (name.length >= 4 && name[2] !== name[3]) return name.slice(0, 2) + name[3] + name[2] + name.slice(4);
  return name.length > 1 ? name.slice(0, -1) : `${name}_`;
}

/** The member name of a key/property node: identifier, string, or `Symbol.x` (as `@@x`). */
function memberName(key: t.Node, computed: boolean): string | undefined {
  if (!computed && key.type === "Identifier") return key.name;
  if (key.type === "StringLiteral") return key.value;
  if (
    computed &&
    key.type === "MemberExpression" &&
    key.object.type === "Identifier" &&
    key.object.name === "Symbol" &&
    key.property.type === "Identifier"
  )
    return `@@${key.property.name}`;
  return undefined;
}

function familyOf(name: string): "protocol-method-typo" | "key-method-typo" | undefined {
  if (name.startsWith("@@")) {
    const s = name.slice(2);
    return PROTOCOL_SYMBOLS.has(s)
      ? "protocol-method-typo"
      : KEY_SYMBOLS.has(s)
        ? "key-method-typo"
        : undefined;
  }
  return PROTOCOL_NAMES.has(name)
    ? "protocol-method-typo"
    : KEY_NAMES.has(name)
      ? "key-method-typo"
      : undefined;
}

/** Splice renaming one key node to the typo of its name (keeps quotes; `Symbol.x` → `Symbol.y`). */
function renameKey(tree: Tree, key: t.Node, name: string): Splice {
  if (name.startsWith("@@") && key.type === "MemberExpression")
    return {
      start: start(key.property),
      end: end(key.property),
      text: SYMBOL_TYPO[name.slice(2)] ?? "toStringTag",
    };
  if (key.type === "StringLiteral") {
    const q = tree.text[start(key)]!;
    return { start: start(key), end: end(key), text: `${q}${typoOf(name)}${q}` };
  }
  return { start: start(key), end: end(key), text: typoOf(name) };
}

const display = (name: string) => (name.startsWith("@@") ? `[Symbol.${name.slice(2)}]` : name);

/**
 * protocol-method-typo and key-method-typo: (1) a declared protocol/key member renamed (declaration only);
 * (2) a guarded lookup of a hook or protocol member misspelled consistently inside its guard.
 */
export function memberTypos(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  for (const n of tree.nodes) {
    // (1) Declarations: methods and function-valued properties of objects and classes, `X.prototype.m = fn`.
    let key: t.Node | undefined;
    let computed = false;
    if (n.type === "ObjectMethod" || n.type === "ClassMethod") {
      if (n.kind === "constructor" || n.kind === "get" || n.kind === "set") continue;
      key = n.key;
      computed = n.computed;
    } else if (
      (n.type === "ObjectProperty" || n.type === "ClassProperty") &&
      n.value &&
      isFunctionNode(n.value)
    ) {
      key = n.key;
      computed = n.computed;
    } else if (
      n.type === "AssignmentExpression" &&
      n.operator === "=" &&
      n.left.type === "MemberExpression" &&
      isFunctionNode(n.right)
    ) {
      key = n.left.property;
      computed = n.left.computed;
    }
    if (key) {
      const name = memberName(key, computed);
      const type = name && familyOf(name);
      if (name && type) {
        const edit = renameKey(tree, key, name);
        out.push({
          type,
          anchor: { start: start(key), end: end(key) },
          edits: [edit],
          summary: `declared \`${display(name)}\` as \`${shorten(edit.text)}\``,
        });
      }
      continue;
    }
    // (2) Guarded lookups.
    const guard = guardedMember(tree, n);
    if (!guard) continue;
    const type = familyOf(guard.name) ?? (guard.callable ? "protocol-method-typo" : undefined);
    if (!type) continue;
    const scope = guardScope(tree, n);
    const objectText = norm(src(tree, guard.object));
    const edits: Splice[] = [];
    for (const m of tree.nodes) {
      if (m.type !== "MemberExpression" || !within(m, scope)) continue;
      if (norm(src(tree, m.object)) !== objectText || memberName(m.property, m.computed) !== guard.name)
        continue;
      edits.push(renameKey(tree, m.property, guard.name));
    }
    if (guard.inOperand) edits.push(renameKey(tree, guard.inOperand, guard.name));
    const renamed = edits[0]?.text ?? "";
    out.push({
      type,
      anchor: { start: start(n), end: end(n) },
      edits,
      summary: `lookup of \`${shorten(src(tree, guard.object), 24)}${guard.name.startsWith("@@") ? "" : "."}${display(guard.name)}\` misspelled \`${shorten(renamed, 24)}\` in its guard`,
    });
  }
  return out;
}

interface GuardedMember {
  object: t.Node;
  name: string;
  /** The guard asks whether the member is a function (an override hook). */
  callable: boolean;
  /** For `'m' in P`: the string operand. */
  inOperand?: t.Node;
}

/** `typeof P.m === 'function'` (either op), `P.m != null` / `!== undefined` (and negations), `'m' in P`. */
function guardedMember(tree: Tree, n: t.Node): GuardedMember | undefined {
  if (n.type !== "BinaryExpression" || n.left.type === "PrivateName") return undefined;
  if (n.operator === "in" && n.left.type === "StringLiteral" && isPath(n.right)) {
    const name = n.left.value;
    return familyOf(name) ? { object: n.right, name, callable: false, inOperand: n.left } : undefined;
  }
  if (!["===", "!==", "==", "!="].includes(n.operator)) return undefined;
  for (const [a, b] of [
    [n.left, n.right],
    [n.right, n.left],
  ] as const) {
    if (a.type === "UnaryExpression" && a.operator === "typeof" && b.type === "StringLiteral") {
      const m = a.argument;
      if (m.type !== "MemberExpression" || !isPath(m.object)) continue;
      const name = memberName(m.property, m.computed);
      if (!name) continue;
      if (b.value === "function") return { object: m.object, name, callable: true };
      if (b.value === "undefined" && familyOf(name)) return { object: m.object, name, callable: false };
    }
    if (
      (b.type === "NullLiteral" || (b.type === "Identifier" && b.name === "undefined")) &&
      a.type === "MemberExpression"
    ) {
      const name = memberName(a.property, a.computed);
      if (name && familyOf(name) && isPath(a.object)) return { object: a.object, name, callable: false };
    }
  }
  void tree;
  return undefined;
}

/** The statement or expression a guard decides: the if/ternary whose test holds it, else its logical chain. */
function guardScope(tree: Tree, guard: t.Node): t.Node {
  let node = guard;
  for (let p = tree.parent.get(node); p; node = p, p = tree.parent.get(p)) {
    if (p.type === "LogicalExpression" || (p.type === "UnaryExpression" && p.operator === "!")) continue;
    if ((p.type === "IfStatement" || p.type === "ConditionalExpression") && p.test === node) return p;
    return node;
  }
  return node;
}

/**
 * key-without-identity: (1) a class/object with an equality member loses its key member; (2) a Map/Set keyed
 * by a one-value key derivation is keyed by the value itself.
 */
export function keysWithoutIdentity(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  for (const n of tree.nodes) {
    const members =
      n.type === "ObjectExpression" ? n.properties : n.type === "ClassBody" ? n.body : undefined;
    if (!members) continue;
    const named = members.map((m) => {
      const key = "key" in m ? (m.key as t.Node) : undefined;
      return key ? memberName(key, "computed" in m ? Boolean(m.computed) : false) : undefined;
    });
    const equality = named.findIndex((x) => x !== undefined && EQUALITY_NAMES.has(x));
    if (equality < 0) continue;
    named.forEach((name, i) => {
      if (!name || !(KEY_NAMES.has(name) || name === "@@toPrimitive")) return;
      const edit = removeMember(tree, members, i);
      out.push({
        type: "key-without-identity",
        // The site belongs to the equality member that is kept (the code a test reaches); the removal is beside it.
        anchor: { start: start(members[equality]!), end: end(members[equality]!) },
        editScope: { start: start(n), end: end(n) },
        edits: [edit],
        summary: `removed \`${display(name)}\` but kept the equality member`,
      });
    });
  }
  for (const { call, keyArg } of mapKeyCalls(tree)) {
    const base = singleValueOfKey(keyArg);
    if (!base) continue;
    out.push({
      type: "key-without-identity",
      anchor: { start: start(call), end: end(call) },
      edits: [{ start: start(keyArg), end: end(keyArg), text: src(tree, base) }],
      summary: `\`${shorten(src(tree, keyArg))}\` → \`${shorten(src(tree, base))}\` as the key`,
    });
  }
  return out;
}

/** Splice removing member `i` of an object literal or class body: its whole lines when it stands alone on them. */
function removeMember(tree: Tree, members: readonly t.Node[], i: number): Splice {
  const { text } = tree;
  const m = members[i]!;
  let stop = end(m);
  while (stop < text.length && (text[stop] === " " || text[stop] === "\t")) stop++;
  if (text[stop] === "," || text[stop] === ";") stop++;
  else stop = end(m);
  const lineStart = text.lastIndexOf("\n", start(m) - 1) + 1;
  const lineEnd = text.indexOf("\n", stop);
  if (
    lineEnd >= 0 &&
    text.slice(lineStart, start(m)).trim() === "" &&
    text.slice(stop, lineEnd).trim() === ""
  )
    return { start: lineStart, end: lineEnd + 1, text: "" };
  if (i < members.length - 1) return { start: start(m), end: start(members[i + 1]!), text: "" };
  return { start: i > 0 ? end(members[i - 1]!) : start(m), end: end(m), text: "" };
}

/** Calls get/set/has/add/delete on receivers declared `new Map|Set|WeakMap|WeakSet()` in the file. */
function mapKeyCalls(tree: Tree): { call: t.CallExpression; receiver: string; keyArg: t.Node }[] {
  const maps = new Set<string>();
  for (const n of tree.nodes) {
    const isNewMap = (x: t.Node | null | undefined) =>
      x?.type === "NewExpression" &&
      x.callee.type === "Identifier" &&
      /^(Weak)?(Map|Set)$/.test(x.callee.name);
    if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && isNewMap(n.init))
      maps.add(n.id.name);
    if (n.type === "AssignmentExpression" && isNewMap(n.right)) maps.add(norm(src(tree, n.left)));
    if (n.type === "ClassProperty" && n.key.type === "Identifier" && isNewMap(n.value))
      maps.add(`this.${n.key.name}`);
  }
  const out: { call: t.CallExpression; receiver: string; keyArg: t.Node }[] = [];
  for (const n of tree.nodes) {
    if (n.type !== "CallExpression" || n.callee.type !== "MemberExpression") continue;
    const method = memberName(n.callee.property, n.callee.computed);
    const receiver = norm(src(tree, n.callee.object));
    const keyArg = n.arguments[0];
    if (!method || !["get", "set", "has", "add", "delete"].includes(method) || !maps.has(receiver) || !keyArg)
      continue;
    out.push({ call: n, receiver, keyArg });
  }
  return out;
}

/** `JSON.stringify(x)`, `String(x)`, `` `${x}` ``, `keyOf(x)` → x. */
function singleValueOfKey(k: t.Node): t.Node | undefined {
  if (k.type === "TemplateLiteral" && k.expressions.length === 1 && k.quasis.every((q) => q.value.raw === ""))
    return k.expressions[0];
  if (k.type !== "CallExpression" || k.arguments.length !== 1 || k.arguments[0]!.type === "SpreadElement")
    return undefined;
  const c = k.callee;
  const name =
    c.type === "Identifier"
      ? c.name
      : c.type === "MemberExpression" && !c.computed && c.property.type === "Identifier"
        ? `${c.object.type === "Identifier" ? c.object.name : ""}.${c.property.name}`
        : "";
  if (name === "JSON.stringify" || name === "String" || /(key|hash|id)(of|for)?$/i.test(name))
    return k.arguments[0];
  return undefined;
}

/**
 * inconsistent-key-identity: one conjunct dropped from an equality predicate, or one field dropped from a
 * multi-field Map/Set key at one call site while another call site on the receiver keeps it.
 */
export function inconsistentKeys(tree: Tree): Mutation[] {
  const out: Mutation[] = [];
  for (const n of tree.nodes) {
    if (!isFunctionNode(n)) continue;
    const name = functionNameOf(tree, n);
    if (!name || !/^(equals|isEqual|eq|same\w*|is\w*Equal\w*)$/.test(name)) continue;
    const returned: t.Node[] = [];
    if (n.body.type !== "BlockStatement") returned.push(n.body);
    else
      for (const s of n.body.body) if (s.type === "ReturnStatement" && s.argument) returned.push(s.argument);
    for (const r of returned) {
      const ops = flattenLogical(r, "&&");
      if (ops.length < 2 || !ops.every((o) => o.type === "BinaryExpression" && COMPARISONS.has(o.operator)))
        continue;
      ops.forEach((o, i) => {
        out.push({
          type: "inconsistent-key-identity",
          anchor: { start: start(o), end: end(o) },
          edits: [removeOperand(tree, ops, i)],
          summary: `\`${name}\` no longer compares \`${shorten(src(tree, o), 32)}\``,
        });
      });
    }
  }
  const calls = mapKeyCalls(tree);
  for (const { call, receiver, keyArg } of calls) {
    const keyText = norm(src(tree, keyArg));
    if (
      !calls.some((c) => c.call !== call && c.receiver === receiver && norm(src(tree, c.keyArg)) === keyText)
    )
      continue;
    const fields = keyFields(tree, keyArg);
    fields.forEach((drop, i) => {
      out.push({
        type: "inconsistent-key-identity",
        anchor: { start: start(call), end: end(call) },
        edits: [drop],
        summary: `one key field dropped at \`${shorten(src(tree, call), 40)}\` (field ${i + 1})`,
      });
    });
  }
  return out;
}

/** For a template with ≥2 expressions or `[a, b].join(s)`: one splice per droppable field. */
function keyFields(tree: Tree, k: t.Node): Splice[] {
  if (k.type === "TemplateLiteral" && k.expressions.length >= 2) {
    // Field i ≥ 1 goes with the separator before it; field 0 with the separator after it.
    return k.expressions.map((e, i) => {
      const close = tree.text.indexOf("}", end(e)) + 1;
      if (i > 0) return { start: start(k.quasis[i]!), end: close, text: "" };
      return { start: tree.text.lastIndexOf("${", start(e)), end: end(k.quasis[1]!), text: "" };
    });
  }
  if (
    k.type === "CallExpression" &&
    k.callee.type === "MemberExpression" &&
    memberName(k.callee.property, k.callee.computed) === "join" &&
    k.callee.object.type === "ArrayExpression" &&
    k.callee.object.elements.length >= 2
  ) {
    const elements = k.callee.object.elements.filter((e): e is NonNullable<typeof e> => e !== null);
    return elements.map((_, i) => removeOperand(tree, elements, i));
  }
  return [];
}

function functionNameOf(tree: Tree, fn: t.Function): string | undefined {
  if ((fn.type === "FunctionDeclaration" || fn.type === "FunctionExpression") && fn.id) return fn.id.name;
  if (fn.type === "ObjectMethod" || fn.type === "ClassMethod") return memberName(fn.key, fn.computed);
  const p = tree.parent.get(fn);
  if (p?.type === "VariableDeclarator" && p.id.type === "Identifier") return p.id.name;
  if ((p?.type === "ObjectProperty" || p?.type === "ClassProperty") && "key" in p)
    return memberName(p.key, p.computed);
  return undefined;
}
