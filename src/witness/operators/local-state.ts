import type { Binding, NodePath } from "@babel/traverse";
import type { OperatorInput, OperatorResult, TransformOperator } from "../transform.ts";
import {
  compose,
  declareBefore,
  type Edit,
  end,
  helperName,
  initializedBefore,
  listStatement,
  locate,
  overlaps,
  ownerFunction,
  pick,
  rangeOf,
  references,
  scopeBefore,
  siteExpression,
  start,
  within,
} from "./site.ts";

/**
 * Data Flow operators of WitnessGym Table 6 that move locals the bug reads into a context object or a nested
 * container: from a point `P` of a statement list around the site on, reads outside the site go through the
 * container. Reads inside the site keep naming the local (its bytes are fixed), which still holds the same value.
 */

/** Where the container goes and which reads of which locals it replaces. */
interface BundlePlan {
  /** Offset of the statement the container is declared before. */
  at: number;
  bindings: Binding[];
  /** Per binding (same order), the references to rewrite. */
  reads: NodePath[][];
}

/**
 * The outermost statement list around the site (inside its function) where up to `max` locals the site's
 * statement reads are stable from a point `P` to the end of the list: declared before `P`, not assigned from
 * `P` on, never assigned inside a nested function. Each gets its reads after `P` and outside the site (not a
 * callee or template tag, whose receiver would change; not in a nested function declaration, which may run
 * before `P`).
 */
function planBundle(input: OperatorInput, max: number): BundlePlan | undefined {
  const site = locate(input.file, input.text, input.site);
  const stmt = site && listStatement(site.covering);
  if (!site || !stmt) return undefined;
  const expr = siteExpression(site);
  const fn = ownerFunction(stmt);
  const seen = new Set<Binding>();
  const candidates: Binding[] = [];
  for (const ref of [...(expr ? references(expr) : []), ...references(stmt)]) {
    const binding = ref.scope.getBinding(ref.node.name);
    if (!binding || seen.has(binding) || ref.node.name === "arguments") continue;
    seen.add(binding);
    if (!["var", "let", "const", "param"].includes(binding.kind)) continue;
    const home = ownerFunction(binding.path).node;
    if (binding.constantViolations.some((v) => ownerFunction(v).node !== home)) continue;
    candidates.push(binding);
  }
  const levels: NodePath[] = [];
  for (
    let q: NodePath | undefined = stmt;
    q && ownerFunction(q).node === fn.node;
    q = q.parentPath ?? undefined
  ) {
    const l = listStatement(q);
    if (!l || ownerFunction(l).node !== fn.node) break;
    levels.unshift(l);
    q = l;
  }
  for (const holder of levels) {
    const items = holder.parentPath!.get(holder.listKey as string) as NodePath[];
    const k = holder.key as number;
    const last = items[items.length - 1]!;
    const region = (p: NodePath, from: number) => start(p) >= from && end(p) <= end(last);
    const chosen: { binding: Binding; from: number }[] = [];
    for (const binding of candidates) {
      if (scopeBefore(holder).getBinding(binding.identifier.name) !== binding) continue;
      const events =
        binding.kind === "param" ? binding.constantViolations : [binding.path, ...binding.constantViolations];
      let from = 0;
      let ok = true;
      for (const e of events) {
        const j = items.findIndex((s) => within(e, s));
        if (j >= k) ok = false;
        else if (j >= 0) from = Math.max(from, j + 1);
      }
      if (ok && initializedBefore(binding, items[from]!)) chosen.push({ binding, from });
    }
    if (chosen.length === 0) continue;
    const readsFrom = (binding: Binding, from: number) =>
      binding.referencePaths.filter(
        (r) =>
          region(r, start(items[from]!)) &&
          !overlaps(r, input.site) &&
          !within(input.site, r) &&
          !(
            r.key === "callee" &&
            (r.parentPath?.isCallExpression() || r.parentPath?.isOptionalCallExpression())
          ) &&
          !(r.key === "tag" && r.parentPath?.isTaggedTemplateExpression()) &&
          !r.parentPath?.isExportSpecifier() &&
          !r.parentPath?.node.type.startsWith("TS") &&
          !r.findParent((p) => p.isFunctionDeclaration() && within(p, holder.parentPath!)),
      );
    const useful = chosen.filter((c) => readsFrom(c.binding, c.from).length > 0).slice(0, max);
    if (useful.length === 0) continue;
    const from = Math.max(...useful.map((c) => c.from));
    const reads = useful.map((c) => readsFrom(c.binding, from));
    if (reads.every((r) => r.length === 0)) continue;
    return { at: start(items[from]!), bindings: useful.map((c) => c.binding), reads };
  }
  return undefined;
}

