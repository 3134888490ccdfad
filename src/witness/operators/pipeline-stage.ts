import type { NodePath } from "@babel/traverse";
import type { OperatorInput, OperatorResult, TransformOperator } from "../transform.ts";
import {
  compose,
  end,
  helperName,
  indentAt,
  indentUnit,
  listStatement,
  locate,
  ownerFunction,
  start,
  topicOf,
  within,
} from "./site.ts";

/**
 * Pipeline Stage Split (WitnessGym Table 6, Data Flow): a run of consecutive statements around the bug becomes
 * two ordered stage arrows that run one after the other.
 */

const DECLARATION_ONLY = /^(Import|Export\w*|TS\w+|Declare\w*)Declaration$|^TS/;

/** Why a statement cannot run inside an arrow, or undefined: return, jumps out, await/yield, module syntax. */
function blocker(stmt: NodePath, stage: NodePath[]): string | undefined {
  if (DECLARATION_ONLY.test(stmt.node.type)) return "module or type declaration";
  const owner = ownerFunction(stmt).node;
  const inStage = (p: NodePath) => stage.some((s) => within(p, s));
  let reason: string | undefined;
  const visit = (p: NodePath) => {
    if (ownerFunction(p).node !== owner && !p.isFunction()) return;
    if (p.isReturnStatement()) reason = "return";
    else if (p.isAwaitExpression() || p.isYieldExpression()) reason = "await or yield";
    else if (p.isBreakStatement() || p.isContinueStatement()) {
      const label = p.node.label?.name;
      const target = p.findParent((q) =>
        label
          ? q.isLabeledStatement() && q.node.label.name === label
          : q.isLoop() || (p.isBreakStatement() && q.isSwitchStatement()),
      );
      if (!target || !inStage(target)) reason = "a jump out of the stage";
    }
  };
  visit(stmt);
  stmt.traverse({
    Function(q) {
      q.skip();
    },
    enter(q) {
      visit(q);
      if (reason) q.stop();
    },
  });
  return reason;
}

/**
 * Why the names a stage declares would break once the stage is an arrow: a binding used outside the stage, or a
 * `var` whose list runs more than once per call of its function (an arrow starts it fresh each time).
 */
function leaks(stage: NodePath[]): string | undefined {
  const inStage = (p: NodePath) => stage.some((s) => within(p, s));
  const owner = ownerFunction(stage[0]!);
  const inLoop = !!stage[0]!.findParent((q) => q.isLoop() && within(q, owner) && q !== owner);
  let reason: string | undefined;
  for (const s of stage) {
    const ids = s.isDeclaration() ? Object.keys(s.getOuterBindingIdentifiers()) : [];
    const vars: string[] = [];
    s.traverse({
      Function(q) {
        q.skip();
      },
      VariableDeclaration(q) {
        if (q.node.kind === "var") vars.push(...Object.keys(q.getBindingIdentifiers()));
      },
    });
    for (const name of [...ids, ...vars]) {
      const binding = s.scope.getBinding(name);
      if (!binding) continue;
      const uses = [binding.path, ...binding.referencePaths, ...binding.constantViolations];
      if (!uses.every(inStage)) reason = `\`${name}\` is used outside the stage`;
      else if (binding.kind === "var" && inLoop) reason = `\`${name}\` is a var in a loop`;
    }
  }
  return reason;
}

/**
 * Pipeline Stage Split: in the innermost statement list around the site that allows it, the maximal run of
 * movable statements around the site's statement becomes `const prepareX = () => { …first part… };`,
 * `const applyX = () => { …part with the site… };`, `prepareX();` and `applyX();` (statements copied verbatim).
 * Refused for statements with `return`, jumps out of the run, `await`/`yield`, module syntax, or declarations
 * used outside their stage; arrows keep `this` and `arguments`.
 */
export const pipelineStageSplit: TransformOperator = {
  id: "pipeline-stage-split",
  family: "data-flow",
  title: "Pipeline Stage Split",
  description:
    "Splits the statements around the bug into two ordered local stage functions called in sequence, so the bug sits inside a staged processing pipeline.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const site = locate(input.file, input.text, input.site);
    if (!site) return undefined;
    const fn = ownerFunction(site.covering).node;
    for (let stmt = listStatement(site.covering); stmt && ownerFunction(stmt).node === fn; ) {
      const items = stmt.parentPath!.get(stmt.listKey as string) as NodePath[];
      const k = stmt.key as number;
      const ok = (i: number) => i >= 0 && i < items.length && !blocker(items[i]!, [items[i]!]);
      if (ok(k)) {
        let a = k;
        let b = k;
        while (ok(a - 1)) a--;
        while (ok(b + 1)) b++;
        const splits: [number, number, number][] = [
          [a, k, b],
          [k - 1, k, k],
          [k, k + 1, b],
          [k, k + 1, k + 1],
        ];
        for (const [from, cut, to] of splits) {
          if (from < a || to > b || from >= cut || cut > to) continue;
          const first = items.slice(from, cut);
          const second = items.slice(cut, to + 1);
          if (leaks(first) || leaks(second)) continue;
          return emit(input, first, second);
        }
      }
      const outer = stmt.parentPath && listStatement(stmt.parentPath);
      stmt = outer && outer !== stmt ? outer : undefined;
    }
    return undefined;
  },
};

function emit(input: OperatorInput, first: NodePath[], second: NodePath[]): OperatorResult {
  const topic = topicOf(second.find((s) => within(input.site, s)) ?? first[0]!);
  const one = helperName(input.text, input.salt, ["prepare", "collect", "parse", "load"], topic);
  const two = helperName(input.text, input.salt, ["apply", "process", "finish", "emit"], topic, [one]);
  const { indent } = indentAt(input.text, start(first[0]!));
  const unit = indentUnit(input.text);
  const firstEnd = end(first[first.length - 1]!);
  const parts = [
    `const ${one} = () => {\n${indent}${unit}`,
    { start: start(first[0]!), end: firstEnd },
    `\n${indent}};\n${indent}const ${two} = () => {`,
    { start: firstEnd, end: end(second[second.length - 1]!) },
    `\n${indent}};\n${indent}${one}();\n${indent}${two}();`,
  ];
  const edit = { start: start(first[0]!), end: end(second[second.length - 1]!), parts };
  return {
    ...compose(input.text, [edit], input.site),
    summary: `split ${first.length + second.length} statements into stages \`${one}\` and \`${two}\``,
  };
}
