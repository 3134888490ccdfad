import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { RunResult } from "./process.ts";
import { TESTS_ONLY_SCRIPTS } from "./test-command.ts";

/**
 * Narrowing an npm package's dev dependencies to those its tests use, for when installing all of them
 * fails: a registry mirror often lacks some version of a lint or build tool that running the tests never
 * needs (qs 6.17.1 asks for `@ljharb/eslint-config@^22.2.5`). Everything here but {@link readTestFiles}
 * and the installs {@link installTestDevDependencies} is given is pure.
 */

/** A test file of the package: its package-relative POSIX path and its text. */
export interface TestFile {
  path: string;
  text: string;
}

/** A dependency npm could not resolve, as its error names it. */
export interface Unresolvable {
  /** As npm wrote it, e.g. `@ljharb/eslint-config@^22.2.5` (just the name when npm gave no range). */
  spec: string;
  /** Package name, e.g. `@ljharb/eslint-config`. */
  name: string;
  /** True when the package exists but no version matches (`ETARGET`), false when npm found no package. */
  missingVersion: boolean;
}

/** What `ready.json` records when only the dev dependencies the tests use were installed. */
export interface DevNarrowing {
  /** Dev dependencies not installed, sorted. */
  omittedDevDependencies?: string[];
  /** Dev dependencies installed with a wider range than the manifest's (see {@link sameMajor}). */
  relaxedDevDependencies?: Record<string, string>;
}

/** What {@link installTestDevDependencies} needs of an npm run. */
export type NpmRun = Pick<RunResult, "exitCode" | "timedOut" | "stderr">;

/** Outcome of {@link installTestDevDependencies}. */
export type NarrowedInstall =
  | {
      ok: true;
      /** What to record in `ready.json`. */
      record: DevNarrowing;
      /** One line for the user: what failed, what was installed instead. */
      summary: string;
    }
  | {
      ok: false;
      /** The npm run to report: the full install's, or the last narrowed one's. */
      failed: NpmRun;
      /** What to say before npm's reason, e.g. `dependency x@^1: ` (may be empty). */
      context: string;
    };

/** Installs tried with only the tests' dev dependencies, each widening or leaving out one npm cannot resolve. */
export const MAX_NARROWED_INSTALLS = 5;

