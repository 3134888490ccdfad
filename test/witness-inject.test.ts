import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CodingAgentAdapter } from "../src/agents/coding/adapter.ts";
import { InputError } from "../src/core/errors.ts";
import { BUG_TYPES } from "../src/witness/bug-types.ts";
import { listFunctions, parses } from "../src/witness/functions.ts";
import { applyEdits, enumerateCandidates } from "../src/witness/inject.ts";
import { diffToCandidate, injectWithAgent } from "../src/witness/inject-agent.ts";
import { BUG_TYPE_IDS, type BugCandidate, type BugTypeId } from "../src/witness/types.ts";
import { resolveSource } from "../src/workspace/source.ts";

const FILE = "lib/a.js";

function candidates(text: string, types: readonly BugTypeId[] = BUG_TYPE_IDS): BugCandidate[] {
  return enumerateCandidates({ file: FILE, text, functions: listFunctions(FILE, text), types });
}

/** The buggy text of every candidate of one type, in candidate order. */
function buggyTexts(text: string, type: BugTypeId): string[] {
  return candidates(text, [type]).map((c) => applyEdits(text, c.edits));
}

const lines = (...ls: string[]) => `${ls.join("\n")}\n`;

describe("BUG_TYPES", () => {
  it("defines the ten Table 5 types with their categories", () => {
    expect(Object.keys(BUG_TYPES).sort()).toEqual([...BUG_TYPE_IDS].sort());
    const byCategory = (c: string) => BUG_TYPE_IDS.filter((id) => BUG_TYPES[id].category === c).length;
    expect([byCategory("api-contract"), byCategory("value-flow"), byCategory("logic")]).toEqual([5, 2, 3]);
    expect(BUG_TYPES["guard-predicate-inversion"].title).toBe("Guard Predicate Inversion");
    for (const id of BUG_TYPE_IDS) expect(BUG_TYPES[id].jsAnalogue.length).toBeGreaterThan(40);
  });
});

