import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isInsidePath as inside } from "../core/paths.ts";
import type { CommandSpec } from "./process.ts";

/**
 * Filesystem sandbox for agent processes (bubblewrap, Debian `bubblewrap`): the whole filesystem is mounted
 * read-only except the case workspace (which holds the agent's own HOME and TMPDIR); the user's real HOME is
 * replaced by an empty read-only directory, so its files can be neither read nor written; processes live in
 * their own PID namespace, so none outlives the sandbox; the network is shared, so a model endpoint on
 * 127.0.0.1 stays reachable. A write outside the workspace fails with "Read-only file system".
 */

/** How agent processes are confined. */
export interface Sandbox {
  kind: "bwrap";
  /** Path of the bwrap program. */
  bwrap: string;
  /** Directories mounted read-write (the workspace root). */
  writable: string[];
  /** Directories replaced by an empty read-only directory (the user's real HOME). */
  hidden: string[];
  /** Directories under a hidden one that stay readable (dependencies, programs on PATH, the agent's install). */
  readable: string[];
  /**
   * Directories replaced by an empty read-only directory like `hidden`, but not the user's, so a reach into
   * them is not reported: Gauntlet's run store, which holds every case's expected outcomes.
   */
  masked?: string[];
}

let probed: string | null | undefined;

/**
 * The bwrap program when it is installed and works here (user namespaces allowed), else undefined. Probed
 * once per process by running `bwrap --ro-bind / / true`.
 */
export function detectBwrap(): string | undefined {
  if (probed !== undefined) return probed ?? undefined;
  probed = null;
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const candidate = path.join(dir || ".", "bwrap");
    if (!existsSync(candidate)) continue;
    try {
      execFileSync(candidate, ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "true"], {
        stdio: "ignore",
        timeout: 10_000,
      });
      probed = candidate;
    } catch {
      // Present but not usable (e.g. user namespaces disabled).
    }
    break;
  }
  return probed ?? undefined;
}

/**
 * A sandbox for an agent working in `workspaceRoot`.
 * @param extraReadable directories that must stay readable although they lie under the real HOME (e.g. the
 *   shared dependencies, an agent installed in Gauntlet's cache)
 */
export function makeSandbox(
  bwrap: string,
  workspaceRoot: string,
  extraReadable: readonly string[] = [],
  masked: readonly string[] = [],
): Sandbox {
  const home = os.homedir();
  const hidden = home && home !== "/" && !inside(workspaceRoot, home) ? [home] : [];
  const pathDirs = (process.env.PATH ?? "").split(":").filter((d) => d && existsSync(d));
  // Data directories (shared dependencies) exactly; tool directories on PATH with what they need (toolRoots).
  const exact = extraReadable
    .filter((d) => path.isAbsolute(d) && existsSync(d))
    .map((d) => realpathSync.native(d))
    .filter((d) => hidden.some((h) => inside(d, h)));
  const readable = [...new Set([...exact, ...toolRoots(pathDirs, hidden)])];
  // Only the agent's own directories are writable (its repository, HOME, TMPDIR and, when a case has one, its
  // local bare git remote), not the workspace root, which also holds Gauntlet's blob store and owner file.
  const writable = ["repo", "home", "tmp", "remote.git"]
    .map((d) => path.join(workspaceRoot, d))
    .filter((d) => existsSync(d));
  // A masked directory must exist, and must not hold the workspace (its writable mounts would vanish).
  const masks = masked
    .filter((d) => path.isAbsolute(d) && existsSync(d))
    .map((d) => realpathSync.native(d))
    .filter((d) => d !== "/" && !inside(workspaceRoot, d) && !(home && inside(home, d)));
  return { kind: "bwrap", bwrap, writable, hidden, readable, masked: masks };
}

/** Entries of a PATH directory looked at for symlinks into other places (bounded: a huge bin dir is rare). */
const MAX_BIN_ENTRIES = 2_000;

/**
 * The root of the installation a program lives in: its directory, or the directory above a `bin` (a
 * package, a virtualenv, a versioned runtime), so that its libraries come along.
 */
function installRoot(programDir: string): string {
  return path.basename(programDir) === "bin" ? path.dirname(programDir) : programDir;
}

/**
 * Directories a program given by path needs readable: where the path points, and the installation its real
 * location belongs to (see {@link installRoot}). A bare name (looked up on PATH) needs none of its own.
 */
export function programDirs(program: string): string[] {
  if (!program.includes("/")) return [];
  const dirs = [path.dirname(path.resolve(program))];
  try {
    dirs.push(installRoot(path.dirname(realpathSync.native(program))));
  } catch {
    // Missing: the run reports it.
  }
  return dirs;
}

