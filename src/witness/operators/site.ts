import { createHash } from "node:crypto";
import traverseImport, { type Binding, type NodePath, type Scope } from "@babel/traverse";
import type * as t from "@babel/types";
import { parseSource } from "../functions.ts";
import type { Span } from "../types.ts";

/**
 * What the transformation operators share: the bug site located in a Babel tree with scopes, the checks that
 * decide whether an expression may move into a local arrow defined just before its statement, fresh names, and
 * `compose`, which rebuilds the text from kept, moved and new pieces and says where the site's bytes ended up.
 * Operators never regenerate code: every byte they do not add is copied from the input text.
 */

/** @babel/traverse is CommonJS; under Node's ESM loader the default import is the module object. */
type Traverse = typeof traverseImport.default;
export const traverse: Traverse =
  (traverseImport as unknown as { default?: Traverse }).default ?? (traverseImport as unknown as Traverse);

/** The bug site found in a freshly parsed file. */
export interface Site {
  file: string;
  text: string;
  /** True for TypeScript sources (operators add type annotations there). */
  ts: boolean;
  ast: t.File;
  span: Span;
  /** The innermost node whose range holds the whole site. */
  covering: NodePath;
}

export const start = (n: t.Node | NodePath): number => ("node" in n ? n.node.start : n.start) ?? 0;
export const end = (n: t.Node | NodePath): number => ("node" in n ? n.node.end : n.end) ?? 0;

/** True when `inner` lies within `outer` (inclusive bounds). */
export function within(inner: Span | NodePath, outer: Span | NodePath): boolean {
  const a = "node" in inner ? { start: start(inner), end: end(inner) } : inner;
  const b = "node" in outer ? { start: start(outer), end: end(outer) } : outer;
  return b.start <= a.start && a.end <= b.end;
}

/** True when the node's range and the span share at least one character (or the node holds an empty span). */
export function overlaps(p: NodePath, span: Span): boolean {
  if (span.start === span.end) return start(p) < span.start && span.start < end(p);
  return start(p) < span.end && span.start < end(p);
}

/** Parse `text` and find the innermost node holding `span`; undefined when it does not parse or is out of range. */
export function locate(file: string, text: string, span: Span): Site | undefined {
  if (span.start < 0 || span.end > text.length || span.start > span.end) return undefined;
  let ast: t.File;
  try {
    ast = parseSource(file, text);
  } catch {
    return undefined;
  }
  let covering: NodePath | undefined;
  traverse(ast, {
    enter(path) {
      if (within(span, path)) covering = path;
      else path.skip();
    },
  });
  if (!covering) return undefined;
  return { file, text, ts: /\.[cm]?tsx?$/.test(file), ast, span, covering };
}

/** True for an expression whose value is read where it stands, so `(() => E)()` could replace it. */
export function isRvalue(p: NodePath): boolean {
  if (!p.isExpression()) return false;
  const parent = p.parentPath;
  if (!parent) return false;
  const key = p.key;
  const pn = parent.node as unknown as { computed?: boolean; operator?: string };
  if (p.isIdentifier() && !p.isReferencedIdentifier()) return false;
  if (
    (parent.isCallExpression() || parent.isNewExpression() || parent.isOptionalCallExpression()) &&
    key === "callee"
  )
    return false;
  if (parent.isOptionalMemberExpression() && key === "object") return false;
  if (parent.isTaggedTemplateExpression() && key === "tag") return false;
  if ((parent.isAssignmentExpression() || parent.isForXStatement()) && key === "left") return false;
  if (parent.isUpdateExpression() || parent.isMetaProperty() || parent.isDecorator()) return false;
  if (parent.isUnaryExpression() && pn.operator === "delete") return false;
  if (parent.isPattern() || parent.isRestElement() || parent.parentPath?.isObjectPattern()) return false;
  if (key === "key" && !pn.computed) return false;
  if (parent.isMemberExpression() && key === "property" && !pn.computed) return false;
  if (parent.isJSXElement() || parent.isJSXFragment() || parent.isImportDeclaration()) return false;
  if (parent.isExportDeclaration() || parent.isImportExpression()) return false;
  const tsExpression = /^TS(As|Satisfies|NonNull|TypeAssertion|Instantiation)Expression$/;
  if (parent.node.type.startsWith("TS") && !tsExpression.test(parent.node.type)) return false;
  return true;
}

/** The innermost rvalue expression holding the site, below the first statement; undefined when there is none. */
export function siteExpression(s: Site): NodePath<t.Expression> | undefined {
  for (let p: NodePath | null = s.covering; p && !p.isStatement(); p = p.parentPath) {
    if (p.isExpression() && isRvalue(p)) return p;
  }
  return undefined;
}