/** Scripts whose programs the tests need, besides those they name with `npm run <script>`. */
const TEST_SCRIPTS: readonly string[] = [...TESTS_ONLY_SCRIPTS, "test"];
const TEST_DIRS = new Set(["test", "tests", "__tests__"]);
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const TEST_FILE = /\.(?:test|spec)\.(?:[cm]?[jt]s|[jt]sx)$/;
const TYPESCRIPT_FILE = /\.(?:[cm]?ts|tsx)$/;
/** Bounds on what {@link readTestFiles} reads, so a huge fixture tree cannot stall preparation. */
const MAX_FILES = 5000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_DEPTH = 12;
/** `require('x')`, `require.resolve('x')`, `import('x')`, `import … from 'x'`, `export … from 'x'`, `import 'x'`. */
const MODULE_REFERENCE =
  /\brequire(?:\.resolve)?\s*\(\s*(['"`])([^'"`\n]+)\1\s*[,)]|\bimport\s*\(\s*(['"`])([^'"`\n]+)\3\s*[,)]|\bfrom\s*(['"])([^'"\n]+)\5|\bimport\s*(['"])([^'"\n]+)\7/g;
const PACKAGE_SPECIFIER = /^(@[a-z0-9][\w.~-]*\/[a-z0-9][\w.~-]*|[a-z0-9][\w.~-]*)(?:\/|$)/i;

/**
 * The dev dependencies the tests need, sorted: those the test files require or import, those named as
 * programs in the test scripts (a bin counts when a dev dependency has its name, as `tape` and `nyc` do),
 * the `@types/` package of each of those, and `typescript` and `@types/node` when a test file is TypeScript.
 */
export function testDevDependencies(
  manifest: Record<string, unknown>,
  testFiles: readonly TestFile[],
): string[] {
  const dev = stringRecord(manifest.devDependencies);
  const wanted = new Set<string>();
  for (const file of testFiles) for (const name of importedPackages(file.text)) wanted.add(name);
  for (const name of scriptPrograms(stringRecord(manifest.scripts))) wanted.add(name);
  for (const name of [...wanted]) wanted.add(typesPackage(name));
  if (testFiles.some((f) => TYPESCRIPT_FILE.test(f.path))) wanted.add("typescript").add("@types/node");
  return Object.keys(dev)
    .filter((name) => wanted.has(name))
    .sort();
}

/** Package names a JavaScript or TypeScript text requires or imports (bare specifiers only, no `node:`). */
export function importedPackages(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(MODULE_REFERENCE)) {
    const name = packageName(m[2] ?? m[4] ?? m[6] ?? m[8] ?? "");
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** The package a bare specifier names (`x/y` → `x`, `@s/x/y` → `@s/x`); undefined for relative paths, `node:`… */
export function packageName(specifier: string): string | undefined {
  return PACKAGE_SPECIFIER.exec(specifier)?.[1];
}

/**
 * Words of the test scripts ({@link TEST_SCRIPTS}, and the scripts they run with `npm run <name>`) that
 * could name a package: `nyc tape 'test/**\/*.js'` → nyc, tape, test. Callers keep those that are dev
 * dependencies.
 */
export function scriptPrograms(scripts: Record<string, string>): Set<string> {
  const names = new Set<string>();
  const queue = TEST_SCRIPTS.filter((s) => scripts[s] !== undefined);
  const seen = new Set(queue);
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
    const words = (scripts[script] ?? "")
      .split(/[\s;&|()<>]+/)
      .map((w) => w.replace(/^['"]|['"]$/g, "").replace(/^--?[\w-]+=/, ""))
      .filter(Boolean);
    words.forEach((word, i) => {
      const name = packageName(word);
      if (name !== undefined) names.add(name);
      const runs =
        /^(?:npm|pnpm|yarn)$/.test(words[i - 2] ?? "") && /^run(?:-script)?$/.test(words[i - 1] ?? "");
      const ran = runs ? word : undefined;
      if (ran !== undefined && scripts[ran] !== undefined && !seen.has(ran)) {
        seen.add(ran);
        queue.push(ran);
      }
    });
  }
  return names;
}

/**
 * The package's test files: every JavaScript or TypeScript file under a `test/`, `tests/` or `__tests__/`
 * directory, and every `*.test.*` or `*.spec.*` file (`node_modules` and dot-directories skipped, at most
 * {@link MAX_FILES} files of at most {@link MAX_FILE_BYTES} each).
 */
export function readTestFiles(packageDir: string): TestFile[] {
  const found: TestFile[] = [];
  const walk = (rel: string, inTestDir: boolean, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path.join(packageDir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (found.length >= MAX_FILES) return;
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name.startsWith(".") || depth >= MAX_DEPTH) continue;
        walk(child, inTestDir || TEST_DIRS.has(entry.name), depth + 1);
      } else if (
        entry.isFile() &&
        SOURCE_FILE.test(entry.name) &&
        (inTestDir || TEST_FILE.test(entry.name))
      ) {
        const full = path.join(packageDir, child);
        try {
          if (statSync(full).size <= MAX_FILE_BYTES)
            found.push({ path: child, text: readFileSync(full, "utf8") });
        } catch {
          // Unreadable: it cannot need anything.
        }
      }
    }
  };
  walk("", false, 0);
  return found;
}

/**
 * True when npm failed because a dependency (or a version of it) is not in the registry, as opposed to
 * the network, a timeout, or a broken tarball: `E404`, `ETARGET` (`notarget`), `ENOVERSIONS`.
 */
export function isResolutionFailure(stderr: string): boolean {
  return /\bcode (?:E404|ETARGET|ENOVERSIONS)\b|\bnotarget\b|No matching version found for|No versions available for|is not in this registry|404 Not Found/.test(
    stderr,
  );
}

/** The dependency npm's error says it could not resolve, if it names one. */
export function parseUnresolvable(stderr: string): Unresolvable | undefined {
  const spec =
    /No matching version found for (.+?)\.?\s*$/m.exec(stderr)?.[1] ??
    /No versions available for (.+?)\.?\s*$/m.exec(stderr)?.[1] ??
    /404\s+(?:The requested resource )?'([^'\s]+)' (?:is not in this registry|could not be found)/.exec(
      stderr,
    )?.[1] ??
    registryPathName(/404 Not Found - GET (\S+)/.exec(stderr)?.[1]);
  if (spec === undefined) return undefined;
  const at = spec.indexOf("@", 1);
  const name = at < 0 ? spec : spec.slice(0, at);
  const missingVersion = /No matching version found for/.test(stderr);
  return packageName(name) === name ? { spec, name, missingVersion } : undefined;
}

/** The package a registry URL is about: `…/@s%2fx` → `@s/x`, `…/x/-/x-1.0.0.tgz` → `x`. */
function registryPathName(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url).pathname.replace(/\/-\/.*$/, ""));
  } catch {
    return undefined;
  }
  return /(@[^/]+\/[^/]+|[^/@][^/]*)$/.exec(pathname)?.[1];
}

/** `@types/x` for `x`, `@types/s__x` for `@s/x`. */
function typesPackage(name: string): string {
  return name.startsWith("@") ? `@types/${name.slice(1).replace("/", "__")}` : `@types/${name}`;
}

/** The string-valued entries of a manifest field (`{}` when it is missing or not an object). */
export function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  }
  return out;
}