describe("enumerateCandidates: one codemod per type", () => {
  it("identical-comparison copies a non-constant operand over the other, skipping calls and loop tests", () => {
    const text = lines(
      "function same(a, b) {",
      "  if (a.id === b.id) return true;",
      "  for (let i = 0; i < b.n; i++) f(i);",
      "  return 0 < a.n && g() === a.n;",
      "}",
    );
    expect(buggyTexts(text, "identical-comparison")).toEqual([
      text.replace("a.id === b.id", "a.id === a.id"),
      text.replace("0 < a.n", "a.n < a.n"),
    ]);
  });

  it("protocol-method-typo misspells a protocol declaration or a guarded hook lookup, not data members", () => {
    const text = lines(
      "class Money {",
      "  toJSON() { return this.cents; }",
      "}",
      "function load(opts) {",
      "  const decode = typeof opts.decoder === 'function' ? opts.decoder : defaultDecoder;",
      "  return typeof opts.depth === 'number' ? decode(opts.depth) : decode;",
      "}",
    );
    expect(buggyTexts(text, "protocol-method-typo")).toEqual([
      text.replace("toJSON()", "toJson()"),
      text.replace(
        "opts.decoder === 'function' ? opts.decoder",
        "opts.deocder === 'function' ? opts.deocder",
      ),
    ]);
  });

  it("key-method-typo misspells key-producing members (toString, Symbol.toPrimitive)", () => {
    const text = lines(
      "const point = {",
      "  x: 1,",
      "  toString() { return String(this.x); },",
      "};",
      "function keyOf(v) {",
      "  if (v[Symbol.toPrimitive] != null) return v;",
      "  return typeof v.toString === 'function' ? String(v) : '?';",
      "}",
    );
    expect(buggyTexts(text, "key-method-typo")).toEqual([
      text.replace("toString() {", "tostring() {"),
      text.replace("v[Symbol.toPrimitive]", "v[Symbol.toStringTag]"),
      text.replace("typeof v.toString", "typeof v.tostring"),
    ]);
  });

  it("key-without-identity drops the key member beside an equality member, or keys a Map by the value", () => {
    const text = lines(
      "class Key {",
      "  equals(o) { return o.a === this.a; }",
      "  hashCode() { return this.a; }",
      "}",
      "const seen = new Map();",
      "function remember(v) {",
      "  seen.set(JSON.stringify(v), v);",
      "}",
    );
    expect(buggyTexts(text, "key-without-identity")).toEqual([
      text.replace("  hashCode() { return this.a; }\n", ""),
      text.replace("seen.set(JSON.stringify(v), v)", "seen.set(v, v)"),
    ]);
  });

  it("inconsistent-key-identity drops one conjunct of equals, or one field of one Map key", () => {
    // Template literals of the snippet, spelled without `${` in this file's own strings.
    const [x, y, both] = ["`$" + "{p.x}`", "`$" + "{p.y}`", "`$" + "{p.x}:$" + "{p.y}`"];
    const text = lines(
      "function equals(a, b) {",
      "  return a.x === b.x && a.y === b.y;",
      "}",
      "const cache = new Map();",
      "function put(p, v) {",
      `  cache.set(${both}, v);`,
      `  return cache.get(${both});`,
      "}",
    );
    expect(buggyTexts(text, "inconsistent-key-identity")).toEqual([
      text.replace("a.x === b.x && a.y === b.y", "a.y === b.y"),
      text.replace("a.x === b.x && a.y === b.y", "a.x === b.x"),
      text.replace(`cache.set(${both}`, `cache.set(${y}`),
      text.replace(`cache.set(${both}`, `cache.set(${x}`),
      text.replace(`cache.get(${both}`, `cache.get(${y}`),
      text.replace(`cache.get(${both}`, `cache.get(${x}`),
    ]);
  });

  it("intra-function-null-deref removes a guard, a && operand, ?. or an || [] default before a dereference", () => {
    const text = lines(
      "function run(opts, list, other) {",
      "  if (!opts) return 0;",
      "  if (!other) return 1;",
      "  const names = list || [];",
      "  const n = opts.a && opts.a.length;",
      "  return opts.b?.c + names.length + n;",
      "}",
    );
    // `other` is never dereferenced: its guard is not a site.
    expect(buggyTexts(text, "intra-function-null-deref")).toEqual([
      text.replace("  if (!opts) return 0;\n", ""),
      text.replace("list || []", "list"),
      text.replace("opts.a && opts.a.length", "opts.a.length"),
      text.replace("opts.b?.c", "opts.b.c"),
    ]);
  });

  it("collection-element-null-deref turns removals into undefined holes", () => {
    const text = lines(
      "function prune(items, cache, o, k) {",
      "  const kept = items.filter((x) => x.ok);",
      "  cache.delete(k);",
      "  delete o[k];",
      "  items.splice(0, 1);",
      "  return kept.map((x) => x.name + cache.get(k));",
      "}",
      "function compact(src) {",
      "  const out = [];",
      "  for (let i = 0; i < src.length; i++) {",
      "    if (typeof src[i] !== 'undefined') {",
      "      out.push(src[i]);",
      "    }",
      "  }",
      "  return out;",
      "}",
    );
    expect(buggyTexts(text, "collection-element-null-deref")).toEqual([
      text.replace("items.filter((x) => x.ok)", "items.map((x) => (x.ok ? x : undefined))"),
      text.replace("cache.delete(k)", "cache.set(k, undefined)"),
      text.replace("delete o[k]", "o[k] = undefined"),
      text.replace("items.splice(0, 1)", "items[0] = undefined"),
      text.replace("typeof src[i] !== 'undefined'", "src[i] !== null"),
    ]);
  });

  it("collection-element-null-deref rewrites filter(fn) with a plain function for a named predicate", () => {
    const text = lines("function keys(xs) {", "  return xs.filter(Boolean).join(',');", "}");
    expect(buggyTexts(text, "collection-element-null-deref")).toEqual([
      text.replace("filter(Boolean)", "map(function (item) { return Boolean(item) ? item : undefined; })"),
    ]);
  });

  it("guard-predicate-inversion inverts if/ternary tests and chain operands, never constants or loop tests", () => {
    const text = lines(
      "function check(x, y) {",
      "  if (!x) return 1;",
      "  while (true) break;",
      "  while (x.more) x = x.next;",
      "  if (x.a === y && ok(x)) return 2;",
      "  return x < y ? 3 : 4;",
      "}",
    );
    expect(buggyTexts(text, "guard-predicate-inversion")).toEqual([
      text.replace("if (!x)", "if (x)"),
      text.replace("(x.a === y && ok(x))", "(!(x.a === y && ok(x)))"),
      text.replace("x.a === y", "x.a !== y"),
      text.replace("ok(x)", "!ok(x)"),
      text.replace("x < y", "x >= y"),
    ]);
  });

  it("skipped-aggregation-counter deletes one branch's accumulator update, not loop-local counters", () => {
    const text = lines(
      "function tally(items) {",
      "  let n = 0;",
      "  let total = 0;",
      "  let seen = 0;",
      "  for (const it of items) {",
      "    if (it.big) {",
      "      n++;",
      "      total = total + it.size;",
      "    } else {",
      "      total += 1;",
      "    }",
      "    if (it.seen) {",
      "      seen++;",
      "    }",
      "    let local = 0;",
      "    local++;",
      "  }",
      "  return [n, total, seen];",
      "}",
    );
    // `seen++` is the only work of a branch without an alternative: deleting it removes counting altogether.
    expect(buggyTexts(text, "skipped-aggregation-counter")).toEqual([
      text.replace("      n++;\n", ""),
      text.replace("      total = total + it.size;\n", ""),
      text.replace("      total += 1;\n", ""),
    ]);
  });

  it("in-bounds-misrouting swaps neighbouring indexes or keys and pairs of appends, kept in bounds", () => {
    const text = lines(
      "function copy(src, keys) {",
      "  const out = [];",
      "  const obj = {};",
      "  for (let i = 0; i < src.length; i++) {",
      "    out[i] = src[i];",
      "    const key = keys[i];",
      "    obj[key] = src[i];",
      "  }",
      "  for (const x of src) out[out.length] = x;",
      "  return [out, obj];",
      "}",
    );
    expect(buggyTexts(text, "in-bounds-misrouting")).toEqual([
      text.replace("out[i] =", "out[(i ^ 1) < src.length ? i ^ 1 : i] ="),
      text.replace("obj[key] =", "obj[keys[(i ^ 1) < src.length ? i ^ 1 : i]] ="),
      text.replace("out[out.length] = x", "out.splice(out.length - out.length % 2, 0, x)"),
    ]);
    const evaluate = (t: string) => new Function(`${t}; return copy([1, 2, 3], ["a", "b", "c"]);`)();
    const [swapped, , appended] = candidates(text, ["in-bounds-misrouting"]);
    // Clean: [1, 2, 3, 1, 2, 3]. Same elements, neighbours swapped.
    expect(evaluate(applyEdits(text, swapped!.edits))[0]).toEqual([2, 1, 3, 1, 2, 3]);
    expect(evaluate(applyEdits(text, appended!.edits))[0]).toEqual([1, 2, 1, 3, 3, 2]);
  });
});

