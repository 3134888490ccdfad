import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { InputError, isErrnoCode, SetupError } from "../core/errors.ts";
import { type DevNarrowing, installTestDevDependencies, readTestFiles } from "./npm-test-deps.ts";
import { type RunResult, runProcess } from "./process.ts";

/**
 * npm packages as repository sources: `npm pack` the tarball, extract it to `package/`, and install its
 * dependencies (dev included, lifecycle scripts not run) into a sibling `node_modules/`, so the pristine
 * `package/` never holds dependencies and each workspace only symlinks them. Prepared entries are cached
 * under `<cache>/sources/npm/<name>@<version>/` and reused across runs. When some dev dependency is not in
 * the registry (mirrors lag), only those the tests use are installed; `ready.json` lists the others in
 * `omittedDevDependencies` (see `npm-test-deps.ts`).
 */

/** A parsed `npm:` source spec. */
export interface NpmSpec {
  /** Package name, possibly scoped (`@scope/name`). */
  name: string;
  /** Exact version, dist-tag or range as written; `undefined` means the `latest` tag. */
  version: string | undefined;
}

/** A prepared cache entry. */
export interface NpmCacheEntry {
  /** The entry's directory: holds `package/`, maybe `node_modules/`, and `ready.json`. */
  dir: string;
  name: string;
  /** Exact version. */
  version: string;
  /** True when it was already prepared (nothing fetched). */
  cached: boolean;
}

/** Options for {@link prepareNpmSource}. */
export interface NpmSourceOptions {
  /** Gauntlet's cache root (see {@link gauntletCacheDir}). */
  cacheDir?: string;
  /** Called with one line per slow step (download, install). */
  onProgress?: (message: string) => void;
}

const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;
const EXACT = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const RANGE = /^[0-9A-Za-z.^~<>=*|+ -]+$/;
/** `ready.json`'s format; the optional fields of {@link DevNarrowing} were added without changing it. */
const FORMAT_VERSION = 1;
/** Temp and stale directories older than this are left-overs of a crash and are removed, ms. */
const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * Parse `npm:<name>[@<version>]` (the `npm:` prefix already checked by the caller).
 * @throws InputError when the name or version is malformed
 */
export function parseNpmSpec(spec: string): NpmSpec {
  const body = spec.slice("npm:".length);
  const at = body.indexOf("@", body.startsWith("@") ? 1 : 0);
  const name = at < 0 ? body : body.slice(0, at);
  const version = at < 0 ? undefined : body.slice(at + 1);
  if (!NAME.test(name)) {
    throw new InputError(
      {},
      `"${spec}" is not a valid npm package name`,
      "write npm:<name>@<version>, e.g. npm:minimist@1.2.8",
    );
  }
  if (version !== undefined && (version === "" || !RANGE.test(version))) {
    throw new InputError(
      {},
      `"${spec}" has an invalid version "${version}"`,
      "write npm:<name>@<version>, e.g. npm:minimist@1.2.8",
    );
  }
  return { name, version };
}

/**
 * Gauntlet's cache root: `cacheDir` if given, else `$GAUNTLET_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/gauntlet`, else `~/.cache/gauntlet`.
 */
export function gauntletCacheDir(cacheDir?: string): string {
  if (cacheDir) return path.resolve(cacheDir);
  if (process.env.GAUNTLET_CACHE_DIR) return path.resolve(process.env.GAUNTLET_CACHE_DIR);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "gauntlet");
}

/**
 * Make sure `npm:<name>@<version>` is prepared in the cache and return its entry. An exact version that is
 * already cached needs no network; a range or tag (or none: `latest`) is resolved with `npm view` first.
 *
 * Safe to run concurrently: each preparation happens in its own temp directory, `ready.json` is written
 * last, and the directory is renamed into place atomically; the loser of a race uses the winner's entry.
 *
 * @throws SetupError naming the spec when the package or version does not exist, the registry cannot be
 *   reached, or installing its dependencies fails
 */
