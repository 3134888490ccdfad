import { describe, expect, it } from "vitest";
import { sha256 } from "../src/core/ids.ts";
import { type ContentReader, diffSnapshots } from "../src/workspace/diff.ts";
import type { Snapshot, SnapshotEntry } from "../src/workspace/snapshot.ts";

/** An in-memory tree: path → content (a Buffer is taken as is). */
type Tree = Record<string, string | Buffer>;

function entry(content: string | Buffer, mode = 0o100644): SnapshotEntry {
  const bytes = Buffer.from(content);
  const binary = bytes.includes(0);
  return {
    type: "file",
    hash: sha256(bytes),
    binary,
    size: bytes.length,
    mtimeMs: 0,
    ctimeMs: 0,
    ino: 0,
    mode,
  };
}

function snapshot(tree: Tree, modes: Record<string, number> = {}): Snapshot {
  return {
    files: new Map(Object.entries(tree).map(([p, c]) => [p, entry(c, modes[p])])),
    clockMs: 0,
    hashed: 0,
  };
}

function reader(before: Tree, after: Tree, reads: string[] = []): ContentReader {
  return {
    read(side, path) {
      reads.push(`${side}:${path}`);
      const content = (side === "before" ? before : after)[path];
      return content === undefined ? undefined : Buffer.from(content);
    },
  };
}

describe("diffSnapshots", () => {
  it("reports added, modified and deleted files sorted by path, with hashes, sizes and unified diffs", () => {
    const before: Tree = { "b.txt": "one\ntwo\n", "gone.txt": "bye\n", "same.txt": "s\n" };
    const after: Tree = { "a.txt": "new\n", "b.txt": "one\n2\n", "same.txt": "s\n" };
    const deltas = diffSnapshots(snapshot(before), snapshot(after), reader(before, after));
    expect(deltas).toEqual([
      {
        path: "a.txt",
        kind: "added",
        binary: false,
        hashAfter: sha256("new\n"),
        sizeAfter: 4,
        diff: "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+new\n",
      },
      {
        path: "b.txt",
        kind: "modified",
        binary: false,
        hashBefore: sha256("one\ntwo\n"),
        sizeBefore: 8,
        hashAfter: sha256("one\n2\n"),
        sizeAfter: 6,
        diff: "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
      },
      {
        path: "gone.txt",
        kind: "deleted",
        binary: false,
        hashBefore: sha256("bye\n"),
        sizeBefore: 4,
        diff: "--- a/gone.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n",
      },
    ]);
  });

  it("gives no diff for a binary file, and does not read it", () => {
    const before: Tree = { "img.bin": Buffer.from([1, 0, 2]) };
    const after: Tree = { "img.bin": Buffer.from([1, 0, 3]) };
    const reads: string[] = [];
    const [delta] = diffSnapshots(snapshot(before), snapshot(after), reader(before, after, reads));
    expect(delta).toMatchObject({ path: "img.bin", kind: "modified", binary: true });
    expect(delta!.diff).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it("cuts a long diff at a line end within the cap and flags it", () => {
    const after: Tree = {
      "big.txt": Array.from({ length: 200 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n"),
    };
    const [delta] = diffSnapshots(snapshot({}), snapshot(after), reader({}, after), { maxDiffBytes: 1000 });
    expect(delta!.diffTruncated).toBe(true);
    expect(Buffer.byteLength(delta!.diff!)).toBeLessThanOrEqual(1000);
    expect(delta!.diff!.endsWith("\n")).toBe(true);
    expect(delta!.diff!.startsWith("--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,200 @@\n+line 0 ")).toBe(true);
  });

  it("keeps a diff within the default 16 KiB cap whole", () => {
    const after: Tree = { "small.txt": "a\nb\n" };
    const [delta] = diffSnapshots(snapshot({}), snapshot(after), reader({}, after));
    expect(delta!.diffTruncated).toBeUndefined();
  });

  it("gives hashes only for files larger than the read cap", () => {
    const before: Tree = { "log.txt": "a".repeat(2000) };
    const after: Tree = { "log.txt": "b".repeat(2000) };
    const reads: string[] = [];
    const [delta] = diffSnapshots(snapshot(before), snapshot(after), reader(before, after, reads), {
      maxReadBytes: 1024,
    });
    expect(delta).toMatchObject({ kind: "modified", binary: false, hashBefore: sha256("a".repeat(2000)) });
    expect(delta!.diff).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it("reports a change of the executable bit alone, git style", () => {
    const tree: Tree = { "run.sh": "#!/bin/sh\n" };
    const deltas = diffSnapshots(snapshot(tree), snapshot(tree, { "run.sh": 0o100755 }), reader(tree, tree));
    expect(deltas).toEqual([
      expect.objectContaining({
        path: "run.sh",
        kind: "modified",
        diff: "old mode 100644\nnew mode 100755\n",
      }),
    ]);
  });

  it("gives no diff when a side's content is no longer available", () => {
    const before: Tree = { "a.txt": "x\n" };
    const after: Tree = { "a.txt": "y\n" };
    const [delta] = diffSnapshots(snapshot(before), snapshot(after), reader({}, after));
    expect(delta).toMatchObject({ kind: "modified", hashBefore: sha256("x\n"), hashAfter: sha256("y\n") });
    expect(delta!.diff).toBeUndefined();
  });

  it("reuses a cached delta when both sides are unchanged", () => {
    const before: Tree = { "a.txt": "x\n" };
    const after: Tree = { "a.txt": "y\n" };
    const cache = new Map();
    const reads: string[] = [];
    const first = diffSnapshots(snapshot(before), snapshot(after), reader(before, after, reads), { cache });
    const second = diffSnapshots(snapshot(before), snapshot(after), reader(before, after, reads), { cache });
    expect(second).toEqual(first);
    expect(reads).toEqual(["before:a.txt", "after:a.txt"]);
  });
});