/**
 * The directories to keep readable so that the tool directories `dirs` (PATH entries under a hidden HOME)
 * work inside the sandbox, and no more of HOME than that:
 * - the directory itself (and its real location);
 * - for `node_modules/.bin`, the `node_modules` holding the packages;
 * - for a runtime version manager's directories (`…/versions/…/bin`, `~/.pyenv/shims`, `~/.rbenv/shims`, …),
 *   the manager's own root (shims exec the manager, which reads its versions);
 * - for `~/.cargo/bin`, `~/.rustup` (the proxies there run its toolchains) — not the rest of `~/.cargo`,
 *   which holds `credentials.toml`;
 * - for each symlink in the directory that points elsewhere under HOME (pipx, npm globals), the
 *   installation it points into.
 * Everything else of HOME — `~/.ssh`, `~/.aws`, `~/.cache`, `~/.config`, `~/.cargo/credentials.toml`,
 * dotfiles — stays hidden. `extraExact` directories (an agent's install, shared dependencies) are kept as given.
 */
export function toolRoots(dirs: readonly string[], hidden: readonly string[]): string[] {
  const out = new Set<string>();
  const underHidden = (d: string) => hidden.find((h) => inside(d, h) && d !== h);
  const add = (d: string) => {
    if (underHidden(d) && existsSync(d)) out.add(d);
  };
  for (const d of dirs) {
    if (!path.isAbsolute(d) || !existsSync(d)) continue;
    for (const dir of new Set([path.resolve(d), realpathSync.native(d)])) {
      const h = underHidden(dir);
      if (!h) continue;
      add(dir);
      const base = path.basename(dir);
      if (base === ".bin") add(path.dirname(dir));
      const rel = path.relative(h, dir).split(path.sep);
      if (base === "shims" || rel.includes("versions")) add(path.join(h, rel[0]!));
      if (rel[0] === ".cargo" && base === "bin") add(path.join(h, ".rustup"));
      let entries: string[] = [];
      try {
        entries = readdirSync(dir).slice(0, MAX_BIN_ENTRIES);
      } catch {
        continue;
      }
      for (const name of entries) {
        const entry = path.join(dir, name);
        try {
          if (!lstatSync(entry).isSymbolicLink()) continue;
          const target = path.dirname(realpathSync.native(entry));
          if (!inside(target, dir)) add(installRoot(target));
        } catch {
          // Dangling link: nothing to expose.
        }
      }
    }
  }
  return [...out].sort();
}

/**
 * `sandbox` with `dirs` (an agent's own installation and program directories, given exactly) kept readable
 * where they lie under a hidden directory; a program's real location brings its installation root. Undefined
 * stays undefined.
 */
export function withReadable(sandbox: Sandbox | undefined, dirs: readonly string[]): Sandbox | undefined {
  if (!sandbox) return undefined;
  const extra = [
    ...new Set(
      dirs
        .filter((d) => path.isAbsolute(d) && existsSync(d))
        .flatMap((d) => [path.resolve(d), realpathSync.native(d)])
        .filter((d) => sandbox.hidden.some((h) => inside(d, h) && d !== h)),
    ),
  ].filter((d) => !sandbox.readable.some((r) => inside(d, r)));
  return extra.length ? { ...sandbox, readable: [...sandbox.readable, ...extra] } : sandbox;
}

/** The bwrap argument list that confines a command run in `cwd` (order matters: later mounts win). */
export function bwrapArgs(sandbox: Sandbox, cwd: string): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  const covered = [...sandbox.hidden, ...(sandbox.masked ?? [])];
  for (const h of covered) args.push("--tmpfs", h);
  for (const r of sandbox.readable) args.push("--ro-bind", r, r);
  for (const h of covered) args.push("--remount-ro", h);
  for (const w of sandbox.writable) args.push("--bind", w, w);
  args.push("--unshare-pid", "--die-with-parent", "--new-session", "--chdir", cwd);
  return args;
}

/** `spec` run inside the sandbox (unchanged when `sandbox` is undefined). */
export function confine(spec: CommandSpec, sandbox: Sandbox | undefined, cwd: string): CommandSpec {
  if (!sandbox) return spec;
  const inner =
    "shell" in spec ? ["bash", "--norc", "--noprofile", "-c", spec.shell] : [spec.file, ...spec.args];
  return { file: sandbox.bwrap, args: [...bwrapArgs(sandbox, cwd), "--", ...inner] };
}