export async function prepareNpmSource(
  spec: NpmSpec,
  options: NpmSourceOptions = {},
): Promise<NpmCacheEntry> {
  const progress = options.onProgress ?? (() => {});
  const version =
    spec.version !== undefined && EXACT.test(spec.version) ? spec.version : await resolveVersion(spec);
  const label = `npm:${spec.name}@${version}`;
  const parent = path.join(gauntletCacheDir(options.cacheDir), "sources", "npm");
  const key = `${spec.name.replace("/", "+")}@${version}`;
  const dir = path.join(parent, key);
  if (isReady(dir)) return { dir, name: spec.name, version, cached: true };

  mkdirSync(parent, { recursive: true });
  removeLeftovers(parent);
  const tmp = mkdtempSync(path.join(parent, `.tmp-${key}-`));
  try {
    progress(`${label}: downloading from the npm registry`);
    const packed = await npm(
      ["pack", `${spec.name}@${version}`, "--json", "--ignore-scripts", "--pack-destination", tmp],
      tmp,
      label,
      120_000,
    );
    const tarball = path.join(tmp, tarballName(packed.stdout, tmp));
    const extractDir = path.join(tmp, "extract");
    mkdirSync(extractDir);
    const untar = await runProcess(
      { file: "tar", args: ["-xzf", tarball, "-C", extractDir, "--no-same-owner"] },
      { cwd: tmp, env: process.env, timeoutMs: 120_000 },
    );
    if (untar.exitCode !== 0)
      throw new SetupError(`${label}: could not extract ${tarball}: ${firstLine(untar.stderr)}`);
    renameSync(packageRoot(extractDir), path.join(tmp, "package"));
    rmSync(extractDir, { recursive: true, force: true });

    const manifest = readManifest(path.join(tmp, "package"), label);
    const count = dependencyCount(manifest);
    let narrowed: DevNarrowing = {};
    if (count > 0) {
      progress(`${label}: installing ${count} direct dependencies (dev included, scripts off)`);
      narrowed = await installDependencies(manifest, tmp, label, progress);
    }
    const ready = { formatVersion: FORMAT_VERSION, spec: label, name: spec.name, version };
    writeFileSync(
      path.join(tmp, "ready.json"),
      `${JSON.stringify({ ...ready, preparedAt: new Date().toISOString(), ...narrowed }, null, 2)}\n`,
    );
    chmodSync(tmp, 0o755); // mkdtemp made it private; sandboxed agents may run as another user.
    publish(tmp, dir);
    progress(`${label}: cached at ${dir}`);
    return { dir, name: spec.name, version, cached: false };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** True when `dir` holds a completely prepared entry (its `ready.json`, written last, is valid). */
function isReady(dir: string): boolean {
  try {
    const marker = JSON.parse(readFileSync(path.join(dir, "ready.json"), "utf8")) as {
      formatVersion?: unknown;
    };
    return marker.formatVersion === FORMAT_VERSION && existsSync(path.join(dir, "package"));
  } catch {
    return false;
  }
}

/** Move the prepared `tmp` to `dir`; an unready `dir` (crash, older format) is moved aside first. */
function publish(tmp: string, dir: string): void {
  if (existsSync(dir) && !isReady(dir)) {
    const aside = `${path.dirname(dir)}/.stale-${path.basename(dir)}-${process.pid}-${Date.now()}`;
    try {
      renameSync(dir, aside);
      rmSync(aside, { recursive: true, force: true });
    } catch (error) {
      if (!isErrnoCode(error, "ENOENT")) throw error;
    }
  }
  try {
    renameSync(tmp, dir);
  } catch (error) {
    // Another process published first: use its entry.
    if ((isErrnoCode(error, "ENOTEMPTY") || isErrnoCode(error, "EEXIST")) && isReady(dir)) return;
    throw error;
  }
}

/** Remove temp and stale directories that a crashed preparation left behind. */
function removeLeftovers(parent: string): void {
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(".tmp-") && !name.startsWith(".stale-")) continue;
    const full = path.join(parent, name);
    try {
      if (Date.now() - statSync(full).mtimeMs > STALE_AFTER_MS)
        rmSync(full, { recursive: true, force: true });
    } catch {
      // Removed by someone else meanwhile.
    }
  }
}

