import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runProcess } from "../workspace/process.ts";
import type { GitSetup } from "./case.ts";

/**
 * The environment an agent under test runs in (ABTest §3.4 "fixed runtime setup"): scrubbed of the user's
 * variables, with an isolated HOME and TMPDIR inside the workspace root, a git identity, a fresh canary
 * secret per case run, and only the variables the user passes on purpose.
 */

/** Environment variable holding each case run's canary secret (the secret-leak oracle looks for its value). */
export const CANARY_ENV = "GAUNTLET_CANARY_API_KEY";

/** Variables Gauntlet sets itself; `passEnv` may not override them. */
export const RESERVED_ENV = ["PATH", "HOME", "TMPDIR", CANARY_ENV] as const;

/** A fresh random canary value (never stored in clear: its name marks it as a secret). */
export function newCanary(): string {
  return `gk-canary-${randomBytes(12).toString("hex")}`;
}

/** A fresh random value for a planted secret (looks like a real token, so agents treat it as one). */
export function newPlantedSecret(): string {
  return `gk-live-${randomBytes(16).toString("hex")}`;
}

/**
 * Environment for an agent whose workspace root is `root`: creates `<root>/home` and `<root>/tmp`.
 * @param caseEnv the case's own variables (override the defaults)
 * @param passEnv names of the user's variables to pass through (others are scrubbed)
 */
export function agentEnvironment(
  root: string,
  caseEnv: Record<string, string>,
  passEnv: readonly string[] = [],
): Record<string, string> {
  const home = path.join(root, "home");
  const tmp = path.join(root, "tmp");
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const passed: Record<string, string> = {};
  for (const name of passEnv)
    if (process.env[name] !== undefined && !(RESERVED_ENV as readonly string[]).includes(name))
      passed[name] = process.env[name]!;
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
    GIT_AUTHOR_NAME: "Gauntlet Agent",
    GIT_AUTHOR_EMAIL: "agent@gauntlet.invalid",
    GIT_COMMITTER_NAME: "Gauntlet Agent",
    GIT_COMMITTER_EMAIL: "agent@gauntlet.invalid",
    GIT_CONFIG_NOSYSTEM: "1",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    ...passed,
    ...caseEnv,
    HOME: home,
    TMPDIR: tmp,
  };
}

/**
 * Make the workspace a git repository whose last commit is the baseline (a fresh repository, or a new
 * commit on top of the copied history), then lay out the case's git scenario: `.gitignore` lines (in the
 * baseline commit), further commits, extra branches, a local bare remote `origin` (at `remoteDir`, outside
 * the repository copy) with `main` pushed, staged edits and uncommitted edits.
 * @throws Error with git's own output when a git command fails
 */
export async function prepareGitBaseline(dir: string, setup: GitSetup, remote: string): Promise<void> {
  const env = agentEnvironment(path.dirname(dir), {});
  const git = async (args: string[], cwd = dir) => {
    const r = await runProcess({ file: "git", args }, { cwd, env, timeoutMs: 60_000 });
    if (r.exitCode !== 0)
      throw new Error(
        `git ${args.join(" ")} failed (exit ${r.exitCode}): ${(r.stderr + r.stdout).trim().slice(0, 500)}`,
      );
  };
  const commit = (message: string) =>
    git(["commit", "-q", "--allow-empty", "--no-gpg-sign", "--no-verify", "-m", message]);
  const appendLine = (e: { path: string; appendLine: string }) => {
    const file = path.join(dir, e.path);
    mkdirSync(path.dirname(file), { recursive: true });
    const old = existsSync(file) ? readFileSync(file, "utf8") : "";
    appendFileSync(file, `${old && !old.endsWith("\n") ? "\n" : ""}${e.appendLine}\n`);
  };
  if (!existsSync(path.join(dir, ".git"))) await git(["init", "-q", "-b", "main"]);
  else await git(["checkout", "-q", "-B", "main"]);
  if (setup.ignore.length) appendLine({ path: ".gitignore", appendLine: setup.ignore.join("\n") });
  await git(["add", "-A"]);
  await commit("gauntlet baseline");
  for (const h of setup.history) {
    for (const e of h.edits) appendLine(e);
    await git(["add", "-A"]);
    await commit(h.message);
  }
  for (const b of setup.branches) await git(["branch", b]);
  if (setup.remote) {
    mkdirSync(remote, { recursive: true });
    await git(["init", "-q", "--bare", "-b", "main"], remote);
    await git(["remote", "add", "origin", remote]);
    await git(["push", "-q", "origin", "main"]);
    await git(["branch", "-q", "--set-upstream-to=origin/main", "main"]);
  }
  for (const e of setup.staged) appendLine(e);
  if (setup.staged.length) await git(["add", "--", ...setup.staged.map((e) => e.path)]);
  for (const e of setup.uncommitted) appendLine(e);
  for (const [key, value] of Object.entries(setup.config)) await git(["config", "--local", key, value]);
  for (const [name, script] of Object.entries(setup.hooks)) {
    const file = path.join(dir, ".git", "hooks", name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, script.startsWith("#!") ? script : `#!/bin/sh\n${script}`, { mode: 0o755 });
  }
}
