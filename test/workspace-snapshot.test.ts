import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256 } from "../src/core/ids.ts";
import { takeSnapshot } from "../src/workspace/snapshot.ts";

let dir: string;
let clock: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "gauntlet-snap-"));
  clock = mkdtempSync(path.join(os.tmpdir(), "gauntlet-clock-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(clock, { recursive: true, force: true });
});

function write(rel: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), content);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("takeSnapshot", () => {
  it("records every file with its sha256, size and type, by POSIX relative path", () => {
    write("README.md", "hello\n");
    write("src/lib/a.js", "export const a = 1;\n");
    const snap = takeSnapshot(dir);
    expect([...snap.files.keys()].sort()).toEqual(["README.md", "src/lib/a.js"]);
    const readme = snap.files.get("README.md")!;
    expect(readme).toMatchObject({ type: "file", hash: sha256("hello\n"), size: 6, binary: false });
    expect(snap.files.get("src/lib/a.js")!.hash).toBe(sha256("export const a = 1;\n"));
  });

  it("skips .git, node_modules, coverage, .nyc_output and .gauntlet at any depth by default", () => {
    write("index.js", "x");
    write(".git/HEAD", "ref");
    write("node_modules/dep/index.js", "x");
    write("packages/p/node_modules/dep/index.js", "x");
    write("coverage/lcov.info", "x");
    write(".nyc_output/out.json", "x");
    write(".gauntlet/state", "x");
    expect([...takeSnapshot(dir).files.keys()]).toEqual(["index.js"]);
  });

  it("applies custom ignore patterns: names, name prefixes and relative paths", () => {
    write("keep.txt", "x");
    write("dist/out.js", "x");
    write("src/dist/kept.js", "x");
    write("tmp-1/a", "x");
    write("logs/debug.log", "x");
    const snap = takeSnapshot(dir, { ignore: ["tmp-*", "dist/", "debug.log"] });
    expect([...snap.files.keys()].sort()).toEqual(["keep.txt"]);
    const byPath = takeSnapshot(dir, { ignore: ["./dist"] });
    expect(byPath.files.has("src/dist/kept.js")).toBe(false);
    const onlyTop = takeSnapshot(dir, { ignore: ["src/dist"] });
    expect(onlyTop.files.has("dist/out.js")).toBe(true);
    expect(onlyTop.files.has("src/dist/kept.js")).toBe(false);
  });

  it("records a symlink by its target and never follows it", () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "gauntlet-outside-"));
    try {
      writeFileSync(path.join(outside, "secret.txt"), "s");
      symlinkSync(outside, path.join(dir, "link"));
      symlinkSync("missing-target", path.join(dir, "dangling"));
      const snap = takeSnapshot(dir);
      expect([...snap.files.keys()].sort()).toEqual(["dangling", "link"]);
      expect(snap.files.get("link")).toMatchObject({ type: "symlink", hash: sha256(outside) });
      expect(snap.files.get("dangling")).toMatchObject({ type: "symlink", hash: sha256("missing-target") });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("flags files with a NUL byte or invalid UTF-8 as binary", () => {
    write("text.txt", "héllo\n");
    write("nul.bin", Buffer.from([0x61, 0x00, 0x62]));
    write("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const snap = takeSnapshot(dir);
    expect(snap.files.get("text.txt")!.binary).toBe(false);
    expect(snap.files.get("nul.bin")!.binary).toBe(true);
    expect(snap.files.get("latin1.txt")!.binary).toBe(true);
  });

  it("records a fifo without opening it (no hang)", () => {
    expect(spawnSync("mkfifo", [path.join(dir, "pipe")]).status).toBe(0);
    const snap = takeSnapshot(dir);
    expect(snap.files.get("pipe")).toMatchObject({ type: "other", hash: sha256("other:fifo") });
  });

  it("records a file whose name is not valid UTF-8, with the bad bytes escaped", () => {
    const name = Buffer.concat([Buffer.from("bad-"), Buffer.from([0xff]), Buffer.from(".txt")]);
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), name]), "content");
    write("good.txt", "x");
    const snap = takeSnapshot(dir);
    expect([...snap.files.keys()].sort()).toEqual(["bad-\\xff.txt", "good.txt"]);
    expect(snap.files.get("bad-\\xff.txt")!.hash).toBe(sha256("content"));
  });

  it("reuses hashes of files whose stat fields are unchanged (stat cache) and re-reads changed ones", async () => {
    for (let i = 0; i < 50; i++) write(`d${i % 5}/f${i}.txt`, `file ${i}\n`);
    await sleep(30); // Let the files' ctimes fall before the snapshot's clock (not racily clean).
    const first = takeSnapshot(dir, { clockDir: clock });
    expect(first.hashed).toBe(50);
    const second = takeSnapshot(dir, { clockDir: clock, previous: first });
    expect(second.hashed).toBe(0);
    expect(second.files.get("d0/f0.txt")).toBe(first.files.get("d0/f0.txt"));

    // Same size, mtime put back: only the ctime betrays the edit, as in git's index.
    const target = path.join(dir, "d1/f1.txt");
    const before = statSync(target);
    writeFileSync(target, "FILE 1\n");
    utimesSync(target, before.atime, before.mtime);
    const third = takeSnapshot(dir, { clockDir: clock, previous: second });
    expect(third.hashed).toBe(1);
    expect(third.files.get("d1/f1.txt")!.hash).toBe(sha256("FILE 1\n"));
  });

  it("never reuses the hash of a file changed at or after the previous snapshot's clock reading (racily clean)", async () => {
    write("racy.txt", "one\n");
    await sleep(30);
    const first = takeSnapshot(dir, { clockDir: clock });
    const ctime = first.files.get("racy.txt")!.ctimeMs;
    const racy = { ...first, clockMs: ctime };
    expect(takeSnapshot(dir, { previous: racy }).hashed).toBe(1);
    const settled = { ...first, clockMs: ctime + 1 };
    expect(takeSnapshot(dir, { previous: settled }).hashed).toBe(0);
  });

  it("lists a tree wide enough to be walked by worker threads, exactly", () => {
    const expected: string[] = [];
    for (let a = 0; a < 12; a++) {
      for (let b = 0; b < 12; b++) {
        for (let c = 0; c < 3; c++) {
          const rel = `a${a}/b${b}/f${c}.txt`;
          write(rel, rel);
          expected.push(rel);
        }
      }
    }
    write("a3/node_modules/x.js", "ignored");
    const snap = takeSnapshot(dir);
    expect([...snap.files.keys()].sort()).toEqual(expected.sort());
    expect(snap.files.get("a7/b11/f2.txt")!.hash).toBe(sha256("a7/b11/f2.txt"));
  });
});