async function resolveVersion(spec: NpmSpec): Promise<string> {
  const wanted = `${spec.name}@${spec.version ?? "latest"}`;
  const label = `npm:${wanted}`;
  const r = await npm(["view", wanted, "version", "--json"], os.tmpdir(), label, 60_000);
  let versions: unknown;
  try {
    versions = r.stdout.trim() === "" ? [] : JSON.parse(r.stdout);
  } catch {
    throw new SetupError(`${label}: unexpected answer from npm view: ${firstLine(r.stdout)}`);
  }
  const list = (Array.isArray(versions) ? versions : [versions]).filter(
    (v): v is string => typeof v === "string",
  );
  const last = list.at(-1);
  if (last === undefined || !EXACT.test(last)) {
    throw new SetupError(
      `${label}: no published version matches`,
      `list the versions with: npm view ${spec.name} versions`,
    );
  }
  return last;
}

/**
 * Variables a parent `npm run` sets for its script (we may be running under `npm test`); they describe
 * that other package and must not leak into ours. The user's own `npm_config_*` settings (registry, proxy,
 * cafile…) are kept.
 */
const PARENT_NPM_VARS =
  /^npm_(lifecycle_|package_|command$|execpath$|node_execpath$|config_local_prefix$|config_global$)/i;

/** Run npm (parent-script variables removed, no update notices); throw SetupError on failure. */
async function npm(args: string[], cwd: string, label: string, timeoutMs: number): Promise<RunResult> {
  const r = await runNpm(args, cwd, label, timeoutMs);
  if (succeeded(r)) return r;
  throw npmError(r, args, cwd, label, timeoutMs);
}

/** Run npm like {@link npm} but return a failed run too; throw SetupError only when npm cannot be started. */
async function runNpm(args: string[], cwd: string, label: string, timeoutMs: number): Promise<RunResult> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!PARENT_NPM_VARS.test(k)) env[k] = v;
  Object.assign(env, {
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  });
  try {
    return await runProcess({ file: "npm", args }, { cwd, env, timeoutMs, maxOutputBytes: 4 * 1024 * 1024 });
  } catch (error) {
    throw new SetupError(
      `${label}: cannot run npm: ${(error as Error).message}`,
      "install Node.js with npm and put npm on PATH",
      { cause: error },
    );
  }
}

function succeeded(r: Pick<RunResult, "exitCode" | "timedOut">): boolean {
  return r.exitCode === 0 && !r.timedOut;
}

/** The SetupError for a failed npm run; `context`, if given, follows the label. */
function npmError(
  r: Pick<RunResult, "timedOut" | "stderr">,
  args: string[],
  cwd: string,
  label: string,
  timeoutMs: number,
  context = "",
) {
  const why = r.timedOut ? `npm ${args[0]} timed out after ${timeoutMs / 1000} s` : npmFailure(r.stderr);
  return new SetupError(`${label}: ${context}${why}`, npmHint(r.stderr, `npm ${args.join(" ")}`, cwd));
}

function npmFailure(stderr: string): string {
  if (/E404|404 Not Found|No match found/.test(stderr)) return "not found in the npm registry";
  if (isOffline(stderr)) return "the npm registry cannot be reached";
  if (/ETARGET/.test(stderr)) return "no version matching it in the npm registry";
  // npm's own explanation: its error lines, without the code line and the log pointers (at most 3).
  const lines = stderr
    .split("\n")
    .filter(
      (l) =>
        /npm (error|ERR!)/.test(l) &&
        !/A complete log|npm (error|ERR!) code\b|^\s*npm (error|ERR!)\s*$/.test(l),
    )
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, "").trim())
    .filter(Boolean)
    .slice(0, 3);
  return lines.length ? lines.join(" — ") : firstLine(stderr) || "npm failed";
}

function npmHint(stderr: string, command: string, cwd: string): string {
  if (/E404|404 Not Found|No match found|ETARGET/.test(stderr))
    return "check the package name and version (npm view <name> versions)";
  if (isOffline(stderr))
    return "check the network or the registry setting (npm config get registry), or use a local directory";
  return `to see the whole error, run \`${command}\` in ${cwd}`;
}

function isOffline(stderr: string): boolean {
  return /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|ECONNRESET|EHOSTUNREACH|network/i.test(
    stderr,
  );
}

function firstLine(text: string): string {
  return (text.trim().split("\n")[0] ?? "").trim().slice(0, 300);
}

