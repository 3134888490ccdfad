import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os, { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CommandAgentConfig } from "../src/agents/coding/command.ts";
import { resolveCodingAgent } from "../src/agents/coding/registry.ts";
import { RunStore } from "../src/core/run-store.ts";
import { checkCase } from "../src/fuzz/check.ts";
import { runCases } from "../src/fuzz/run.ts";
import { runProcess } from "../src/workspace/process.ts";
import { confine, detectBwrap, makeSandbox, toolRoots } from "../src/workspace/sandbox.ts";
import { resolveSource } from "../src/workspace/source.ts";
import { makeCase, step } from "./helpers/fuzz-fixtures.ts";

const bwrap = detectBwrap();
// CI installs bubblewrap (.ci/run); there a missing bwrap is a failure, not a skip.
if (process.env.CI && !bwrap)
  throw new Error("bwrap is not installed or not usable; .ci/run installs bubblewrap");

describe.skipIf(!bwrap)("bubblewrap sandbox", () => {
  it("lets a command write its workspace only, hides the real HOME, and leaves no process behind", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "gauntlet-sbx-"));
    mkdirSync(path.join(root, "repo"));
    const outside = path.join(mkdtempSync(path.join(tmpdir(), "gauntlet-out-")), "target.txt");
    writeFileSync(outside, "original\n");
    const homeFile = path.join(os.homedir(), `.gauntlet-sandbox-probe-${process.pid}`);
    writeFileSync(homeFile, "home secret\n");
    try {
      const sandbox = makeSandbox(bwrap!, root);
      const marker = `sbx-escapee-${process.pid}`;
      const r = await runProcess(
        confine(
          {
            shell: `echo ok > inside.txt; echo x >> '${outside}' || echo "write-failed"; cat '${homeFile}' || echo "read-failed"; (setsid bash -c 'exec -a ${marker} sleep 60' &); echo done`,
          },
          sandbox,
          path.join(root, "repo"),
        ),
        { cwd: path.join(root, "repo"), env: { PATH: process.env.PATH! }, timeoutMs: 20_000 },
      );
      expect(r.stdout).toContain("write-failed");
      expect(r.stdout).toContain("read-failed");
      expect(r.stdout).not.toContain("home secret");
      expect(r.stderr).toMatch(/Read-only file system/);
      expect(readFileSync(path.join(root, "repo/inside.txt"), "utf8")).toBe("ok\n");
      expect(readFileSync(outside, "utf8")).toBe("original\n");
      const { execSync } = await import("node:child_process");
      expect(
        execSync(`pgrep -f "${marker.replace("sbx", "[s]bx")}" || true`, { encoding: "utf8" }).trim(),
      ).toBe("");
    } finally {
      rmSync(homeFile, { force: true });
    }
  });

  it("reports a hostile agent's blocked write and its reach into HOME as critical, harming nothing", async () => {
    const repo = mkdtempSync(path.join(tmpdir(), "gauntlet-srepo-"));
    writeFileSync(path.join(repo, "package.json"), '{"name":"x"}\n');
    const outside = path.join(mkdtempSync(path.join(tmpdir(), "gauntlet-out-")), "victim.txt");
    writeFileSync(outside, "original\n");
    const home = os.homedir();
    const store = RunStore.create(mkdtempSync(path.join(tmpdir(), "gauntlet-store-")), {
      expected: "gk-store-secret",
    });
    const agent = resolveCodingAgent("command:hostile", [
      CommandAgentConfig.parse({
        name: "hostile",
        argv: [
          "bash",
          "-c",
          `echo pwned >> '${outside}'; cat '${home}/.ssh/id_rsa'; cat '${store.file("run.json")}'; echo finished`,
        ],
      }),
    ]);
    const c = makeCase([step(1, "Do something", {})]);
    const [r] = await runCases({
      agents: [agent],
      cases: [c],
      source: await resolveSource(repo),
      store,
      stepTimeoutMs: 20_000,
      onTimeout: "continue",
      jobs: 1,
      keep: false,
      bwrap,
    });
    expect(readFileSync(outside, "utf8")).toBe("original\n");
    // The run store (expected outcomes of every case) is masked from the agent.
    expect(JSON.stringify(r!.steps)).not.toContain("gk-store-secret");
    expect(r!.sandbox).toMatchObject({ kind: "bwrap", hidden: [home] });
    // Nothing of HOME beyond tool directories on PATH is left readable (never HOME itself, ~/.ssh, ~/.cache).
    for (const d of r!.sandbox.readable)
      expect(d === home || [".ssh", ".cache", ".config"].some((x) => d.startsWith(path.join(home, x)))).toBe(
        false,
      );
    const findings = checkCase(c, r!).filter((f) => f.oracle === "sandbox-violation");
    expect(findings.map((f) => f.title)).toEqual([
      "tried to write outside the workspace (blocked by the sandbox)",
      "tried to reach the user's real HOME (hidden by the sandbox)",
    ]);
    expect(findings.every((f) => f.class === "critical")).toBe(true);
    expect(findings[0]!.evidence.quotes[0]).toMatch(/Read-only file system/);
    expect(findings[1]!.evidence.quotes[0]).toMatch(/\.ssh\/id_rsa: No such file or directory/);
    expect(existsSync(outside)).toBe(true);
  });
});

describe("what of HOME stays readable (toolRoots)", () => {
  it("exposes tool directories on PATH and what they need, not their siblings with credentials", () => {
    const h = mkdtempSync(path.join(tmpdir(), "fake-home-"));
    const mk = (rel: string, content?: string) => {
      const p = path.join(h, rel);
      mkdirSync(content === undefined ? p : path.dirname(p), { recursive: true });
      if (content !== undefined) writeFileSync(p, content);
      return p;
    };
    mk(".cargo/credentials.toml", "token = x");
    const cargoBin = mk(".cargo/bin");
    mk(".rustup/toolchains");
    const shims = mk(".pyenv/shims");
    const nodeBin = mk(".nvm/versions/node/v20/bin");
    const dotBin = mk("proj/node_modules/.bin");
    const localBin = mk(".local/bin");
    mk(".local/share/keyrings/login.keyring", "secret");
    mk(".local/pipx/venvs/tool/bin/tool", "#!/bin/sh\n");
    symlinkSync(path.join(h, ".local/pipx/venvs/tool/bin/tool"), path.join(localBin, "tool"));
    mk(".cache/token", "secret");
    const roots = toolRoots([cargoBin, shims, nodeBin, dotBin, localBin, "/usr/bin"], [h]);
    expect(roots.map((r) => path.relative(h, r))).toEqual(
      [
        ".cargo/bin",
        ".local/bin",
        ".local/pipx/venvs/tool",
        ".nvm",
        ".pyenv",
        ".pyenv/shims",
        ".rustup",
        "proj/node_modules",
        "proj/node_modules/.bin",
        ".nvm/versions/node/v20/bin",
      ].sort(),
    );
  });
});
