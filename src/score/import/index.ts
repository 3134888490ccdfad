import { InputError } from "../../core/errors.ts";
import type { TrajectoryEvent } from "../../core/trajectory.ts";
import { importAtif } from "./atif.ts";
import { importClaudeCode } from "./claude-code.ts";
import { importCodex } from "./codex.ts";
import { detectFormat, FORMATS, type TrajectoryFormat } from "./detect.ts";
import { importGauntletResults } from "./gauntlet-run.ts";
import { importGeminiCli } from "./gemini-cli.ts";
import type { ImportedTrajectory } from "./imported.ts";
import { importInspect } from "./inspect.ts";
import { importMiniSweAgent } from "./mini-swe-agent.ts";
import { importOpenHands } from "./openhands.ts";
import { importOtel } from "./otel.ts";
import { ShellWrites, withShellWrites } from "./shell-writes.ts";
import { importSweAgent } from "./swe-agent.ts";

export { AtifDocument, exportAtif } from "./atif-export.ts";
export { detectFormat, FORMATS, type TrajectoryFormat } from "./detect.ts";
export type { ImportedTrajectory } from "./imported.ts";
export {
  instanceIdFromFileName,
  instanceIdOf,
  isOutcomeReport,
  loadOutcomeLabels,
  type OutcomeLabel,
  readOutcomeReport,
} from "./outcome-labels.ts";

/**
 * Import one agent log as a standard trajectory (score suite, ProcCtrlBench §3.1), auto-detecting its format
 * unless `format` is given.
 * @throws InputError for an unknown format or an unreadable file
 */
export async function importTrajectory(file: string, format?: string): Promise<ImportedTrajectory> {
  const all = await importTrajectories(file, format);
  if (all.length !== 1)
    throw new InputError(
      { file },
      `holds ${all.length} trajectories, not one`,
      "read it with importTrajectories (e.g. a Gauntlet results.jsonl or an Inspect log holds one per sample)",
    );
  return all[0] as ImportedTrajectory;
}

/**
 * Import every trajectory one agent log holds (score suite, ProcCtrlBench §3.1): one for a session log, one
 * per sample or case for formats that bundle several (Inspect logs, Gauntlet `results.jsonl`).
 * @throws InputError for an unknown format or an unreadable file
 */
export async function importTrajectories(file: string, format?: string): Promise<ImportedTrajectory[]> {
  return (await importAs(file, format)).map(withShellWrites);
}

/** Formats {@link streamTrajectory} reads as a stream: one trajectory per file, events handed on as read. */
export const STREAMED_FORMATS: ReadonlySet<TrajectoryFormat> = new Set([
  "claude-code-jsonl",
  "claude-code-stream-json",
  "codex-rollout",
  "codex-exec-json",
  "gemini-cli-json",
  "gemini-cli-jsonl",
]);

/**
 * Import a one-trajectory log as a stream: each event (derived shell writes included, see
 * `ShellWrites`) goes to `onEvent` as it is read and is not kept, so memory stays flat at any log size.
 * Returns the trajectory's metadata with `events: []`, or undefined when the format is not one of
 * {@link STREAMED_FORMATS} (import it with {@link importTrajectories}).
 * @throws InputError for an unknown format or an unreadable file
 */
export async function streamTrajectory(
  file: string,
  format: string | undefined,
  onEvent: (e: TrajectoryEvent) => void,
): Promise<ImportedTrajectory | undefined> {
  const chosen = checkFormat(format) ?? detectFormat(file);
  if (!STREAMED_FORMATS.has(chosen)) return undefined;
  const writes = new ShellWrites(onEvent);
  const importer = chosen.startsWith("claude")
    ? importClaudeCode
    : chosen.startsWith("codex")
      ? importCodex
      : importGeminiCli;
  const t = await importer(file, chosen, (e) => writes.push(e));
  writes.end();
  return t;
}

/** The format asked for, checked. @throws InputError when unknown */
function checkFormat(format: string | undefined): TrajectoryFormat | undefined {
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format))
    throw new InputError(
      { field: "--format" },
      `unknown format "${format}"`,
      `use one of: ${FORMATS.join(", ")}`,
    );
  return format as TrajectoryFormat | undefined;
}

async function importAs(file: string, format?: string): Promise<ImportedTrajectory[]> {
  const chosen = checkFormat(format) ?? detectFormat(file);
  switch (chosen) {
    // Agent-harness formats (OpenHands, SWE-agent, mini-swe-agent) go here.
    case "openhands-events":
      return [await importOpenHands(file)];
    case "swe-agent-traj":
      return [await importSweAgent(file)];
    case "mini-swe-agent":
      return [await importMiniSweAgent(file)];
    // Interchange formats (ATIF, Inspect, OpenTelemetry, Gauntlet runs) go here.
    case "atif":
      return [await importAtif(file)];
    case "inspect-json":
    case "inspect-eval":
      return importInspect(file, chosen);
    case "otel-json":
      return importOtel(file);
    case "gauntlet-results":
      return importGauntletResults(file);
    case "claude-code-jsonl":
    case "claude-code-stream-json":
      return [await importClaudeCode(file, chosen)];
    case "codex-rollout":
    case "codex-exec-json":
      return [await importCodex(file, chosen)];
    case "gemini-cli-json":
    case "gemini-cli-jsonl":
      return [await importGeminiCli(file, chosen)];
  }
}
