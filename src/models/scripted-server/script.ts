import { z } from "zod";
import { parseWith } from "../../core/validate.ts";
import { loadYamlFile } from "../../core/yaml-file.ts";

/**
 * The script of a scripted model server (issue 3 §5): what the "model" does for each prompt. Actions are
 * written once, agent-neutrally (`write`, `edit`, `shell`, `read`); the server turns each into the tool call
 * of whichever agent is asking, from the tools that agent offers in its request (see dialect.ts).
 *
 * @example
 * steps:
 *   - when: "create notes"             # case-insensitive regex on the latest user prompt
 *     do:
 *       - write: { path: notes.txt, content: "hello\n" }
 *       - shell: "cat notes.txt; exit 3"
 *     say: "Done: created notes.txt."
 */

const WriteAction = z
  .object({
    write: z
      .object({
        path: z.string().min(1).describe("File to create, relative to the agent's workspace or absolute."),
        content: z.string().describe("Whole new content of the file."),
      })
      .strict(),
  })
  .strict();

const EditAction = z
  .object({
    edit: z
      .object({
        path: z.string().min(1).describe("File to edit, relative to the agent's workspace or absolute."),
        old: z.string().min(1).describe("Exact text to replace (must occur in the file)."),
        new: z.string().describe("Replacement text."),
      })
      .strict(),
  })
  .strict();

const ShellAction = z
  .object({ shell: z.string().min(1).describe("Shell command line for the agent to run.") })
  .strict();

const ReadAction = z
  .object({ read: z.string().min(1).describe("File for the agent to read (relative or absolute).") })
  .strict();

const CallAction = z
  .object({
    call: z
      .object({
        name: z.string().min(1).describe("Tool name exactly as the agent offers it (e.g. `Bash`)."),
        args: z.record(z.string(), z.unknown()).default({}).describe("Arguments, passed through as given."),
      })
      .strict(),
  })
  .strict();

/** One thing the scripted model asks the agent to do. */
export const ScriptAction = z
  .union([WriteAction, EditAction, ShellAction, ReadAction, CallAction], {
    error:
      "expected one action: write {path, content}, edit {path, old, new}, shell <command>, read <path> or call {name, args}",
  })
  .describe(
    "One tool call: `write {path, content}`, `edit {path, old, new}`, `shell <command>`, `read <path>`, or a " +
      "raw `call {name, args}` for one agent's own tool.",
  );
export type ScriptAction = z.output<typeof ScriptAction>;

/** What the model does for prompts matching `when`. */
export const ScriptStep = z
  .object({
    when: z
      .string()
      .min(1)
      .refine(
        (re) => {
          try {
            new RegExp(re, "i");
            return true;
          } catch {
            return false;
          }
        },
        { message: "not a valid regular expression" },
      )
      .describe("Case-insensitive JavaScript regex tested against the latest user prompt."),
    do: z.array(ScriptAction).default([]).describe("Tool calls, one per model turn, in order."),
    say: z.string().default("Done.").describe("Final answer once every tool call has a result."),
  })
  .strict();
export type ScriptStep = z.output<typeof ScriptStep>;

/** A whole script (YAML). */
export const ModelScript = z
  .object({
    steps: z
      .array(ScriptStep)
      .default([])
      .describe("Tried in order; the first whose `when` matches is used."),
    structured: z
      .record(z.string(), z.unknown())
      .default({})
      .describe(
        "Replies to structured-output requests (no tools, a JSON schema asked for), by schema name — e.g. " +
          "`screening`, `fuzz_case`, `finding_review` for Gauntlet's own model roles. A request naming no " +
          "listed schema gets a minimal object shaped by its schema.",
      ),
    fallback: z
      .string()
      .default("I have no scripted answer for this prompt.")
      .describe("Answer to a prompt no step matches, and to side requests offering no tools (titles)."),
  })
  .strict()
  .describe("Script of `gauntlet model-server`: the scripted model's tool calls and answers per prompt.");
export type ModelScript = z.output<typeof ModelScript>;

/**
 * Expand `${NAME}` in every string of the script from `env` (e.g. `${HOME}` for a path in the user's real
 * home, which a hostile script aims at). An unset name is left as written and reported to `onUnset`.
 */
export function expandScript(
  script: ModelScript,
  env: NodeJS.ProcessEnv,
  onUnset: (name: string) => void = () => {},
): ModelScript {
  const expand = (value: unknown): unknown => {
    if (typeof value === "string")
      return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (all, name: string) => {
        if (env[name] === undefined) onUnset(name);
        return env[name] ?? all;
      });
    if (Array.isArray(value)) return value.map(expand);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
    return value;
  };
  return expand(script) as ModelScript;
}

/**
 * Load a script file, with `${NAME}` expanded from the environment; the expanded script is validated again
 * (a variable can hold an invalid regular expression).
 * @param onUnset told each `${NAME}` that is not set (it stays as written)
 * @throws InputError naming the file, line and field of a problem
 */
export function loadModelScript(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  onUnset?: (name: string) => void,
): ModelScript {
  const hint = "fix the step, or run `gauntlet schema model-script` for the shape";
  const unset = new Set<string>();
  const expanded = expandScript(loadYamlFile(file, ModelScript, hint), env, (name) => unset.add(name));
  for (const name of unset) onUnset?.(name);
  return parseWith(ModelScript, expanded, { file }, `${hint} (after \${…} expansion)`);
}