describe("enumerateCandidates: contract", () => {
  const text = lines(
    "// header comment",
    "function outer(opts) {",
    "  if (!opts) return;",
    "  const inner = function (x) {",
    "    if (x.a === x.b) return opts.c;",
    "  };",
    "  return opts.d ? inner : null;",
    "}",
  );

  it("only gives candidates whose innermost function is one of the given functions", () => {
    const all = listFunctions(FILE, text);
    const outerOnly = all.filter((f) => f.name === "outer");
    const got = enumerateCandidates({ file: FILE, text, functions: outerOnly, types: BUG_TYPE_IDS });
    expect(got.length).toBeGreaterThan(0);
    expect(new Set(got.map((c) => c.function.name))).toEqual(new Set(["outer"]));
    expect(got.some((c) => c.summary.includes("x.a"))).toBe(false);
    expect(enumerateCandidates({ file: FILE, text, functions: [], types: BUG_TYPE_IDS })).toEqual([]);
  });

  it("gives parsing, formatting-preserving, deterministic candidates with consistent spans", () => {
    const first = candidates(text);
    expect(candidates(text)).toEqual(first);
    expect(new Set(first.map((c) => c.id)).size).toBe(first.length);
    for (const c of first) {
      expect(c.id).toMatch(/^[0-9a-f]{12}$/);
      const buggy = applyEdits(text, c.edits);
      expect(parses(FILE, buggy)).toBe(true);
      expect(buggy.slice(0, c.site.start)).toBe(text.slice(0, c.location.span.start));
      expect(buggy.slice(c.site.end)).toBe(text.slice(c.location.span.end));
      expect(c.location.line).toBe(text.slice(0, c.location.span.start).split("\n").length);
      expect(c.edits.every((e) => e.file === FILE)).toBe(true);
    }
    const starts = first.map((c) => c.location.span.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it("summarises the change in one line", () => {
    const inverted = candidates(text, ["guard-predicate-inversion"]).map((c) => c.summary);
    expect(inverted).toContain("`!opts` → `opts`");
  });
});

describe("applyEdits", () => {
  it("applies non-overlapping edits given in any order", () => {
    const edits = [
      { file: FILE, start: 6, end: 11, text: "there" },
      { file: FILE, start: 0, end: 5, text: "bye" },
      { file: FILE, start: 11, end: 11, text: "!" },
    ];
    expect(applyEdits("hello world", edits)).toBe("bye there!");
  });

  it("rejects overlapping edits", () => {
    const edits = [
      { file: FILE, start: 0, end: 5, text: "a" },
      { file: FILE, start: 3, end: 7, text: "b" },
    ];
    expect(() => applyEdits("hello world", edits)).toThrow(InputError);
  });
});

describe("real code: minimist 1.2.8", () => {
  it("finds candidates of at least six types over index.js", async () => {
    const source = await resolveSource("npm:minimist@1.2.8");
    const text = readFileSync(path.join(source.sourceDir, "index.js"), "utf8");
    const got = enumerateCandidates({
      file: "index.js",
      text,
      functions: listFunctions("index.js", text),
      types: BUG_TYPE_IDS,
    });
    const types = new Set(got.map((c) => c.type));
    expect(types.size).toBeGreaterThanOrEqual(6);
    for (const t of [
      "identical-comparison",
      "intra-function-null-deref",
      "collection-element-null-deref",
      "guard-predicate-inversion",
      "skipped-aggregation-counter",
      "in-bounds-misrouting",
    ] as const)
      expect(types.has(t)).toBe(true);
    for (const c of got) expect(parses("index.js", applyEdits(text, c.edits))).toBe(true);
    expect(got.find((c) => c.summary === "removed guard `if (!opts) { opts = {}; }`")?.location.line).toBe(
      24,
    );
  });
});

describe("injectWithAgent (coding-agent engine)", () => {
  const LIB = lines(
    "function check(x) {",
    "  if (!x) return 'none';",
    "  return x.name;",
    "}",
    "function other(y) {",
    "  return y + 1;",
    "}",
    "module.exports = { check, other };",
  );

  /** An in-process agent that replaces `from` with `to` in lib.js and records the prompt it got. */
  function editingAgent(from: string, to: string, prompts: string[]): CodingAgentAdapter {
    return {
      name: "scripted:inline-edit",
      async startSession(workspace) {
        return {
          sessionId: "inline",
          async runStep(request) {
            prompts.push(request.prompt);
            const file = path.join(workspace.dir, "lib.js");
            writeFileSync(file, readFileSync(file, "utf8").replace(from, to));
            return {
              status: "ok",
              exitCode: 0,
              finalMessage: "done",
              events: [],
              durationMs: 1,
              usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
            };
          },
          async close() {},
        };
      },
    };
  }

  async function setup() {
    const dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-inject-agent-"));
    writeFileSync(path.join(dir, "lib.js"), LIB);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "lib", version: "1.0.0" }));
    const source = await resolveSource(dir);
    const fns = listFunctions("lib.js", LIB);
    const context = fns
      .filter((f) => f.name === "check")
      .map((f) => ({ id: f.id, file: f.file, name: f.name, line: f.line, calls: 1 }));
    return { dir, source, context };
  }

  it("turns the agent's edit inside a context function into a candidate, prompted with spec, context and replay", async () => {
    const { dir, source, context } = await setup();
    const prompts: string[] = [];
    try {
      const got = await injectWithAgent({
        source,
        type: "guard-predicate-inversion",
        context,
        replayCommand: "node --test test/check.test.js",
        agent: editingAgent("if (!x)", "if (x)", prompts),
      });
      expect(got.reason).toBe("accepted");
      const c = got.candidate!;
      expect(c.edits).toEqual([{ file: "lib.js", start: 26, end: 27, text: "" }]);
      expect(applyEdits(LIB, c.edits)).toBe(LIB.replace("if (!x)", "if (x)"));
      expect(c.function.name).toBe("check");
      expect(c.location).toEqual({ file: "lib.js", line: 2, span: { start: 26, end: 27 } });
      expect(prompts[0]).toContain("Guard Predicate Inversion");
      expect(prompts[0]).toContain("- lib.js:1 check");
      expect(prompts[0]).not.toContain("lib.js:5 other");
      expect(prompts[0]).toContain("node --test test/check.test.js");
      expect(readFileSync(path.join(dir, "lib.js"), "utf8")).toBe(LIB);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects an edit outside the test's context functions", async () => {
    const { dir, source, context } = await setup();
    try {
      const got = await injectWithAgent({
        source,
        type: "guard-predicate-inversion",
        context,
        replayCommand: "node --test",
        agent: editingAgent("y + 1", "y - 1", []),
      });
      expect(got.candidate).toBeUndefined();
      expect(got.reason).toBe("the change at lib.js:6 is outside the test's context functions");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects no change, formatting-only changes and changes that do not parse", () => {
    const context = [{ id: "lib.js#check@1", file: "lib.js", name: "check", line: 1, calls: 1 }];
    expect(
      diffToCandidate(
        "guard-predicate-inversion",
        "lib.js",
        LIB,
        LIB.replace("  return x.name;", "return x.name;"),
        context,
      ).reason,
    ).toBe("formatting-only change");
    expect(
      diffToCandidate(
        "guard-predicate-inversion",
        "lib.js",
        LIB,
        LIB.replace("return x.name;", "return x.;"),
        context,
      ).reason,
    ).toBe("the changed file does not parse");
  });
});
