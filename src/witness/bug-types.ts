import type { BugTypeId, BugTypeSpec } from "./types.ts";

/**
 * The ten bug types of WitnessGym Table 5 (App. C), restated for JavaScript and TypeScript. The paper's types
 * come from CodeQL Java queries; where Java's idea has no JS twin (equals/hashCode dispatch, hashed
 * collections) `jsAnalogue` says what stands in for it and why. `required` and `forbidden` are what the
 * deterministic codemods of `inject.ts` (see `mutators/`) check at a site; the bug report shown to the agent
 * under test uses `title` and `description` only. Source: WitnessGym Table 5; notes §6.1 (mapping table).
 */
export const BUG_TYPES: Record<BugTypeId, BugTypeSpec> = {
  "identical-comparison": {
    id: "identical-comparison",
    category: "api-contract",
    title: "Comparison of Identical Values",
    description:
      "A condition compares a value with itself, producing a constant result that silently disables validation or equality logic.",
    jsAnalogue:
      "Same idea as Java: one operand of `===`, `!==`, `==`, `!=`, `<`, `<=`, `>` or `>=` is replaced by a copy of the other, e.g. `a.id === b.id` → `a.id === a.id` (always true; `<` always false).",
    required: [
      "a binary comparison (=== !== == != < <= > >=)",
      "both operands free of side effects (no calls, assignments, updates, `new`, `await`)",
      "the two operands differ in text",
    ],
    forbidden: [
      "both operands constant (literals)",
      "operands already identical",
      "operands with side effects",
    ],
    runtimeEffect: "assertion",
    trigger:
      "An input for which the two original operands differ (or are equal, for `!==`), so the constant outcome takes the wrong branch.",
  },
  "protocol-method-typo": {
    id: "protocol-method-typo",
    category: "api-contract",
    title: "Typo in equals",
    description:
      "A method meant to implement a protocol or override hook has the wrong name, so the runtime silently keeps using the default behaviour instead.",
    jsAnalogue:
      "JS has no `equals(Object)` dispatch, but the runtime and libraries dispatch by name on protocol members (`toJSON`, `valueOf`, `then`, `[Symbol.iterator]`, duck-typed `equals`/`compare`/`isEqual`) and on user-supplied hooks (`opts.decoder`, `opts.unknown`, …). Two forms: the declaration of such a member is misspelled (`toJSON` → `toJson`; only the declaration, not its callers), or the guarded lookup that dispatches it is (`typeof opts.decoder === 'function' ? opts.decoder : defaults.decoder` with `decoder` misspelled consistently inside that guard), so the custom implementation is never found and the default path runs silently.",
    required: [
      "a declared member named like a behaviour protocol (toJSON, valueOf, then, Symbol.iterator, equals, compare, …), or",
      "a guarded lookup `typeof P.m === 'function'` (or `P.m != null` / `'m' in P` for protocol names) with P free of side effects",
    ],
    forbidden: [
      "key-producing members (toString, Symbol.toPrimitive, hashCode: see key-method-typo)",
      "data members checked for a non-function type (`typeof opts.depth === 'number'`)",
    ],
    runtimeEffect: "assertion",
    trigger:
      "An input that supplies the custom implementation or hook (an object with `toJSON`, an options object with the hook), so the default behaviour differs from it.",
  },
  "key-method-typo": {
    id: "key-method-typo",
    category: "api-contract",
    title: "Typo in hashCode",
    description:
      "A method meant to produce an object's key (its hash or string form) has the wrong name, so keyed lookups fall back to the default identity or `[object Object]` key.",
    jsAnalogue:
      "JS keys plain objects by string coercion (`toString`, `[Symbol.toPrimitive]`) and libraries key by duck-typed `hashCode`/`hash`/`getKey`/`keyOf`. Same two forms as protocol-method-typo, for these key-producing members: the declaration is misspelled (`toString` → `tostring`, `Symbol.toPrimitive` → `Symbol.toStringTag`), or the guarded lookup of the member (`typeof value.toString === 'function'`, `value[Symbol.toPrimitive] != null`) is, so every object gets the default key.",
    required: [
      "a declared member named toString, hashCode, hash, getKey or keyOf, or computed [Symbol.toPrimitive], or",
      "a guarded lookup of such a member on a side-effect-free object",
    ],
    forbidden: ["behaviour protocols that do not produce keys (see protocol-method-typo)"],
    runtimeEffect: "assertion",
    trigger:
      "Two distinct objects with custom keys used together (as object keys, in a joined string, in a Map keyed by hash), so they collide on the default key.",
  },
  "key-without-identity": {
    id: "key-without-identity",
    category: "api-contract",
    title: "Hashed Value Without hashCode",
    description:
      "Values are compared by content but keyed by identity: the key method is missing while the equality method is kept, so logically equal keys land in different entries.",
    jsAnalogue:
      "Two forms: (1) a class or object literal declaring both an equality member (equals/isEqual/compare) and a key member (hashCode/hash/getKey/keyOf/toString) loses the key member; (2) a `Map`/`Set`/`WeakMap` (declared with `new Map()`… in the same file) looked up with a derived key of one value (`JSON.stringify(x)`, `String(x)`, a one-value template, `keyOf(x)`) is keyed by `x` itself, so equal values no longer share an entry.",
    required: [
      "a class/object with both an equality and a key member, or",
      "a get/set/has/add/delete call on a receiver declared with `new Map|Set|WeakMap|WeakSet()` in the file, whose key is a one-value key derivation",
    ],
    forbidden: [
      "receivers not provably Map/Set",
      "keys derived from several values (see inconsistent-key-identity)",
    ],
    runtimeEffect: "assertion",
    trigger: "Two equal but distinct values (e.g. two parses of the same input) stored and then looked up.",
  },
  "inconsistent-key-identity": {
    id: "inconsistent-key-identity",
    category: "api-contract",
    title: "Inconsistent equals and hashCode",
    description:
      "The key derivation and the equality check use different fields, so equal values get different keys (or different values the same key) and lookups break.",
    jsAnalogue:
      "The key is a template literal or `[a, b].join(sep)` of several fields, or an equality predicate is an `&&` chain of field comparisons. One field is dropped from one side only: a conjunct of an `equals`/`isEqual`/`same…` predicate, or one field of a multi-field key at one Map/Set call site while another call site on the same receiver keeps the full key.",
    required: [
      "an equality function (equals/isEqual/eq/same…) returning an && chain of ≥2 comparisons, or",
      "a multi-field key (template with ≥2 expressions, or join of ≥2 elements) at one of ≥2 Map/Set call sites on the same receiver using that key text",
    ],
    forbidden: ["single-field keys", "receivers not provably Map/Set"],
    runtimeEffect: "assertion",
    trigger: "Two values equal in the kept fields but different in the dropped one.",
  },
  "intra-function-null-deref": {
    id: "intra-function-null-deref",
    category: "value-flow",
    title: "Intra-Function Null Dereference",
    description:
      "A value that was checked for null is later overwritten, moved outside the guard, or dereferenced on an unguarded path.",
    jsAnalogue:
      "A TypeError on `null`/`undefined` (`Cannot read properties of undefined`). Variants: an `if (!x) return/throw/continue/x = default` guard removed; a guard operand removed from a logical chain (`x && x.y` → `x.y`, `!x || x.y` → `x.y`); `x?.y` → `x.y`; a default `x || {}` / `x ?? []` removed. Each only when `x` is dereferenced (member access, call, `in`, `Object.keys(x)`) later in the same function with no assignment to `x` in between.",
    required: [
      "a nullish guard of a side-effect-free path x (!x, x == null, x === undefined, typeof x === 'undefined', x itself in &&, x || {} default)",
      "a later dereference of x in the same function, not preceded by a reassignment of x",
    ],
    forbidden: [
      "guards whose variable is never dereferenced afterwards in the function",
      "guards with an else branch",
      "guards that are not a statement of a block (removing them would change the enclosing statement)",
    ],
    runtimeEffect: "runtime_exception",
    trigger: "An input where x is null or undefined: a missing option, argument or property.",
  },
  "collection-element-null-deref": {
    id: "collection-element-null-deref",
    category: "value-flow",
    title: "Collection Element Null Dereference",
    description:
      "Maintenance or eviction leaves a null element in a list, map, or cache, and a later lookup or iteration assumes it is non-null.",
    jsAnalogue:
      "Holes instead of removals: `xs.filter(p)` → `xs.map(x => p(x) ? x : undefined)` (the rejected elements stay as `undefined` for the next stage to iterate); `delete o[k]` → `o[k] = undefined`; `map.delete(k)` → `map.set(k, undefined)` on a Map-like receiver that also has get/set calls; `xs.splice(i, 1)` → `xs[i] = undefined`; and a loop's element filter weakened to the wrong nullish value (`typeof a[i] !== 'undefined'` → `a[i] !== null`), so holes survive compaction.",
    required: [
      "a removal (filter with a used result, delete, Map delete, splice(i, 1)) or an element-filter `if` inside a loop that copies the element",
    ],
    forbidden: [
      "filter calls whose result is unused",
      "Set receivers (no `set`)",
      "splice with other counts",
    ],
    runtimeEffect: "either",
    trigger:
      "An input with an element that is removed or filtered out (empty, missing, duplicate), then processed further.",
  },
  "guard-predicate-inversion": {
    id: "guard-predicate-inversion",
    category: "logic",
    title: "Guard Predicate Inversion",
    description:
      "A guard condition is flipped or weakened, sending valid inputs to an error or skip path, or letting invalid inputs continue.",
    jsAnalogue:
      "Same idea: an `if` or ternary test, or one operand of its `&&`/`||` chain (or of a returned predicate chain), is inverted: `!c` → `c`, `===` ↔ `!==`, `<` → `>=`, otherwise `c` → `!(c)`.",
    required: [
      "an if or ternary test, or an operand of the &&/|| chain in one (or in a returned boolean chain)",
    ],
    forbidden: [
      "constant conditions (literals, `undefined`, comparisons of constants)",
      "loop conditions (an inverted loop test hangs or never runs: a timeout, not a wrong value)",
    ],
    runtimeEffect: "either",
    trigger:
      "An input that takes the guarded branch on clean code (or the other one), e.g. a missing option or an edge value.",
  },
  "skipped-aggregation-counter": {
    id: "skipped-aggregation-counter",
    category: "logic",
    title: "Skipped Aggregation Counter",
    description:
      "A branch still processes an item but skips the counter or total update, so returned metrics undercount the work performed.",
    jsAnalogue:
      "Inside a loop (or an iteration callback: forEach, map, reduce, …), one branch's update of an accumulator declared outside the loop is deleted: `n++`, `n += x`, `total = total + x`, `out.push(x)`, `out[out.length] = x`.",
    required: [
      "an accumulator update statement inside a loop, on a variable declared outside it",
      "the statement is in a branch: an if with an else, a switch case, or a block that does other work",
    ],
    forbidden: [
      "the loop's own index (a variable of its test or init)",
      "a branch whose only work is the update and has no alternative path (deleting it removes counting altogether)",
    ],
    runtimeEffect: "assertion",
    trigger: "An input whose items take the affected branch.",
  },
  "in-bounds-misrouting": {
    id: "in-bounds-misrouting",
    category: "logic",
    title: "In-Bounds Collection Misrouting",
    description:
      "A loop writes an element to a legal but wrong index or key, leaving the collection complete but logically misordered.",
    jsAnalogue:
      "JS does not throw on out-of-range writes, so the wrong index is kept in bounds explicitly: `out[i] = v` in `for (…; i < n; …)` → `out[(i ^ 1) < n ? i ^ 1 : i] = v` (neighbours swapped, a permutation of 0…n-1); keyed writes `o[keys[i]]` (or an alias `key = keys[i]`) → the neighbouring key; appends `out.push(v)` / `out[out.length] = v` → `out.splice(out.length - out.length % 2, 0, v)` (each pair of appends swapped).",
    required: [
      "an element write inside a loop: indexed by the for-loop's counter (directly or through keys[i]), or an append",
    ],
    forbidden: [
      "loops whose bound has side effects",
      "writes whose value is used (the append rewrite changes it)",
    ],
    runtimeEffect: "assertion",
    trigger: "An input with at least two elements written by the loop.",
  },
};
