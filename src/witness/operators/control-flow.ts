import type { Binding, NodePath } from "@babel/traverse";
import { parseSource } from "../functions.ts";
import type { OperatorInput, OperatorResult, TransformOperator } from "../transform.ts";
import {
  compose,
  type Edit,
  end,
  indentAt,
  indentUnit,
  isRvalue,
  listStatement,
  locate,
  ownerFunction,
  type Part,
  references,
  start,
  traverse,
} from "./site.ts";

/**
 * Rare Input Path Conditioning (WitnessGym Table 6, Control Flow). Mutation is a substitution clean → buggy, so
 * the honest conditioning is Stryker's mutant schema with a data predicate instead of a global switch:
 * `pred ? buggy : clean`. Without the clean text the operator does not apply (duplicating the buggy code under
 * both branches would restrict nothing).
 */

/** Predicate variants; the chain tries them in order until the caller's witness check still fails. */
const VARIANTS = 6;

/** Locals that can be read where the predicate runs (before `at`, in the scope `scopeNode`), in site order. */
function liveLocals(from: NodePath[], scopeNode: NodePath, at: number): string[] {
  const names: string[] = [];
  for (const ref of from.flatMap((p) => references(p))) {
    const name = ref.node.name;
    const binding: Binding | undefined = ref.scope.getBinding(name);
    if (!binding || names.includes(name) || !["var", "let", "const", "param"].includes(binding.kind))
      continue;
    if (scopeNode.scope.getBinding(name) !== binding) continue;
    const lexical = binding.kind === "let" || binding.kind === "const";
    const sameFunction = ownerFunction(binding.path).node === ownerFunction(scopeNode).node;
    if (
      lexical &&
      (end(binding.path) > at || !sameFunction || binding.path.parentPath?.parentPath?.isSwitchCase())
    )
      continue;
    names.push(name);
    if (names.length === 3) break;
  }
  return names;
}

/**
 * The predicate of a variant over live locals `[x, y, z]`, rarest first: variants 0–4 test that `x` is a string,
 * number, boolean, non-null object or array (and the others are set); variant 5 only that all are set.
 */
function predicate(names: string[], variant: number, arrayBound: boolean): string | undefined {
  const [x, ...rest] = names;
  if (!x || variant >= VARIANTS || (variant === 4 && arrayBound)) return undefined;
  const first = [
    `typeof ${x} === "string"`,
    `typeof ${x} === "number"`,
    `typeof ${x} === "boolean"`,
    `typeof ${x} === "object" && ${x} !== null`,
    `Array.isArray(${x})`,
    `${x} != null`,
  ][variant];
  return [first, ...rest.map((n) => `${n} != null`)].join(" && ");
}

const LEXICAL = /^(ClassDeclaration|FunctionDeclaration|Import\w*|Export\w*|TS\w+)$/;

/** True when a statement would change meaning inside a new block (a lexical or module declaration). */
const lexicalStatement = (type: string, kind?: string): boolean =>
  LEXICAL.test(type) || (type === "VariableDeclaration" && kind !== "var");

/**
 * Rare Input Path Conditioning: with `pred` a conjunction over locals live at the site (variants 0–4: the first is a
 * string, number, boolean, object or array and the rest are set; variant 5: all are set; the chain keeps the
 * first, i.e. rarest, variant under which the witness still fails):
 * an expression site becomes `(pred ? (buggy) : (clean))`; a site made of whole statements (or an empty site
 * between statements, a deletion) becomes `if (pred) {buggy} else {clean}`; any other site duplicates its
 * statement `S` as `if (pred) { S } else { S[clean] }`. Lexical declarations are refused (blocks would scope
 * them). The predicate reads only initialised locals, so it cannot throw.
 */
