import { execFileSync } from "node:child_process";
import path from "node:path";

/** Path of the `gauntlet` bin script. */
export const BIN = path.resolve(__dirname, "../../bin/gauntlet.mjs");

/** Run the real CLI in `cwd`; returns its exit code and output (never throws on a non-zero exit). */
export function gauntlet(cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [BIN, ...args], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "1", NO_COLOR: "1" },
    });
    return { code: 0, stdout, stderr: "" };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, stdout: err.stdout, stderr: err.stderr };
  }
}
