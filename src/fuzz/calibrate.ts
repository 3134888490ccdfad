import { runProcess } from "../workspace/process.ts";
import type { PreparedSource } from "../workspace/source.ts";
import { createWorkspace } from "../workspace/workspace.ts";
import { agentEnvironment } from "./agent-env.ts";

/**
 * Calibration run: the project's own test command, run once in a scratch workspace without any agent, shows
 * which files the tests themselves write (reports such as `junit.xml`, caches). Oracles do not blame an agent
 * for those. Returns the workspace-relative paths added or modified, sorted; [] when there is no test
 * command or it could not run.
 */
export async function testByproducts(source: PreparedSource, timeoutMs = 300_000): Promise<string[]> {
  if (!source.testCommand) return [];
  const ws = await createWorkspace(source);
  try {
    await runProcess(
      { shell: source.testCommand },
      { cwd: ws.dir, env: agentEnvironment(ws.root, {}), timeoutMs },
    );
    return ws
      .captureStep()
      .sincePrevious.filter((d) => d.kind !== "deleted")
      .map((d) => d.path)
      .sort();
  } finally {
    await ws.dispose();
  }
}