function tarballName(packJson: string, dir: string): string {
  try {
    const parsed = JSON.parse(packJson) as { filename?: unknown }[];
    const name = parsed[0]?.filename;
    if (typeof name === "string" && existsSync(path.join(dir, name))) return name;
  } catch {
    // Fall back to looking.
  }
  const found = readdirSync(dir).find((n) => n.endsWith(".tgz"));
  if (found === undefined) throw new SetupError(`npm pack wrote no tarball into ${dir}`);
  return found;
}

/** The package's top directory inside an extracted tarball (`package/` by convention, not always). */
function packageRoot(extractDir: string): string {
  const entries = readdirSync(extractDir, { withFileTypes: true });
  const only = entries[0];
  if (entries.length === 1 && only?.isDirectory()) return path.join(extractDir, only.name);
  return extractDir;
}

type Manifest = Record<string, unknown>;

function readManifest(packageDir: string, label: string): Manifest {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Manifest;
  } catch (error) {
    throw new SetupError(`${label}: the tarball has no readable package.json`, undefined, { cause: error });
  }
  throw new SetupError(`${label}: the tarball's package.json is not an object`);
}

const DEPENDENCY_FIELDS = [
  "dependencies",
  "devDependencies",
  "optionalDependencies",
  "peerDependencies",
] as const;

function dependencyCount(manifest: Manifest): number {
  const names = new Set<string>();
  for (const field of DEPENDENCY_FIELDS) {
    const deps = manifest[field];
    if (typeof deps === "object" && deps !== null) for (const n of Object.keys(deps)) names.add(n);
  }
  return names.size;
}

/**
 * Install the package's dependencies in a scratch directory holding only the dependency fields of its
 * package.json (no scripts, no workspaces, no .npmrc), then move the resulting `node_modules` to `<into>/`.
 *
 * When that fails because npm cannot resolve some dependency (the registry lacks it or the version asked
 * for), retry with `devDependencies` narrowed to those the tests use, the other fields unchanged (see
 * {@link installTestDevDependencies}). Any other failure throws as before.
 *
 * @returns what was narrowed, for `ready.json` (nothing when the full install worked)
 */
async function installDependencies(
  manifest: Manifest,
  into: string,
  label: string,
  progress: (message: string) => void,
): Promise<DevNarrowing> {
  const scratch = path.join(into, "install");
  mkdirSync(scratch);
  const first = await installInto(scratch, manifest, label);
  let narrowing: DevNarrowing = {};
  if (!succeeded(first)) {
    const narrowed = await installTestDevDependencies(
      manifest,
      () => readTestFiles(path.join(into, "package")),
      first,
      (devDependencies) => {
        rmSync(path.join(scratch, "node_modules"), { recursive: true, force: true });
        return installInto(scratch, { ...manifest, devDependencies }, label);
      },
    );
    if (!narrowed.ok)
      throw npmError(narrowed.failed, INSTALL_ARGS, scratch, label, INSTALL_TIMEOUT_MS, narrowed.context);
    progress(`${label}: ${narrowed.summary}`);
    narrowing = narrowed.record;
  }
  const modules = path.join(scratch, "node_modules");
  if (existsSync(modules)) renameSync(modules, path.join(into, "node_modules"));
  rmSync(scratch, { recursive: true, force: true });
  return narrowing;
}

const INSTALL_ARGS = [
  "install",
  "--ignore-scripts",
  "--no-audit",
  "--no-fund",
  "--no-package-lock",
  "--include=dev",
  "--prefer-offline",
  "--loglevel=error",
];
const INSTALL_TIMEOUT_MS = 600_000;

/** Write the dependency fields of `manifest` to `<scratch>/package.json` and run `npm install` there. */
async function installInto(scratch: string, manifest: Manifest, label: string): Promise<RunResult> {
  const minimal: Manifest = { name: "gauntlet-deps", version: "0.0.0", private: true };
  for (const field of [...DEPENDENCY_FIELDS, "peerDependenciesMeta", "overrides"]) {
    if (manifest[field] !== undefined) minimal[field] = manifest[field];
  }
  writeFileSync(path.join(scratch, "package.json"), `${JSON.stringify(minimal, null, 2)}\n`);
  return runNpm(INSTALL_ARGS, scratch, label, INSTALL_TIMEOUT_MS);
}
