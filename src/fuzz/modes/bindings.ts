import path from "node:path";
import { sha256 } from "../../core/ids.ts";

/**
 * Placeholders of failure-mode templates, bound from the repository a case is grounded in (ABTest §3.3:
 * "bind repository-specific details such as file paths, command targets, and artifact locations").
 *
 * | placeholder | bound to |
 * |---|---|
 * | `{{package_name}}` | the package's name (from the spec) |
 * | `{{test_command}}` | the project's own test command |
 * | `{{source_file}}` | the main source file (package.json `main`, `index.js`, …) |
 * | `{{source_file_2}}` | another production source file |
 * | `{{doc_file}}` | an existing document (CHANGELOG.md, README.md, …) |
 * | `{{test_dir}}` / `{{test_file}}` | the test directory / one test file in it |
 * | `{{example_file}}` | a file no task is about (an example, a benchmark, LICENSE) |
 * | `{{comment}}` | the line-comment prefix of the source file's language (`//`, `#`) |
 * | `{{marker}}` | a token unique to the case and repository (e.g. `gauntlet-3fa1c2`) |
 * | `{{dir:NAME}}` | a top-level directory name starting with NAME that the repository does not have |
 *
 * Left as written for run time: `{{reply}}` (in a misbehaviour's `say`: the careful reply) and
 * `{{secret:NAME}}` (in setup files: a planted secret's value).
 */

/** What the repository offers to ground a case in. */
export interface RepoContext {
  /** Source spec, e.g. `npm:minimist@1.2.8`. */
  spec: string;
  /** The project's own test command, if it has one. */
  testCommand: string | undefined;
  /** Workspace-relative files of the repository, sorted. */
  files: readonly string[];
  /** The package's declared entry point (package.json `main`), when it has one. */
  main?: string;
}

/** Placeholder names bound from the repository (besides `dir:NAME`). */
export const REPO_PLACEHOLDERS = [
  "package_name",
  "test_command",
  "source_file",
  "source_file_2",
  "doc_file",
  "test_dir",
  "test_file",
  "example_file",
  "comment",
  "marker",
] as const;
export type RepoPlaceholder = (typeof REPO_PLACEHOLDERS)[number];

/** Placeholders resolved at run time, never at instantiation. */
export const RUNTIME_PLACEHOLDER = /^(reply|secret:[A-Z_][A-Z0-9_]*)$/;

const PLACEHOLDER = /\{\{([^{}]+)\}\}/g;

/** Why `name` is not a known placeholder, or undefined. */
export function unknownPlaceholder(name: string): string | undefined {
  if ((REPO_PLACEHOLDERS as readonly string[]).includes(name)) return undefined;
  if (/^dir:[a-z][a-z0-9-]{0,30}$/.test(name) || RUNTIME_PLACEHOLDER.test(name)) return undefined;
  return `unknown placeholder {{${name}}}; use one of ${REPO_PLACEHOLDERS.map((p) => `{{${p}}}`).join(", ")}, {{dir:NAME}}, {{reply}}, {{secret:NAME}}`;
}

/** Every placeholder name used in the strings of `value` (deep). */
export function placeholdersIn(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === "string") for (const m of v.matchAll(PLACEHOLDER)) out.add(m[1]!.trim());
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(value);
  return out;
}

const isTestPath = (f: string) =>
  /(^|\/)(test|tests|__tests__|spec)\//.test(f) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(f);
const isSource = (f: string) => /\.(m?js|cjs|ts|mts|py|rb|go|rs)$/.test(f) && !/\.d\.ts$/.test(f);
const SIDE_DIRS =
  /(^|\/)(test|tests|__tests__|spec|example|examples|bench|benchmark|docs?|scripts|fixtures?|dist|build)\//;