export const rareInputPathConditioning: TransformOperator = {
  id: "rare-input-path-conditioning",
  family: "control-flow",
  title: "Rare Input Path Conditioning",
  description:
    "Guards the bug with a deterministic predicate over values live at the site: the buggy code runs when it holds and the clean code otherwise, so only inputs meeting it (the witness's) expose the bug.",
  variants: VARIANTS,
  apply(input: OperatorInput): OperatorResult | undefined {
    const { clean, text } = input;
    const site = clean === undefined ? undefined : locate(input.file, text, input.site);
    if (!site || clean === undefined) return undefined;
    const node = site.covering;
    const exact = start(node) === input.site.start && end(node) === input.site.end;
    const siteRange = { ...input.site };
    const arrayBound = !!node.scope.getBinding("Array");
    let edit: Edit;
    let pred: string | undefined;
    if (exact && node.isExpression() && isRvalue(node)) {
      const stmt = listStatement(node);
      pred = predicate(
        liveLocals(stmt ? [node, stmt] : [node], node, input.site.start),
        input.variant ?? 0,
        arrayBound,
      );
      if (!pred) return undefined;
      edit = { ...siteRange, parts: [`(${pred} ? (`, siteRange, `) : (${clean}))`] };
    } else if ((exact && node.isStatement() && node.inList) || isListOwner(node)) {
      const scopeNode = isListOwner(node) ? node : node.parentPath!;
      const from = isListOwner(node) ? nearby(node, input.site) : [node];
      pred = predicate(liveLocals(from, scopeNode, input.site.start), input.variant ?? 0, arrayBound);
      if (!pred) return undefined;
      edit = { ...siteRange, parts: [`if (${pred}) {`, siteRange, `} else {${clean}}`] };
    } else {
      const stmt = listStatement(node);
      if (!stmt) return undefined;
      const kind = stmt.isVariableDeclaration() ? stmt.node.kind : undefined;
      if (lexicalStatement(stmt.node.type, kind)) return undefined;
      pred = predicate(
        liveLocals([node, stmt], stmt.parentPath!, start(stmt)),
        input.variant ?? 0,
        arrayBound,
      );
      if (!pred) return undefined;
      const { indent } = indentAt(text, start(stmt));
      const inner = `\n${indent}${indentUnit(text)}`;
      const withClean: Part[] = [
        { start: start(stmt), end: input.site.start },
        clean,
        { start: input.site.end, end: end(stmt) },
      ];
      edit = {
        start: start(stmt),
        end: end(stmt),
        parts: [
          `if (${pred}) {${inner}`,
          { start: start(stmt), end: end(stmt) },
          `\n${indent}} else {${inner}`,
          ...withClean,
          `\n${indent}}`,
        ],
      };
    }
    const result = compose(text, [edit], input.site);
    if (!blocksHoldNoDeclarations(input.file, result.text, edit.start)) return undefined;
    return { ...result, summary: `the bug now runs only when \`${pred}\` (else the clean code)` };
  },
};

function isListOwner(p: NodePath): boolean {
  return p.isBlockStatement() || p.isProgram() || p.isSwitchCase() || p.isStaticBlock();
}

/** Statements of a list owner inside a span and the ones right before and after it, to draw locals from. */
function nearby(owner: NodePath, span: { start: number; end: number }): NodePath[] {
  const items = owner.get(owner.isSwitchCase() ? "consequent" : "body") as NodePath[];
  const before = items.filter((s) => end(s) <= span.start).pop();
  const after = items.find((s) => start(s) >= span.end);
  const inside = items.filter((s) => start(s) >= span.start && end(s) <= span.end);
  return [...inside, ...(before ? [before] : []), ...(after ? [after] : [])];
}

/** True when the `if` the operator wrote at `at` parses and neither of its blocks starts a lexical declaration. */
function blocksHoldNoDeclarations(file: string, text: string, at: number): boolean {
  let ok = true;
  try {
    traverse(parseSource(file, text), {
      IfStatement(p) {
        if (start(p) !== at) return;
        for (const branch of [p.get("consequent"), p.get("alternate")]) {
          if (!branch.isBlockStatement()) continue;
          for (const s of branch.node.body)
            if (lexicalStatement(s.type, s.type === "VariableDeclaration" ? s.kind : undefined)) ok = false;
        }
        p.stop();
      },
    });
  } catch {
    return false;
  }
  return ok;
}