/** The nearest ancestor-or-self that is an item of a statement list (program, block, switch case, static block). */
export function listStatement(p: NodePath): NodePath<t.Statement> | undefined {
  for (let q: NodePath | null = p; q; q = q.parentPath) {
    if (q.isStatement() && q.inList && (q.listKey === "body" || q.listKey === "consequent")) {
      const owner = q.parentPath;
      if (owner?.isBlockStatement() || owner?.isProgram() || owner?.isSwitchCase() || owner?.isStaticBlock())
        return q;
      if (owner?.node.type === "TSModuleBlock") return q;
    }
  }
  return undefined;
}

/** The scope a declaration inserted right before `stmt` (an item of a statement list) would be in. */
export function scopeBefore(stmt: NodePath): Scope {
  return (stmt.parentPath ?? stmt).scope;
}

/** The function (or program) whose own code holds `p`. */
export function ownerFunction(p: NodePath): NodePath {
  return (p.getFunctionParent() as NodePath | null) ?? (p.findParent((q) => q.isProgram()) as NodePath);
}

/** Every referenced identifier inside `p` (itself included), in source order. */
export function references(p: NodePath): NodePath<t.Identifier>[] {
  const out: NodePath<t.Identifier>[] = [];
  if (p.isIdentifier() && p.isReferencedIdentifier()) out.push(p);
  p.traverse({
    ReferencedIdentifier(q) {
      if (q.isIdentifier()) out.push(q);
    },
  });
  return out;
}

/** The first node at or below `p` that matches, if any. */
function findInside(p: NodePath, match: (q: NodePath) => boolean): NodePath | undefined {
  if (match(p)) return p;
  let found: NodePath | undefined;
  p.traverse({
    enter(q) {
      if (match(q)) {
        found = q;
        q.stop();
      }
    },
  });
  return found;
}

/** An `await` or `yield` of the code holding `p` (not of a function nested in it). */
export function suspends(p: NodePath): boolean {
  return !!findInside(
    p,
    (q) =>
      (q.isAwaitExpression() || q.isYieldExpression()) && ownerFunction(q).node === ownerFunction(p).node,
  );
}

/**
 * Syntactically free of side effects: no call, `new`, assignment, update, `delete`, `await`, `yield`, tagged
 * template or dynamic import (property reads and creating functions count as pure; getters are not modelled).
 */
export function isPure(p: NodePath): boolean {
  const effect = (q: NodePath): boolean =>
    q.isCallExpression() ||
    q.isOptionalCallExpression() ||
    q.isNewExpression() ||
    q.isAssignmentExpression() ||
    q.isUpdateExpression() ||
    q.isAwaitExpression() ||
    q.isYieldExpression() ||
    q.isTaggedTemplateExpression() ||
    q.isImport() ||
    (q.isUnaryExpression() && q.node.operator === "delete");
  if (effect(p)) return false;
  let pure = true;
  p.traverse({
    Function(q) {
      q.skip();
    },
    enter(q) {
      if (effect(q)) {
        pure = false;
        q.stop();
      }
    },
  });
  return pure;
}

/**
 * Why `expr` cannot move into an arrow declared right before `stmt` (its statement-list ancestor), or undefined
 * when it can: a function, class field or static block between them (their `this`, parameters or `arguments`
 * differ), an `await`/`yield`, or a free identifier that would resolve to another binding there.
 */
export function unmovable(expr: NodePath, stmt: NodePath): string | undefined {
  for (let q = expr.parentPath; q && q !== stmt; q = q.parentPath) {
    if (q.isFunction() || q.isStaticBlock() || q.isClassProperty() || q.isClassPrivateProperty())
      return "the site is inside a function or class member that starts below its statement";
  }
  if (suspends(expr)) return "the site's expression holds await or yield";
  const at = scopeBefore(stmt);
  for (const ref of references(expr)) {
    const binding = ref.scope.getBinding(ref.node.name);
    if (binding && within(binding.path, expr)) continue;
    if (at.getBinding(ref.node.name) !== binding)
      return `\`${ref.node.name}\` is not visible before the statement`;
  }
  return undefined;
}

/** True when reading `binding` before `stmt` runs can neither throw (TDZ) nor see another value than at `stmt`. */
export function initializedBefore(binding: Binding, stmt: NodePath): boolean {
  if (["var", "param", "hoisted", "module"].includes(binding.kind)) return true;
  if (binding.path.parentPath?.parentPath?.isSwitchCase()) return false;
  return end(binding.path) <= start(stmt) && ownerFunction(binding.path).node === ownerFunction(stmt).node;
}

/** A piece of output: new text, or a range of the input text copied (kept or moved) verbatim. */
export type Part = string | Span;

/** Replace `[start, end)` of the input by `parts` (an insertion when start === end). */
export interface Edit extends Span {
  parts: Part[];
}

/**
 * Apply non-overlapping edits and find the site's bytes in the result: the first copied range holding the
 * whole site. @throws Error when the edits overlap or drop the site (an operator bug, not a user error).
 */