/**
 * After the full install `failed`: when npm could not resolve a dependency that is not a runtime one
 * (`dependencies`, `optionalDependencies`, `peerDependencies`), `install` again with `devDependencies`
 * narrowed to {@link testDevDependencies}. While npm cannot resolve one of those (the one that failed
 * first included), retry with its range widened to {@link sameMajor} when npm lacked just that version,
 * else without it, up to {@link MAX_NARROWED_INSTALLS} installs. `install` gets the dev dependencies to
 * write (the other fields stay as the manifest has them); `testFiles` is read only when needed.
 */
export async function installTestDevDependencies(
  manifest: Record<string, unknown>,
  testFiles: () => readonly TestFile[],
  failed: NpmRun,
  install: (devDependencies: Record<string, string>) => Promise<NpmRun>,
): Promise<NarrowedInstall> {
  const dev = stringRecord(manifest.devDependencies);
  const first = resolutionFailure(failed);
  const runtime = (name: string) =>
    dev[name] === undefined &&
    ["dependencies", "optionalDependencies", "peerDependencies"].some(
      (f) => stringRecord(manifest[f])[name] !== undefined,
    );
  if (
    first === undefined ||
    Object.keys(dev).length === 0 ||
    (first.name !== undefined && runtime(first.name))
  )
    return { ok: false, failed, context: dependencyContext(first) };

  const ranges = Object.fromEntries(testDevDependencies(manifest, testFiles()).map((n) => [n, dev[n]!]));
  const relaxed: Record<string, string> = {};
  const notes: string[] = [];
  /** Widen the range of a dev dependency the tests use that npm could not resolve, else leave it out. */
  const adjust = ({ spec, name, missingVersion }: Unresolvable): void => {
    const wider = missingVersion && relaxed[name] === undefined ? sameMajor(ranges[name]!) : undefined;
    if (wider === undefined) {
      delete ranges[name];
      delete relaxed[name];
      notes.push(`without ${spec}, which is not in the registry`);
    } else {
      ranges[name] = relaxed[name] = wider;
      notes.push(`${name}@${wider} instead of ${spec}, which is not in the registry`);
    }
  };
  if (first.name !== undefined && ranges[first.name] !== undefined) adjust(first);
  for (let attempt = 1; ; attempt++) {
    const r = await install({ ...ranges });
    if (r.exitCode === 0 && !r.timedOut) break;
    const next = resolutionFailure(r);
    if (next?.name === undefined || ranges[next.name] === undefined || attempt >= MAX_NARROWED_INSTALLS) {
      const count = Object.keys(ranges).length;
      const context = `${first.spec} is not in the npm registry, and with only the ${count} dev dependencies the tests use: ${dependencyContext(next)}`;
      return { ok: false, failed: r, context };
    }
    adjust(next);
  }
  const installed = Object.keys(ranges).length;
  return {
    ok: true,
    record: {
      omittedDevDependencies: Object.keys(dev)
        .filter((name) => ranges[name] === undefined)
        .sort(),
      ...(Object.keys(relaxed).length > 0 ? { relaxedDevDependencies: relaxed } : {}),
    },
    summary: `full dev install failed (${first.spec} not in the registry); installed the ${installed} dev dependencies the tests use${notes.length ? ` (${notes.join("; ")})` : ""}`,
  };
}

/**
 * The whole major (minor for 0.x) of a single-version range, e.g. `^5.10.3` → `^5`, `=10.3.7` → `^10`,
 * `~0.5.2` → `^0.5`; undefined for other ranges (`||`, `>=`, tags, URLs…) or when that is no wider.
 */
export function sameMajor(range: string): string | undefined {
  const m = /^[\^~=v]*\s*(\d+)(?:\.(\d+|x|\*)(?:\.(?:\d+|x|\*))?)?(?:-[\w.-]+)?$/.exec(range.trim());
  if (!m) return undefined;
  const wider =
    m[1] !== "0" ? `^${m[1]}` : m[2] !== undefined && /^\d+$/.test(m[2]) ? `^0.${m[2]}` : undefined;
  return wider === range.trim() ? undefined : wider;
}

/** For a run that failed because npm could not resolve a dependency: which one (name unknown if unnamed). */
function resolutionFailure(r: NpmRun): Unresolvable | { spec: string; name: undefined } | undefined {
  if (r.timedOut || !isResolutionFailure(r.stderr)) return undefined;
  return parseUnresolvable(r.stderr) ?? { spec: "a dependency", name: undefined };
}

/** `dependency x@^1: ` to put before npm's reason, naming what it could not resolve (empty if unnamed). */
function dependencyContext(failure: { spec: string; name: string | undefined } | undefined): string {
  return failure?.name === undefined ? "" : `dependency ${failure.spec}: `;
}
