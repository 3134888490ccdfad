/**
 * Workspaces: repository sources, isolated copies, snapshots and file-change evidence, process control.
 * The public surface of `src/workspace/`; everything else in the folder is internal.
 */
export { type ContentReader, type DiffOptions, diffSnapshots } from "./diff.ts";
export { FileDelta, StepEvidence } from "./evidence.ts";
export { gauntletCacheDir, parseNpmSpec } from "./npm-source.ts";
export {
  type CommandSpec,
  killProcessesInside,
  type RunOptions,
  type RunResult,
  runProcess,
} from "./process.ts";
export {
  DEFAULT_IGNORE,
  readEntryContent,
  type Snapshot,
  type SnapshotEntry,
  type SnapshotOptions,
  takeSnapshot,
} from "./snapshot.ts";
export { type PreparedSource, type ResolveSourceOptions, resolveSource } from "./source.ts";
export { detectTestCommand } from "./test-command.ts";
export { createWorkspace, type SetupFile, type Workspace, type WorkspaceOptions } from "./workspace.ts";