export function compose(text: string, edits: readonly Edit[], site: Span): { text: string; site: Span } {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: Part[] = [];
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) throw new Error(`overlapping edits at ${e.start}`);
    if (e.start > at) parts.push({ start: at, end: e.start });
    parts.push(...e.parts);
    at = e.end;
  }
  if (at < text.length) parts.push({ start: at, end: text.length });
  let out = "";
  let moved: Span | undefined;
  for (const p of parts) {
    if (typeof p === "string") out += p;
    else {
      if (!moved && p.start <= site.start && site.end <= p.end) {
        const offset = out.length + site.start - p.start;
        moved = { start: offset, end: offset + site.end - site.start };
      }
      out += text.slice(p.start, p.end);
    }
  }
  if (!moved) throw new Error("the edits dropped the bug site");
  return { text: out, site: moved };
}

/** Copy of the input range of a node. */
export const rangeOf = (p: NodePath | t.Node): Span => ({ start: start(p), end: end(p) });

/** The whitespace that starts `pos`'s line, and whether only whitespace precedes `pos` on it. */
export function indentAt(text: string, pos: number): { indent: string; lineStart: boolean } {
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  const before = text.slice(lineStart, pos);
  const indent = /^[ \t]*/.exec(before)?.[0] ?? "";
  return { indent, lineStart: indent.length === before.length };
}

/** One indentation level of the file: a tab when lines start with tabs, else two spaces. */
export function indentUnit(text: string): string {
  const tabs = (text.match(/^\t/gm) ?? []).length;
  const spaces = (text.match(/^ {2}/gm) ?? []).length;
  return tabs > spaces ? "\t" : "  ";
}

/**
 * An insertion of a declaration (new text and copied ranges; new text may hold line breaks) right before the
 * statement starting at `pos`, on its own line with the statement's indentation.
 */
export function declareBefore(text: string, pos: number, declaration: Part[]): Edit {
  const { indent, lineStart } = indentAt(text, pos);
  const parts = declaration.map((p) => (typeof p === "string" ? p.split("\n").join(`\n${indent}`) : p));
  parts.push(lineStart ? `\n${indent}` : " ");
  return { start: pos, end: pos, parts };
}

/**
 * A block body `{ return E; }` for an arrow holding the site: a later operator then finds the site in a
 * statement of the arrow's own body (an expression body would put a function boundary between them).
 */
export function returnBody(text: string, p: NodePath): Part[] {
  return [`{\n${indentUnit(text)}return `, rangeOf(p), ";\n}"];
}

/** `(E)` when an arrow body or a ternary branch needs the parentheses (object literal, sequence), else `E`. */
export function bodyOf(p: NodePath): Part[] {
  const r = rangeOf(p);
  return p.isObjectExpression() || p.isSequenceExpression() ? ["(", r, ")"] : [r];
}

/** A deterministic number from a salt and a label. */
export function hashOf(...keys: string[]): number {
  return createHash("sha256").update(keys.join("\u0000")).digest().readUInt32BE(0);
}

/** A deterministic choice among `items` for this salt. */
export function pick<T>(items: readonly T[], salt: string, label = ""): T {
  return items[hashOf(salt, label) % items.length] as T;
}

/** `base`, else `base2`, `base3`… — the first that is no identifier-like word of `text` (nor of `taken`). */
export function freshName(text: string, base: string, taken: readonly string[] = []): string {
  const used = new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
  for (const n of taken) used.add(n);
  for (let i = 1; ; i++) {
    const name = i === 1 ? base : `${base}${i}`;
    if (!used.has(name)) return name;
  }
}

/** A CamelCase topic for helper names from the identifiers and property names of a node ("FlagsBools"). */
export function topicOf(p: NodePath, fallback = "Value"): string {
  const words: string[] = [];
  const add = (name: string) => {
    const w = name.replace(/^[_$]+/, "");
    const word = w.charAt(0).toUpperCase() + w.slice(1);
    if (w.length > 1 && !words.includes(word) && words.length < 2) words.push(word);
  };
  if (p.isIdentifier()) add(p.node.name);
  p.traverse({
    Identifier(q) {
      add(q.node.name);
    },
  });
  return words.join("") || fallback;
}

/** A name built from `verbs` (chosen by salt) and the site's topic, fresh in `text` (and unlike `taken`). */
export function helperName(
  text: string,
  salt: string,
  verbs: readonly string[],
  topic: string,
  taken: readonly string[] = [],
): string {
  return freshName(text, `${pick(verbs, salt, "verb")}${topic}`, taken);
}

/**
 * The site's expression and the statement it sits in, when the expression may move before that statement
 * (see {@link unmovable}); undefined otherwise. Shared by the Call Stack and Data Flow operators.
 */
export function movableSite(input: { file: string; text: string; site: Span }) {
  const site = locate(input.file, input.text, input.site);
  const expr = site && siteExpression(site);
  const stmt = expr && listStatement(expr);
  if (!site || !expr || !stmt || unmovable(expr, stmt)) return undefined;
  return { site, expr, stmt };
}
