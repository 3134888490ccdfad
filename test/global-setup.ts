import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Every test process gets one temp root (via TMPDIR), removed when the run ends, so temp repositories,
 * workspaces and run stores made by tests do not pile up in the machine's /tmp.
 */
export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), "gauntlet-tests-"));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
