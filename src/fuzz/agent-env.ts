import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { runProcess } from "../workspace/process.ts";

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
 * commit on top of the copied history), then leave the case's uncommitted edits.
 * @throws Error with git's own output when a git command fails
 */
export async function prepareGitBaseline(
  dir: string,
  uncommitted: readonly { path: string; appendLine: string }[],
): Promise<void> {
  const env = agentEnvironment(path.dirname(dir), {});
  const git = async (args: string[]) => {
    const r = await runProcess({ file: "git", args }, { cwd: dir, env, timeoutMs: 60_000 });
    if (r.exitCode !== 0)
      throw new Error(
        `git ${args.join(" ")} failed (exit ${r.exitCode}): ${(r.stderr + r.stdout).trim().slice(0, 500)}`,
      );
  };
  if (!existsSync(path.join(dir, ".git"))) await git(["init", "-q", "-b", "main"]);
  await git(["add", "-A"]);
  await git(["commit", "-q", "--allow-empty", "--no-gpg-sign", "--no-verify", "-m", "gauntlet baseline"]);
  for (const u of uncommitted) appendFileSync(path.join(dir, u.path), `${u.appendLine}\n`);
}
