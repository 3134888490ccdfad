import { InputError } from "../../core/errors.ts";
import { importClaudeCode } from "./claude-code.ts";
import { importCodex } from "./codex.ts";
import { detectFormat, FORMATS, type TrajectoryFormat } from "./detect.ts";
import { importGeminiCli } from "./gemini-cli.ts";
import type { ImportedTrajectory } from "./imported.ts";

export { detectFormat, FORMATS, type TrajectoryFormat } from "./detect.ts";
export type { ImportedTrajectory } from "./imported.ts";

/**
 * Import one agent log as a standard trajectory (score suite, ProcCtrlBench §3.1), auto-detecting its format
 * unless `format` is given.
 * @throws InputError for an unknown format or an unreadable file
 */
export async function importTrajectory(file: string, format?: string): Promise<ImportedTrajectory> {
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format))
    throw new InputError(
      { field: "--format" },
      `unknown format "${format}"`,
      `use one of: ${FORMATS.join(", ")}`,
    );
  const chosen = (format as TrajectoryFormat | undefined) ?? detectFormat(file);
  switch (chosen) {
    case "claude-code-jsonl":
    case "claude-code-stream-json":
      return importClaudeCode(file, chosen);
    case "codex-rollout":
    case "codex-exec-json":
      return importCodex(file, chosen);
    case "gemini-cli-json":
    case "gemini-cli-jsonl":
      return importGeminiCli(file, chosen);
  }
}
