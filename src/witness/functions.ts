import { type ParserPlugin, parse } from "@babel/parser";
import type * as t from "@babel/types";
import { InputError } from "../core/errors.ts";
import type { SourceFunction } from "./types.ts";

/**
 * The function table of a JS/TS source file, from Babel's parser: what the contexts stage maps V8 coverage
 * onto, and what injection and transformation use to stay inside test-reached functions. Offsets are UTF-16
 * indexes into the text, the same unit as V8 coverage ranges.
 */

/** Extensions Gauntlet parses as production code. */
export const SOURCE_EXTENSIONS = [".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx"] as const;

/**
 * Parse JS or TS (by extension) into a Babel AST with token positions; module or script is detected.
 * @throws InputError naming the file, line and column when the text does not parse
 */
export function parseSource(file: string, text: string): t.File {
  const ts = /\.[cm]?tsx?$/.test(file);
  const plugins: ParserPlugin[] = ts ? ["typescript"] : [];
  if (/\.[jt]sx$/.test(file) || (!ts && /\.jsx?$/.test(file))) plugins.push("jsx");
  try {
    return parse(text, {
      sourceType: "unambiguous",
      allowReturnOutsideFunction: true,
      errorRecovery: false,
      plugins,
    });
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    throw new InputError(
      { file, line: loc?.line },
      `cannot parse ${file}${loc ? ` at ${loc.line}:${loc.column + 1}` : ""}: ${(error as Error).message}`,
      "only JavaScript and TypeScript sources are supported",
    );
  }
}

/** True when `text` parses as the file's language (the "does it still compile" check after an edit). */
export function parses(file: string, text: string): boolean {
  try {
    parseSource(file, text);
    return true;
  } catch {
    return false;
  }
}

/** Every function node of a file (declarations, expressions, arrows, methods), in source order. */
export function listFunctions(
  file: string,
  text: string,
  ast: t.File = parseSource(file, text),
): SourceFunction[] {
  const out: SourceFunction[] = [];
  const visit = (node: t.Node, parent: t.Node | undefined): void => {
    if (isFunctionNode(node) && node.start != null && node.end != null && node.loc) {
      const name = functionName(node, parent);
      const line = node.loc.start.line;
      out.push({
        id: `${file}#${name}@${line}`,
        file,
        name,
        line,
        column: node.loc.start.column,
        start: node.start,
        end: node.end,
      });
    }
    for (const child of children(node)) visit(child, node);
  };
  visit(ast.program, undefined);
  out.sort((a, b) => a.start - b.start);
  return out;
}

/** The innermost function whose range holds `[start, end)`, or undefined (top-level code). */
export function enclosingFunction(
  functions: readonly SourceFunction[],
  start: number,
  end: number = start,
): SourceFunction | undefined {
  let best: SourceFunction | undefined;
  for (const f of functions) {
    if (f.start <= start && end <= f.end && (!best || f.end - f.start < best.end - best.start)) best = f;
  }
  return best;
}

const FUNCTION_TYPES = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ObjectMethod",
  "ClassMethod",
  "ClassPrivateMethod",
]);

/** Whether a node is a function with a body (TS overload signatures and declare functions are not). */
export function isFunctionNode(node: t.Node): node is t.Function {
  if (!FUNCTION_TYPES.has(node.type)) return false;
  return (node as { body?: unknown }).body != null;
}

function functionName(node: t.Function, parent: t.Node | undefined): string {
  const keyName = (key: t.Node): string | undefined => {
    if (key.type === "Identifier") return key.name;
    if (key.type === "StringLiteral") return key.value;
    if (key.type === "PrivateName") return `#${key.id.name}`;
    return undefined;
  };
  if ((node.type === "FunctionDeclaration" || node.type === "FunctionExpression") && node.id)
    return node.id.name;
  if (node.type === "ObjectMethod" || node.type === "ClassMethod" || node.type === "ClassPrivateMethod")
    return keyName(node.key) ?? "<computed>";
  if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") return parent.id.name;
  if ((parent?.type === "ObjectProperty" || parent?.type === "ClassProperty") && !parent.computed)
    return keyName(parent.key) ?? "<anonymous>";
  if (parent?.type === "AssignmentExpression") {
    const left = parent.left;
    if (left.type === "Identifier") return left.name;
    if (left.type === "MemberExpression" && !left.computed && left.property.type === "Identifier")
      return left.object.type === "Identifier"
        ? `${left.object.name}.${left.property.name}`
        : left.property.name;
  }
  return "<anonymous>";
}

/** The child nodes of `node`, in source order (generic: every own field holding nodes). */
export function children(node: t.Node): t.Node[] {
  const out: t.Node[] = [];
  for (const key of Object.keys(node)) {
    if (key === "loc" || key === "leadingComments" || key === "trailingComments" || key === "innerComments")
      continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const v of value) if (isNode(v)) out.push(v);
    } else if (isNode(value)) out.push(value);
  }
  return out.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}

function isNode(value: unknown): value is t.Node {
  return (
    typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
  );
}
