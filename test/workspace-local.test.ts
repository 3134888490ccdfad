import { spawn } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InputError, SetupError } from "../src/core/errors.ts";
import { sha256 } from "../src/core/ids.ts";
import { resolveSource } from "../src/workspace/source.ts";
import { createWorkspace, type Workspace } from "../src/workspace/workspace.ts";

let tmp: string;
let repo: string;
const open: Workspace[] = [];

/** Every file under `dir` (node_modules and .git included) → sha256 and mtime: the source must not change. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(abs, r);
      else out[r] = `${sha256(readFileSync(abs))}@${lstatSync(abs).mtimeMs}`;
    }
  };
  walk(dir, "");
  return out;
}
function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

async function workspace(options: Parameters<typeof createWorkspace>[1] = {}): Promise<Workspace> {
  const ws = await createWorkspace(await resolveSource(repo), { baseDir: path.join(tmp, "ws"), ...options });
  open.push(ws);
  return ws;
}

beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "gauntlet-wstest-"));
  repo = path.join(tmp, "repo");
  write(
    repo,
    "package.json",
    JSON.stringify({ name: "fixture", version: "1.0.0", scripts: { test: "node test.js" } }),
  );
  write(repo, "README.md", "# Fixture\n\nline 2\nline 3\n");
  write(repo, "src/index.js", "export const answer = 42;\n");
  write(repo, "src/old.js", "legacy\n");
  write(repo, "assets/logo.bin", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  write(repo, "node_modules/dep/index.js", "module.exports = 1;\n");
  write(repo, ".git/HEAD", "ref: refs/heads/main\n");
});

afterEach(async () => {
  for (const ws of open.splice(0)) await ws.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

describe("local repository source", () => {
  it("resolves a directory: name, version, test command, sorted files without ignored directories", async () => {
    const source = await resolveSource(repo);
    expect(source).toMatchObject({
      kind: "local",
      sourceDir: repo,
      depsDir: path.join(repo, "node_modules"),
      name: "fixture",
      version: "1.0.0",
      testCommand: "npm test",
    });
    expect(source.files).toEqual([
      "README.md",
      "assets/logo.bin",
      "package.json",
      "src/index.js",
      "src/old.js",
    ]);
  });

  it("fails with a SetupError naming a missing directory, with a hint", async () => {
    const missing = path.join(tmp, "nope");
    const error = await resolveSource(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).message).toBe(`repository not found: ${missing}`);
    expect((error as SetupError).hint).toMatch(/existing directory|npm:/);
  });

  it("fails with a SetupError when the path is a file", async () => {
    const error = await resolveSource(path.join(repo, "README.md")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).message).toMatch(/^repository is not a directory: /);
  });
});

describe("workspace", () => {
  it("copies the repository (with .git, without node_modules) and links the dependencies", async () => {
    const ws = await workspace();
    expect(ws.dir).toBe(path.join(ws.root, "repo"));
    expect(readFileSync(path.join(ws.dir, "src/index.js"), "utf8")).toBe("export const answer = 42;\n");
    expect(readFileSync(path.join(ws.dir, ".git/HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    expect(existsSync(path.join(ws.dir, "node_modules"))).toBe(false);
    expect(readlinkSync(path.join(ws.root, "node_modules"))).toBe(path.join(repo, "node_modules"));
    expect([...ws.baseline.files.keys()].sort()).toEqual(ws.source.files);
  });

  it("isolates the source: the agent's writes, deletions and chmods never reach it", async () => {
    const before = fingerprint(repo);
    const ws = await workspace();
    writeFileSync(path.join(ws.dir, "README.md"), "overwritten\n");
    unlinkSync(path.join(ws.dir, "src/old.js"));
    write(ws.dir, "new.txt", "n\n");
    write(ws.dir, ".git/HEAD", "ref: refs/heads/evil\n");
    ws.captureStep();
    await ws.dispose();
    expect(fingerprint(repo)).toEqual(before);
  });

  it("reports added, modified and deleted files since the previous step and since the baseline", async () => {
    const ws = await workspace();
    // Step 1: add a file, edit one, delete one.
    write(ws.dir, "notes.txt", "first\n");
    appendFileSync(path.join(ws.dir, "README.md"), "line 4\n");
    unlinkSync(path.join(ws.dir, "src/old.js"));
    const step1 = ws.captureStep();
    expect(step1.sincePrevious.map((d) => [d.path, d.kind])).toEqual([
      ["README.md", "modified"],
      ["notes.txt", "added"],
      ["src/old.js", "deleted"],
    ]);
    expect(step1.sinceBaseline).toEqual(step1.sincePrevious);
    const readme = step1.sincePrevious[0]!;
    expect(readme.hashBefore).toBe(sha256("# Fixture\n\nline 2\nline 3\n"));
    expect(readme.hashAfter).toBe(sha256("# Fixture\n\nline 2\nline 3\nline 4\n"));
    expect(readme.diff).toBe(
      "--- a/README.md\n+++ b/README.md\n@@ -2,3 +2,4 @@\n \n line 2\n line 3\n+line 4\n",
    );
    expect(step1.sincePrevious[2]).toMatchObject({
      hashBefore: sha256("legacy\n"),
      diff: expect.stringContaining("-legacy\n"),
    });

    // Step 2: edit the file added in step 1.
    writeFileSync(path.join(ws.dir, "notes.txt"), "second\n");
    const step2 = ws.captureStep();
    expect(step2.sincePrevious).toEqual([
      {
        path: "notes.txt",
        kind: "modified",
        binary: false,
        hashBefore: sha256("first\n"),
        sizeBefore: 6,
        hashAfter: sha256("second\n"),
        sizeAfter: 7,
        diff: "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,1 +1,1 @@\n-first\n+second\n",
      },
    ]);
    const notes = step2.sinceBaseline.find((d) => d.path === "notes.txt")!;
    expect(notes).toMatchObject({ kind: "added", hashAfter: sha256("second\n") });
    expect(notes.diff).toBe("--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1,1 @@\n+second\n");
    expect(step2.sinceBaseline.map((d) => d.path)).toEqual(["README.md", "notes.txt", "src/old.js"]);

    // Step 3: nothing; then revert README to its baseline content.
    expect(ws.captureStep()).toEqual({ sincePrevious: [], sinceBaseline: step2.sinceBaseline });
    writeFileSync(path.join(ws.dir, "README.md"), "# Fixture\n\nline 2\nline 3\n");
    const step4 = ws.captureStep();
    expect(step4.sincePrevious.map((d) => [d.path, d.kind])).toEqual([["README.md", "modified"]]);
    expect(step4.sinceBaseline.map((d) => d.path)).toEqual(["notes.txt", "src/old.js"]);
    expect(ws.steps).toBe(4);
  });

  it("ignores changes inside .git, node_modules, coverage and .nyc_output", async () => {
    const ws = await workspace();
    write(ws.dir, ".git/index", "x");
    write(ws.dir, "node_modules/left-pad/index.js", "x");
    write(ws.dir, "coverage/lcov.info", "x");
    write(ws.dir, ".nyc_output/1.json", "{}");
    expect(ws.captureStep()).toEqual({ sincePrevious: [], sinceBaseline: [] });
  });

  it("gives hashes but no diff for a binary file", async () => {
    const ws = await workspace();
    writeFileSync(path.join(ws.dir, "assets/logo.bin"), Buffer.from([0x89, 0x50, 0x00, 0x02]));
    const [delta] = ws.captureStep().sincePrevious;
    expect(delta).toMatchObject({ path: "assets/logo.bin", kind: "modified", binary: true });
    expect(delta!.diff).toBeUndefined();
    expect(delta!.hashBefore).toBe(sha256(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01])));
  });

  it("caps diffs at the configured size", async () => {
    const ws = await workspace({ diff: { maxDiffBytes: 200 } });
    write(ws.dir, "long.txt", "0123456789\n".repeat(100));
    const [delta] = ws.captureStep().sincePrevious;
    expect(delta!.diffTruncated).toBe(true);
    expect(Buffer.byteLength(delta!.diff!)).toBeLessThanOrEqual(200);
  });

  it("writes setup files and runs prepare before the baseline; their content is the baseline", async () => {
    const ws = await workspace({
      setupFiles: [
        { path: "config/app.json", content: '{"debug":false}\n' },
        { path: "scripts/run.sh", content: "#!/bin/sh\necho hi\n", executable: true },
      ],
      prepare: async (dir) => {
        appendFileSync(path.join(dir, "README.md"), "prepared\n");
      },
    });
    expect(ws.baseline.files.get("config/app.json")!.hash).toBe(sha256('{"debug":false}\n'));
    expect(lstatSync(path.join(ws.dir, "scripts/run.sh")).mode & 0o777).toBe(0o755);
    expect(ws.readBaseline("README.md")!.toString()).toBe("# Fixture\n\nline 2\nline 3\nprepared\n");
    expect(ws.readBaseline("src/index.js")!.toString()).toBe("export const answer = 42;\n");
    expect(ws.readBaseline("absent.txt")).toBeUndefined();

    writeFileSync(path.join(ws.dir, "config/app.json"), '{"debug":true}\n');
    writeFileSync(path.join(ws.dir, "README.md"), "rewritten\n");
    const step = ws.captureStep();
    expect(step.sinceBaseline.map((d) => [d.path, d.kind])).toEqual([
      ["README.md", "modified"],
      ["config/app.json", "modified"],
    ]);
    expect(step.sinceBaseline[1]!.diff).toContain('-{"debug":false}\n+{"debug":true}\n');
    expect(step.sinceBaseline[0]!.diff).toContain("-prepared\n+rewritten\n");
  });

  it("rejects a setup file path that escapes the workspace", async () => {
    const error = await workspace({ setupFiles: [{ path: "../escape.txt", content: "x" }] }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect(existsSync(path.join(tmp, "ws", "escape.txt"))).toBe(false);
    expect(readdirSync(path.join(tmp, "ws"))).toEqual([]); // The half-made workspace was removed.
  });

  it("refuses to create the workspace inside the source directory", async () => {
    const source = await resolveSource(repo);
    const error = await createWorkspace(source, { baseDir: path.join(repo, "tmp") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).message).toMatch(/is inside the source/);
  });

  it("dispose kills processes still running inside and removes the directory; keep keeps it", async () => {
    const ws = await workspace();
    const child = spawn("sleep", ["300"], { cwd: ws.dir, detached: true, stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.unref();
    await ws.dispose();
    expect(await exited).toBeNull(); // Killed by a signal.
    expect(existsSync(ws.root)).toBe(false);
    await ws.dispose(); // Idempotent.
    expect(() => ws.captureStep()).toThrow(/disposed/);

    const kept = await workspace({ keep: true });
    write(kept.dir, "result.txt", "r");
    await kept.dispose();
    expect(readFileSync(path.join(kept.dir, "result.txt"), "utf8")).toBe("r");
    rmSync(kept.root, { recursive: true, force: true });
  });

  it("copies a source without node_modules and creates no link", async () => {
    rmSync(path.join(repo, "node_modules"), { recursive: true });
    const ws = await workspace();
    expect(ws.source.depsDir).toBeUndefined();
    expect(existsSync(path.join(ws.root, "node_modules"))).toBe(false);
  });
});

describe("stale workspace sweep", () => {
  it("removes workspaces whose owner process is dead and keeps live and kept ones", async () => {
    const { mkdtempSync: mk, mkdirSync: md, writeFileSync: wf, existsSync: ex } = await import("node:fs");
    const { tmpdir: td } = await import("node:os");
    const { join } = await import("node:path");
    const { sweepStaleWorkspaces } = await import("../src/workspace/workspace.ts");
    const base = mk(join(td(), "sweep-"));
    const dead = join(base, "gauntlet-ws-dead");
    const live = join(base, "gauntlet-ws-live");
    const kept = join(base, "gauntlet-ws-kept");
    for (const d of [dead, live, kept]) md(join(d, "repo"), { recursive: true });
    wf(join(dead, ".owner-pid"), "999999999");
    wf(join(live, ".owner-pid"), String(process.pid));
    expect(sweepStaleWorkspaces(base)).toEqual([dead]);
    expect([ex(dead), ex(live), ex(kept)]).toEqual([false, true, true]);
  });
});

describe("symlinks that leave the workspace", () => {
  it("are replaced by a copy of their target (files) or removed (directories), so writes never reach the user's files", async () => {
    const fs = await import("node:fs");
    const { tmpdir: td } = await import("node:os");
    const { join } = await import("node:path");
    const { resolveSource } = await import("../src/workspace/source.ts");
    const { createWorkspace } = await import("../src/workspace/workspace.ts");
    const outside = fs.mkdtempSync(join(td(), "outside-"));
    fs.writeFileSync(join(outside, "secret.txt"), "outside content\n");
    const repo = fs.mkdtempSync(join(td(), "linkrepo-"));
    fs.writeFileSync(join(repo, "a.txt"), "a\n");
    fs.symlinkSync(join(outside, "secret.txt"), join(repo, "link.txt"));
    fs.symlinkSync(outside, join(repo, "linkdir"));
    fs.symlinkSync("a.txt", join(repo, "inside.txt"));
    // Looks inside as text, resolves outside: a chain through a linked directory.
    fs.mkdirSync(join(repo, "d/e"), { recursive: true });
    fs.symlinkSync("../..", join(repo, "d/e/up"));
    fs.symlinkSync(`d/e/up/d/e/up/../${outside.split("/").pop()!}/secret.txt`, join(repo, "sneaky.txt"));
    // Relative link out of the repository: resolved from the source, not from the copy.
    fs.symlinkSync(join("..", outside.split("/").pop()!, "secret.txt"), join(repo, "rel.txt"));
    const ws = await createWorkspace(await resolveSource(repo));
    try {
      expect(fs.lstatSync(join(ws.dir, "link.txt")).isFile()).toBe(true);
      expect(fs.readFileSync(join(ws.dir, "link.txt"), "utf8")).toBe("outside content\n");
      expect(fs.existsSync(join(ws.dir, "linkdir"))).toBe(false);
      expect(fs.lstatSync(join(ws.dir, "inside.txt")).isSymbolicLink()).toBe(true);
      for (const f of ["sneaky.txt", "rel.txt"]) {
        expect(fs.lstatSync(join(ws.dir, f)).isFile()).toBe(true);
        expect(fs.readFileSync(join(ws.dir, f), "utf8")).toBe("outside content\n");
        fs.appendFileSync(join(ws.dir, f), "agent wrote\n");
      }
      fs.appendFileSync(join(ws.dir, "link.txt"), "agent wrote\n");
      expect(fs.readFileSync(join(outside, "secret.txt"), "utf8")).toBe("outside content\n");
    } finally {
      await ws.dispose();
    }
  });
});

describe("symlinks into the user's HOME", () => {
  it("are removed, never copied: the agent must not see HOME through the repository", async () => {
    const fs = await import("node:fs");
    const { tmpdir: td } = await import("node:os");
    const { join } = await import("node:path");
    const { resolveSource } = await import("../src/workspace/source.ts");
    const { createWorkspace } = await import("../src/workspace/workspace.ts");
    const home = fs.mkdtempSync(join(td(), "home-"));
    fs.writeFileSync(join(home, "secret.txt"), "home secret\n");
    const repo = fs.mkdtempSync(join(td(), "homelink-"));
    fs.writeFileSync(join(repo, "a.txt"), "a\n");
    fs.symlinkSync(join(home, "secret.txt"), join(repo, "secret-link"));
    const realHome = process.env.HOME;
    process.env.HOME = home;
    try {
      const ws = await createWorkspace(await resolveSource(repo));
      try {
        expect(fs.existsSync(join(ws.dir, "secret-link"))).toBe(false);
        expect(fs.readFileSync(join(ws.dir, "a.txt"), "utf8")).toBe("a\n");
      } finally {
        await ws.dispose();
      }
    } finally {
      process.env.HOME = realHome;
    }
  });
});

describe("git remotes", () => {
  it("are removed from the copy, so an agent cannot push to the user's remote", async () => {
    const fs = await import("node:fs");
    const { execFileSync } = await import("node:child_process");
    const { tmpdir: td } = await import("node:os");
    const { join } = await import("node:path");
    const { resolveSource } = await import("../src/workspace/source.ts");
    const { createWorkspace } = await import("../src/workspace/workspace.ts");
    const repo = fs.mkdtempSync(join(td(), "remoterepo-"));
    fs.writeFileSync(join(repo, "a.txt"), "a\n");
    execFileSync("git", ["init", "-q"], { cwd: repo });
    execFileSync("git", ["remote", "add", "origin", "https://example.invalid/x.git"], { cwd: repo });
    const ws = await createWorkspace(await resolveSource(repo));
    try {
      expect(execFileSync("git", ["remote"], { cwd: ws.dir, encoding: "utf8" }).trim()).toBe("");
      expect(execFileSync("git", ["remote"], { cwd: repo, encoding: "utf8" }).trim()).toBe("origin");
    } finally {
      await ws.dispose();
    }
  });
});