/** Edits that declare `declaration` at the plan's point and replace each read by `access(name)`. */
function applyPlan(
  input: OperatorInput,
  plan: BundlePlan,
  declaration: string,
  access: (name: string) => string,
) {
  const edits: Edit[] = [declareBefore(input.text, plan.at, [declaration])];
  plan.bindings.forEach((binding, n) => {
    const name = binding.identifier.name;
    for (const r of plan.reads[n] ?? []) {
      const prop = r.parentPath;
      if (prop?.isObjectProperty() && prop.node.shorthand && r.key === "value")
        edits.push({ ...rangeOf(prop), parts: [`${name}: ${access(name)}`] });
      else edits.push({ ...rangeOf(r), parts: [access(name)] });
    }
  });
  return compose(input.text, edits, input.site);
}

/**
 * Local State Bundling: `const state = { a, b };` at the first point `P` of a statement list around the site
 * from which the locals `a, b` (read by the site's statement) no longer change, and every later read of them in
 * that list, outside the site, becomes `state.a` / `state.b` (shorthand `{ a }` becomes `{ a: state.a }`).
 */
export const localStateBundling: TransformOperator = {
  id: "local-state-bundling",
  family: "data-flow",
  title: "Local State Bundling",
  description:
    "Groups locals the bug's statement reads into a context object once they stop changing, and makes the code after that point read them through the object's fields.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const plan = planBundle(input, 3);
    if (!plan) return undefined;
    const names = plan.bindings.map((b) => b.identifier.name);
    const ctx = helperName(input.text, input.salt, ["state", "context", "locals", "scope"], "");
    const result = applyPlan(input, plan, `const ${ctx} = { ${names.join(", ")} };`, (n) => `${ctx}.${n}`);
    const count = plan.reads.reduce((sum, r) => sum + r.length, 0);
    return {
      ...result,
      summary: `bundled ${names.map((n) => `\`${n}\``).join(", ")} into \`${ctx}\` (${count} reads)`,
    };
  },
};

const CONTAINERS = ["object", "map", "list"] as const;

/**
 * Nested Data Access: like Local State Bundling for one local `a`, with a nested container chosen by salt:
 * `const boxA = { inner: { a } };` read as `boxA.inner.a`, `const entriesA = new Map([["a", a]]);` read as
 * `entriesA.get("a")`, or `const slotsA = { items: [a] };` read as `slotsA.items[0]`.
 */
export const nestedDataAccess: TransformOperator = {
  id: "nested-data-access",
  family: "data-flow",
  title: "Nested Data Access",
  description:
    "Puts a local the bug's statement reads into a nested container (object in object, Map entry or list element) once it stops changing, and makes later code read it through the container.",
  apply(input: OperatorInput): OperatorResult | undefined {
    const plan = planBundle(input, 1);
    const binding = plan?.bindings[0];
    if (!plan || !binding) return undefined;
    const name = binding.identifier.name;
    const topic = name.replace(/^[_$]+/, "").replace(/^./, (c) => c.toUpperCase()) || "Value";
    let kind = pick(CONTAINERS, input.salt, "container");
    if (kind === "map" && binding.scope.getBinding("Map")) kind = "object";
    const box = helperName(
      input.text,
      input.salt,
      [{ object: "box", map: "entries", list: "slots" }[kind]],
      topic,
    );
    const [declaration, access] =
      kind === "map"
        ? [`const ${box} = new Map([["${name}", ${name}]]);`, `${box}.get("${name}")`]
        : kind === "list"
          ? [`const ${box} = { items: [${name}] };`, `${box}.items[0]`]
          : [`const ${box} = { inner: { ${name} } };`, `${box}.inner.${name}`];
    const result = applyPlan(input, { ...plan, bindings: [binding] }, declaration, () => access);
    return {
      ...result,
      summary: `\`${name}\` is now read as \`${access}\` (${plan.reads[0]?.length ?? 0} reads)`,
    };
  },
};
