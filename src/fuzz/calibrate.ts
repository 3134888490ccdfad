import { runProcess } from "../workspace/process.ts";
import { confine, makeSandbox } from "../workspace/sandbox.ts";
import type { PreparedSource } from "../workspace/source.ts";
import { createWorkspace } from "../workspace/workspace.ts";
import { agentEnvironment } from "./agent-env.ts";

/**
 * Calibration run: the project's own test command, run once in a scratch workspace without any agent, shows
 * which files the tests themselves write (reports such as `junit.xml`, caches). Oracles do not blame an agent
 * for those. The tests are code from the repository, so they run in the same sandbox as agents, and stop
 * when `signal` aborts. Returns the workspace-relative paths added or modified, sorted; [] when there is no
 * test command, it could not run, or the run was aborted.
 */
export async function testByproducts(
  source: PreparedSource,
  options: { timeoutMs?: number; signal?: AbortSignal; bwrap?: string } = {},
): Promise<string[]> {
  if (!source.testCommand || options.signal?.aborted) return [];
  const ws = await createWorkspace(source);
  try {
    const env = agentEnvironment(ws.root, {});
    const sandbox = options.bwrap
      ? makeSandbox(options.bwrap, ws.root, source.depsDir ? [source.depsDir] : [])
      : undefined;
    await runProcess(confine({ shell: source.testCommand }, sandbox, ws.dir), {
      cwd: ws.dir,
      env,
      timeoutMs: options.timeoutMs ?? 300_000,
      signal: options.signal,
    });
    if (options.signal?.aborted) return [];
    return ws
      .captureStep()
      .sincePrevious.filter((d) => d.kind !== "deleted")
      .map((d) => d.path)
      .sort();
  } finally {
    await ws.dispose();
  }
}
