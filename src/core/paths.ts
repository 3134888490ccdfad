import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Why `p` is not a safe workspace-relative path, or `undefined` when it is. Safe: non-empty, relative
 * (no leading `/`, `\`, or drive letter), POSIX separators, no `..` segment, no NUL, at most 240 chars
 * (ABTest §3.3: "workspace-relative paths only, no traversal").
 */
export function unsafePathReason(p: string): string | undefined {
  if (p.length === 0) return "path is empty";
  if (p.length > 240) return "path is longer than 240 characters";
  if (p.includes("\0")) return "path contains a NUL byte";
  if (p.startsWith("/") || p.startsWith("\\") || /^[A-Za-z]:/.test(p) || p.startsWith("~"))
    return `path "${p}" is absolute; use a path relative to the workspace root`;
  if (p.includes("\\")) return `path "${p}" uses backslashes; use forward slashes`;
  if (p.split("/").some((seg) => seg === "..")) return `path "${p}" contains ".." (path traversal)`;
  return undefined;
}

/** zod schema of a workspace-relative path (see {@link unsafePathReason}); normalised (`./a//b` → `a/b`). */
export const WorkspacePath = z
  .string()
  .superRefine((p, ctx) => {
    const reason = unsafePathReason(p);
    if (reason) ctx.addIssue({ code: "custom", message: reason });
  })
  .transform((p) => path.posix.normalize(p).replace(/\/$/, ""))
  .describe("Workspace-relative POSIX path; absolute paths and `..` are rejected.");

/** True when absolute path `child` is `parent` or lies below it (lexically: resolve symlinks first if needed). */
export function isInsidePath(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * A path as an error message shows it: relative to the working directory when it lies below it
 * (`facts.yaml`, `cases/a.yaml`), else absolute (`/tmp/run/facts.yaml`, not `../../tmp/run/facts.yaml`).
 */
export function shownPath(file: string): string {
  const abs = path.resolve(file);
  return isInsidePath(abs, process.cwd()) ? path.relative(process.cwd(), abs) || abs : abs;
}

/**
 * Resolve a workspace-relative path under `root`, refusing anything that escapes it.
 * @throws Error when the result is outside root (callers validate with {@link WorkspacePath} first)
 */
export function resolveInside(root: string, rel: string): string {
  const abs = path.resolve(root, rel);
  const back = path.relative(root, abs);
  if (back.startsWith("..") || path.isAbsolute(back)) throw new Error(`path escapes the workspace: ${rel}`);
  return abs;
}

/**
 * Create a directory and its missing parents, one level at a time. Node 20's `mkdirSync(…, {recursive:
 * true})` never returns on some pseudo file systems (e.g. a path under `/proc`); creating each missing
 * level in turn fails there with a normal error instead.
 * @throws the file system's error (ENOENT, EACCES, ENOTDIR, …) naming the level that could not be made
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  while (!existsSync(at)) {
    missing.push(at);
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
  }
}
