import type { Snapshot } from "../workspace/snapshot.ts";
import { takeSnapshot } from "../workspace/snapshot.ts";
import type { PreparedSource } from "../workspace/source.ts";
import type { OutsideChange } from "./result.ts";

/**
 * Watches what an agent must never change although it can reach it without a sandbox: the repository
 * source the workspaces are copied from (e.g. through an absolute path or a symlink) and the shared
 * dependencies linked beside each workspace (`../node_modules`). After each case, changes since the previous
 * check are reported; with several cases running at once the culprit is one of those running.
 * Writes elsewhere on the machine need the sandbox to be seen.
 */
export class OutsideGuard {
  private readonly areas: {
    area: OutsideChange["area"];
    dir: string;
    snapshot: Snapshot;
    ignore?: string[];
  }[] = [];

  constructor(source: PreparedSource) {
    this.areas.push({ area: "source", dir: source.sourceDir, snapshot: source.snapshot });
    if (source.depsDir) {
      const ignore = [".cache"];
      this.areas.push({
        area: "dependencies",
        dir: source.depsDir,
        snapshot: takeSnapshot(source.depsDir, { ignore }),
        ignore,
      });
    }
  }

  /** Changes since the previous check (content hashes compared; stat-cached, so cheap when nothing changed). */
  check(): OutsideChange[] {
    const changes: OutsideChange[] = [];
    for (const a of this.areas) {
      const now = takeSnapshot(a.dir, { previous: a.snapshot, ...(a.ignore ? { ignore: a.ignore } : {}) });
      for (const [p, e] of now.files) {
        const before = a.snapshot.files.get(p);
        if (!before) changes.push({ area: a.area, path: p, kind: "added" });
        else if (before.hash !== e.hash) changes.push({ area: a.area, path: p, kind: "modified" });
      }
      for (const p of a.snapshot.files.keys())
        if (!now.files.has(p)) changes.push({ area: a.area, path: p, kind: "deleted" });
      a.snapshot = now;
    }
    return changes;
  }
}
