import { TESTS_ONLY_SCRIPTS } from "../workspace/test-command.ts";

/**
 * Reading which test runner a package's test script calls, and with what: the runner, its options (kept when
 * one test file is run alone) and its test-file patterns (replaced by that file). Pure: text in, data out.
 */

/** The test runners the witness suite can run one test file of. */
export type TestRunner = "node:test" | "tape" | "mocha" | "jest" | "vitest";

/** One runner call found in a package's scripts. */
export interface RunnerInvocation {
  runner: TestRunner;
  /** Name of the script it was found in, e.g. `tests-only`. */
  script: string;
  /** Runner options to keep (watch and coverage flags dropped), in script order. */
  options: string[];
  /** Positional test-file arguments: globs, files or folders (jest/vitest: path filters). */
  patterns: string[];
  /** `NAME=value` assignments before the runner (`NODE_OPTIONS` goes to `nodeFlags` instead). */
  env: Record<string, string>;
  /** Node flags from `NODE_OPTIONS=…` or `node <flags> <runner bin>`, passed to node before the runner. */
  nodeFlags: string[];
}

const RUNNER_NAMES: Record<string, TestRunner> = {
  tape: "tape",
  mocha: "mocha",
  _mocha: "mocha",
  jest: "jest",
  vitest: "vitest",
};

/** Commands that run another command after their own options (coverage tools, env setters, npx). */
const WRAPPERS = new Set(["nyc", "c8", "npx", "cross-env", "env", "dotenv", "istanbul", "time"]);

/** Flags that take the next argument as their value, per runner (so that value is not read as a pattern). */
const VALUE_FLAGS: Record<TestRunner, ReadonlySet<string>> = {
  "node:test": flags(
    "-r --require --import --loader --experimental-loader --test-reporter --test-reporter-destination " +
      "--test-name-pattern --test-skip-pattern --test-concurrency --test-timeout --test-shard -C --conditions --env-file",
  ),
  tape: flags("-r --require -i --ignore --ignore-pattern"),
  mocha: flags(
    "-r --require -t --timeout -R --reporter -O --reporter-option --reporter-options -u --ui -g --grep -f --fgrep " +
      "--file --config --package --extension --ignore --exclude -s --slow --retries -j --jobs --watch-files " +
      "--watch-ignore -n --node-option",
  ),
  jest: flags(
    "-c --config --testTimeout --testPathIgnorePatterns --roots --selectProjects --projects -t --testNamePattern " +
      "-w --maxWorkers --reporters --testEnvironment --env --shard --seed --outputFile --rootDir --testRunner " +
      "--testMatch --coverageProvider",
  ),
  vitest: flags(
    "-c --config -r --root --dir --project --environment --pool --reporter --outputFile --shard --testTimeout " +
      "-t --testNamePattern --mode --exclude",
  ),
};

/** Flags dropped: watching never ends, and coverage thresholds fail a run of one file. */
const DROPPED = /^(?:--watch\b.*|--watchAll\b.*|--ui|--coverage\b.*|--collectCoverage\b.*|-w)$/;

/**
 * The runner call of a package's test script: the first of `tests-only`, `test:only`, `test:unit`, `unit`
 * and `test` (see `test-command.ts`) that reaches one, following `npm run`/`npm test`/`yarn`/`pnpm` into the
 * named scripts (depth ≤ 4), through `&&`/`;` chains and wrappers (`nyc`, `c8`, `npx`, `cross-env`, env
 * assignments). `node --test` counts as node:test; `node <path>/tape` as tape.
 * @param manifest parsed package.json (anything; non-objects yield undefined)
 * @returns the invocation, or undefined when no script calls a supported runner
 */
export function findRunnerInvocation(manifest: unknown): RunnerInvocation | undefined {
  const scripts = (manifest as { scripts?: unknown } | undefined)?.scripts;
  if (typeof scripts !== "object" || scripts === null) return undefined;
  const body = (name: string): string | undefined => {
    const value = (scripts as Record<string, unknown>)[name];
    return typeof value === "string" && value.trim() !== "" ? value : undefined;
  };
  const visit = (name: string, depth: number): RunnerInvocation | undefined => {
    const text = body(name);
    if (text === undefined || depth > 4) return undefined;
    for (const segment of shellSegments(text)) {
      const called = scriptCalled(segment);
      const found = called !== undefined ? visit(called, depth + 1) : invocationIn(segment, name);
      if (found) return found;
    }
    return undefined;
  };
  for (const name of [...TESTS_ONLY_SCRIPTS, "test"]) {
    const found = visit(name, 0);
    if (found) return found;
  }
  return undefined;
}

/** The script a segment runs through a package manager (`npm run x`, `npm test`, `yarn x`, `pnpm run x`), if any. */
function scriptCalled(words: readonly string[]): string | undefined {
  let at = 0;
  while (
    at < words.length &&
    (isAssignment(words[at]!) || WRAPPERS.has(words[at]!) || words[at]!.startsWith("-"))
  )
    at++;
  const [tool, first, second] = words.slice(at);
  if (tool !== "npm" && tool !== "yarn" && tool !== "pnpm") return undefined;
  if (first === "test" || first === "t") return "test";
  if (first === "run" || first === "run-script") return second;
  return tool !== "npm" && first !== undefined && !first.startsWith("-") ? first : undefined;
}

