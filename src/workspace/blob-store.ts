import { lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isErrnoCode } from "../core/errors.ts";
import { sha256 } from "../core/ids.ts";

/**
 * A content-addressed store of file contents (`<dir>/<sha256>`), kept beside a workspace's `repo/` so the
 * diff of a later step can show what a file held before, after the agent has overwritten it.
 */
export class BlobStore {
  /** Directory holding one file per blob, named by its sha256 hex. */
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  /**
   * Make sure the store is still a real directory: an agent without a sandbox could have replaced it with a
   * symlink to make Gauntlet write elsewhere. A replaced store is removed (the link, not its target) and
   * recreated empty. Call before writing into it.
   */
  ensureDirectory(): void {
    let ok = false;
    try {
      const st = lstatSync(this.dir);
      ok = st.isDirectory() && !st.isSymbolicLink();
    } catch {
      // Missing: recreated below.
    }
    if (ok) return;
    rmSync(this.dir, { force: true, recursive: false });
    mkdirSync(this.dir, { recursive: true });
  }

  /** Keep `content` (whose sha256 hex is `hash`); a no-op when it is already stored. */
  put(hash: string, content: Uint8Array): void {
    this.ensureDirectory();
    try {
      writeFileSync(path.join(this.dir, hash), content, { flag: "wx" });
    } catch (error) {
      if (!isErrnoCode(error, "EEXIST")) throw error;
    }
  }

  /**
   * The stored content with this hash, or `undefined` when absent. The content is re-hashed on the way out,
   * so a blob altered on disk (the store sits where an agent could reach it) is treated as absent.
   */
  get(hash: string): Buffer | undefined {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    let content: Buffer;
    try {
      content = readFileSync(path.join(this.dir, hash));
    } catch {
      return undefined;
    }
    return sha256(content) === hash ? content : undefined;
  }
}