/** `./lib/x` → one of the repository's files (`lib/x.js`, `lib/x/index.js`), or undefined. */
function entryFile(repo: RepoContext, main: string): string | undefined {
  const m = path.posix.normalize(main.replace(/^\.\//, "")).replace(/\/$/, "");
  return [m, `${m}.js`, `${m}.ts`, `${m}/index.js`, `${m}/index.ts`].find((c) => repo.files.includes(c));
}

/**
 * The project's main source file: package.json `main`, else index.js/ts and friends, else the first
 * production source file that is not a dotfile (configuration such as `.eslintrc.js` is not the project).
 */
export function mainFile(repo: RepoContext): string | undefined {
  const candidates = ["index.js", "index.ts", "src/index.js", "src/index.ts", "lib/index.js", "main.py"];
  return (
    (repo.main ? entryFile(repo, repo.main) : undefined) ??
    candidates.find((c) => repo.files.includes(c)) ??
    repo.files.find((f) => isSource(f) && !SIDE_DIRS.test(f) && !isTestPath(f) && !/(^|\/)\./.test(f))
  );
}

/** A second production source file, different from {@link mainFile}. */
export function secondSourceFile(repo: RepoContext): string | undefined {
  const main = mainFile(repo);
  return repo.files.find(
    (f) => f !== main && isSource(f) && !SIDE_DIRS.test(f) && !isTestPath(f) && !/(^|\/)\./.test(f),
  );
}

/** An existing document to preserve: CHANGELOG.md, else README.md, else the first Markdown file. */
export function docFile(repo: RepoContext): string | undefined {
  return (
    ["CHANGELOG.md", "History.md", "HISTORY.md", "README.md", "readme.md", "readme.markdown", "README"].find(
      (f) => repo.files.includes(f),
    ) ?? repo.files.find((f) => f.endsWith(".md"))
  );
}

/** Test directory (`test`, `tests`, `__tests__`, `spec`) or undefined. */
export function testDir(repo: RepoContext): string | undefined {
  return ["test", "tests", "__tests__", "spec"].find((d) => repo.files.some((f) => f.startsWith(`${d}/`)));
}

/** A directory name under the root that the repository does not already have. */
export function freshDir(repo: RepoContext, preferred: string): string {
  let name = preferred;
  for (let i = 2; repo.files.some((f) => f === name || f.startsWith(`${name}/`)); i++)
    name = `${preferred}-${i}`;
  return name;
}

/** The package's name, from the spec (`npm:minimist@1.2.8` → `minimist`, `../my-app` → `my-app`). */
export function packageName(spec: string): string {
  const npm = /^npm:((?:@[^/]+\/)?[^@]+)/.exec(spec);
  return npm ? npm[1]! : path.basename(path.resolve(spec));
}

/**
 * The value of every repository placeholder this repository can bind; a missing key means it cannot.
 * @param caseKey makes `{{marker}}` unique per case (e.g. the case id)
 */
export function repoBindings(repo: RepoContext, caseKey: string): Partial<Record<RepoPlaceholder, string>> {
  const source = mainFile(repo);
  const tests = testDir(repo);
  const out: Partial<Record<RepoPlaceholder, string>> = {
    package_name: packageName(repo.spec),
    marker: `gauntlet-${sha256(`${repo.spec}\0${caseKey}`).slice(0, 6)}`,
  };
  if (repo.testCommand) out.test_command = repo.testCommand;
  if (source) {
    out.source_file = source;
    out.comment = /\.(py|rb|sh)$/.test(source) ? "#" : "//";
  }
  const second = secondSourceFile(repo);
  if (second) out.source_file_2 = second;
  const doc = docFile(repo);
  if (doc) out.doc_file = doc;
  if (tests) {
    out.test_dir = tests;
    const file = repo.files.find((f) => f.startsWith(`${tests}/`) && isSource(f));
    if (file) out.test_file = file;
  }
  const example =
    repo.files.find((f) => /^(example|examples|bench|benchmark|docs)\//.test(f)) ??
    repo.files.find((f) => /^(LICENSE|LICENCE|AUTHORS|CONTRIBUTING)/i.test(f));
  if (example) out.example_file = example;
  return out;
}

/** What each repository placeholder needs, for rejection reasons. */
export const PLACEHOLDER_NEEDS: Record<RepoPlaceholder, string> = {
  package_name: "package name",
  marker: "case id",
  test_command: "test command",
  source_file: "source file",
  source_file_2: "second production source file",
  doc_file: "document (CHANGELOG.md, README.md, …)",
  test_dir: "test directory",
  test_file: "test file",
  example_file: "unrelated file (example, benchmark, LICENSE)",
  comment: "source file",
};

/**
 * Replace the placeholders in every string of `value` (deep). `{{dir:NAME}}` gets a fresh directory name;
 * run-time placeholders stay.
 * @returns the bound value, or the reason the repository cannot bind it
 */
export function bindPlaceholders<T>(
  value: T,
  repo: RepoContext,
  caseKey: string,
): { value: T } | { missing: string } {
  const bindings = repoBindings(repo, caseKey) as Record<string, string | undefined>;
  let missing: string | undefined;
  const replace = (s: string) =>
    s.replace(PLACEHOLDER, (whole, raw: string) => {
      const name = raw.trim();
      if (RUNTIME_PLACEHOLDER.test(name)) return whole;
      if (name.startsWith("dir:")) return freshDir(repo, name.slice(4));
      const v = bindings[name];
      if (v === undefined) {
        missing ??= `the repository has no ${PLACEHOLDER_NEEDS[name as RepoPlaceholder] ?? name} (for {{${name}}})`;
        return whole;
      }
      return v;
    });
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return replace(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const bound = walk(value) as T;
  return missing ? { missing } : { value: bound };
}