/** The runner call in one command (words of one `&&`/`;`/`|` segment), if it is one. */
function invocationIn(words: readonly string[], script: string): RunnerInvocation | undefined {
  const env: Record<string, string> = {};
  const nodeFlags: string[] = [];
  let i = 0;
  const assign = (word: string) => {
    const eq = word.indexOf("=");
    const [name, value] = [word.slice(0, eq), word.slice(eq + 1)];
    if (name === "NODE_OPTIONS") nodeFlags.push(...shellSegments(value).flat());
    else env[name] = value;
  };
  while (i < words.length && isAssignment(words[i]!)) assign(words[i++]!);
  if (i < words.length && WRAPPERS.has(commandName(words[i]!))) {
    // Skip the wrapper and its options up to the first runner (or node) word.
    const at = words.findIndex(
      (w, j) => j > i && (RUNNER_NAMES[commandName(w)] || commandName(w) === "node"),
    );
    if (at < 0) return undefined;
    for (const w of words.slice(i + 1, at)) if (isAssignment(w)) assign(w);
    i = at;
  }
  const head = words[i];
  if (head === undefined) return undefined;
  let rest = words.slice(i + 1);
  let runner = RUNNER_NAMES[commandName(head)];
  if (commandName(head) === "node") {
    const bin = rest.findIndex((w) => !w.startsWith("-"));
    const named = bin >= 0 ? RUNNER_NAMES[commandName(rest[bin]!)] : undefined;
    if (named && !rest.slice(0, bin).includes("--test")) {
      runner = named;
      nodeFlags.push(...rest.slice(0, bin));
      rest = rest.slice(bin + 1);
    } else if (rest.includes("--test")) runner = "node:test";
  }
  if (runner === undefined) return undefined;
  if (runner === "vitest" && ["run", "watch", "dev", "related"].includes(rest[0] ?? "")) rest = rest.slice(1);
  const options: string[] = [];
  const patterns: string[] = [];
  for (let j = 0; j < rest.length; j++) {
    const word = rest[j]!;
    if (word === "--spec" && runner === "mocha") patterns.push(rest[++j] ?? "");
    else if (DROPPED.test(word) && !VALUE_FLAGS[runner].has(word)) continue;
    else if (word.startsWith("-")) {
      options.push(word);
      if (VALUE_FLAGS[runner].has(word) && j + 1 < rest.length) options.push(rest[++j]!);
    } else patterns.push(word);
  }
  return { runner, script, options, patterns: patterns.filter((p) => p !== ""), env, nodeFlags };
}

/** `node_modules/.bin/tape` → `tape`; `node_modules/mocha/bin/mocha.js` → `mocha`. */
function commandName(word: string): string {
  const parts = word.split("/");
  const binOf = parts.lastIndexOf("bin");
  const pkg = parts.indexOf("node_modules");
  if (pkg >= 0 && binOf > pkg + 1 && parts[pkg + 1] !== ".bin") return parts[pkg + 1]!;
  return (parts.at(-1) ?? "").replace(/\.[cm]?js$/, "");
}

function flags(list: string): ReadonlySet<string> {
  return new Set(list.split(" "));
}

function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/**
 * Split a shell command line into commands (at `&&`, `||`, `;`, `|`, `&`), each a list of words with quotes
 * and backslashes removed. Enough for package.json scripts; no expansion, subshells are kept as words.
 */
export function shellSegments(line: string): string[][] {
  const segments: string[][] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endSegment = () => {
    endWord();
    if (words.length) segments.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      const end = close < 0 ? line.length : close;
      word += c === '"' ? line.slice(i + 1, end).replace(/\\(["\\$`])/g, "$1") : line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === "&" || c === "|" || c === ";" || c === "\n") {
      if (line[i + 1] === c) i++;
      endSegment();
    } else if (/\s/.test(c)) endWord();
    else {
      word += c;
      inWord = true;
    }
  }
  endSegment();
  return segments;
}

/**
 * A glob as a regular expression over project-relative POSIX paths: `**` (any folders), `*`, `?`, `{a,b}`,
 * `[…]` and the extglobs `?(…)`, `*(…)`, `+(…)`, `@(…)` (what test runners' default patterns use).
 */
export function globToRegExp(glob: string): RegExp {
  let src = "";
  const closers: string[] = [];
  const g = glob.replace(/^\.\//, "");
  for (let i = 0; i < g.length; i++) {
    const c = g[i]!;
    const next = g[i + 1];
    if ("?*+@!".includes(c) && next === "(") {
      closers.push(c === "!" ? ")(?![^/]))[^/]*)" : c === "@" ? ")" : `)${c}`);
      src += c === "!" ? "(?:(?!(?:" : "(?:";
      i++;
    } else if (c === ")" && closers.length) src += closers.pop();
    else if (c === "|" && closers.length) src += "|";
    else if (c === "*" && next === "*") {
      const slash = g[i + 2] === "/";
      src += slash ? "(?:[^/]*/)*" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") src += "[^/]*";
    else if (c === "?") src += "[^/]";
    else if (c === "{") {
      closers.push(")");
      src += "(?:";
    } else if (c === "}" && closers.length) src += closers.pop();
    else if (c === "," && closers.length) src += "|";
    else if (c === "[") {
      const close = g.indexOf("]", i + 1);
      if (close < 0) src += "\\[";
      else {
        src += `[${g.slice(i + 1, close).replace(/^!/, "^")}]`;
        i = close;
      }
    } else src += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return new RegExp(`^${src}$`);
}
