import picomatch from "picomatch";

/**
 * Glob patterns over workspace-relative POSIX paths (`docs/**`, `*.env`, `.env*`), through picomatch.
 * A pattern without a `/` also matches the base name at any depth (`.env` matches `config/.env`), as
 * `.gitignore` lines do. Dot files match.
 */

const cache = new Map<string, (p: string) => boolean>();

/** True when `path` matches `pattern` (a glob, or a plain path). */
export function globMatch(pattern: string, path: string): boolean {
  let test = cache.get(pattern);
  if (!test) {
    const opts = { dot: true, basename: !pattern.includes("/") };
    const m = picomatch(pattern, opts);
    const prefix = pattern.replace(/\/$/, "");
    // A plain directory path also covers what is below it.
    test = (p: string) => m(p) || (!/[*?[{]/.test(pattern) && p.startsWith(`${prefix}/`));
    cache.set(pattern, test);
  }
  return test(path);
}

/** True when `pattern` has glob syntax (not a plain path). */
export const isGlob = (pattern: string): boolean => /[*?[{]/.test(pattern);
