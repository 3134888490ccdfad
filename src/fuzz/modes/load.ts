import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../../core/errors.ts";
import { shownPath } from "../../core/paths.ts";
import { loadYamlFile } from "../../core/yaml-file.ts";
import { FailureMode } from "./schema.ts";

/**
 * The failure-mode library: the shipped modes (`data/modes/*.yaml`) plus the user's own folders. A user mode
 * with the id of a shipped one replaces it. Every file is validated with the {@link FailureMode} schema;
 * problems name the file, line and field.
 */

/** The shipped mode library. */
export const SHIPPED_MODES_DIR = fileURLToPath(new URL("../../../data/modes", import.meta.url));

/** A loaded mode and where it came from. */
export interface LoadedMode {
  mode: FailureMode;
  /** The YAML file it was read from. */
  file: string;
  /** True when it comes from a user folder, not the shipped library. */
  user: boolean;
}

/** The modes of one folder (every `*.yaml` / `*.yml`, sorted by name). @throws InputError */
export function readModeDir(dir: string): { mode: FailureMode; file: string }[] {
  const shown = shownPath(dir);
  if (!existsSync(dir))
    throw new InputError({ file: shown }, "mode folder not found", "check the --modes path");
  if (!statSync(dir).isDirectory())
    throw new InputError({ file: shown }, "is not a folder", "give a folder holding failure-mode YAML files");
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
  return files.map((file) => ({
    mode: loadYamlFile(
      file,
      FailureMode,
      'see `gauntlet schema failure-mode` and docs/fuzz.md "Adding a failure mode"',
    ),
    file,
  }));
}

/**
 * The shipped modes and those of `userDirs`, in id order.
 * @throws InputError for an unreadable or invalid file, a folder without modes, or one id in two user files
 */
export function loadModes(
  userDirs: readonly string[] = [],
  shippedDir: string = SHIPPED_MODES_DIR,
): LoadedMode[] {
  const byId = new Map<string, LoadedMode>();
  for (const { mode, file } of readModeDir(shippedDir)) byId.set(mode.id, { mode, file, user: false });
  for (const dir of userDirs) {
    const found = readModeDir(dir);
    if (found.length === 0)
      throw new InputError(
        { file: shownPath(dir) },
        "holds no failure-mode file (*.yaml or *.yml; subfolders are not searched)",
        "put one mode per YAML file in the folder (see docs/fuzz.md)",
      );
    for (const { mode, file } of found) {
      const earlier = byId.get(mode.id);
      if (earlier?.user)
        throw new InputError(
          { file: shownPath(file), field: "id" },
          `mode id "${mode.id}" is also defined in ${shownPath(earlier.file)}`,
          "give each mode its own id",
        );
      byId.set(mode.id, { mode, file, user: true });
    }
  }
  return [...byId.values()].sort((a, b) => a.mode.id.localeCompare(b.mode.id));
}
