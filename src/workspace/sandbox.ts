import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
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
): Sandbox {
  const home = os.homedir();
  const hidden = home && home !== "/" && !inside(workspaceRoot, home) ? [home] : [];
  const pathDirs = (process.env.PATH ?? "").split(":").filter((d) => d && existsSync(d));
  // Data directories (shared dependencies) exactly; tool installs on PATH with their whole top-level entry.
  const exact = extraReadable
    .filter((d) => path.isAbsolute(d) && existsSync(d))
    .map((d) => realpathSync.native(d))
    .filter((d) => hidden.some((h) => inside(d, h)));
  const readable = [...new Set([...exact, ...toolRoots(pathDirs, hidden)])];
  // Only the agent's own directories are writable, not the workspace root, which also holds Gauntlet's blob
  // store and owner file.
  const writable = ["repo", "home", "tmp"]
    .map((d) => path.join(workspaceRoot, d))
    .filter((d) => existsSync(d));
  return { kind: "bwrap", bwrap, writable, hidden, readable };
}

/**
 * The directories to keep readable so that `dirs` work inside the sandbox: for each one under a hidden
 * directory, its whole top-level entry there (`~/.pyenv` for `~/.pyenv/shims`, `~/.nvm` for a program in
 * `~/.nvm/versions/…/bin`), because shims and launchers reach siblings of the directory on PATH. Symlinks are
 * resolved, so the real location of a program is exposed too. Secrets in other entries (`~/.ssh`, `~/.aws`,
 * dotfiles) stay hidden.
 */
export function toolRoots(dirs: readonly string[], hidden: readonly string[]): string[] {
  const out = new Set<string>();
  for (const d of dirs) {
    if (!path.isAbsolute(d) || !existsSync(d)) continue;
    for (const candidate of [path.resolve(d), realpathSync.native(d)]) {
      const h = hidden.find((x) => inside(candidate, x) && candidate !== x);
      if (h) out.add(path.join(h, path.relative(h, candidate).split(path.sep)[0]!));
    }
  }
  return [...out].sort();
}

/** `sandbox` with `dirs` kept readable where they lie under a hidden directory (undefined stays undefined). */
export function withReadable(sandbox: Sandbox | undefined, dirs: readonly string[]): Sandbox | undefined {
  if (!sandbox) return undefined;
  const extra = toolRoots(dirs, sandbox.hidden).filter((d) => !sandbox.readable.includes(d));
  return extra.length ? { ...sandbox, readable: [...sandbox.readable, ...extra] } : sandbox;
}

/** The bwrap argument list that confines a command run in `cwd` (order matters: later mounts win). */
export function bwrapArgs(sandbox: Sandbox, cwd: string): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const h of sandbox.hidden) args.push("--tmpfs", h);
  for (const r of sandbox.readable) args.push("--ro-bind", r, r);
  for (const h of sandbox.hidden) args.push("--remount-ro", h);
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
