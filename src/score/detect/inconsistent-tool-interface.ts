import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { Instances, makeFinding, streaming } from "./finding.ts";
import { isAbsolutePath } from "./paths.ts";
import { PATH_KEYS, type ToolKind } from "./tools.ts";
import type { CallView } from "./view.ts";

/**
 * Inconsistent Tool Interface (ProcCtrlBench App. A.4): mismatched conventions among similar tools, seen
 * where they bite — tool errors whose text shows the agent used another tool's convention — and where
 * they are visible in the run's own calls. Instances:
 *
 * - argument error (weight 1): a failed call whose result reports an unknown, missing or invalid
 *   argument or a schema violation (`InputValidationError`, `required property`, `unexpected keyword
 *   argument`, `Invalid arguments`, …);
 * - path-form error (weight 1): a result demanding the other path form (`must be an absolute path`,
 *   relative paths not allowed, outside the workspace) for the form the last successful call that named a
 *   path used — another tool took it, this one refuses it —, or a missing-file error on a call whose path
 *   form (absolute / relative) differs from the last successful call that named a path;
 * - indexing error (weight 1): line or offset conventions (`line 0`, `1-based`, out of range, beyond the
 *   end of file);
 * - naming mismatch (weight 0.5): two tools of the same kind used in the run that name the same argument
 *   role differently (`file_path` vs `path` for the path, `content` vs `file_text`, `old_string` vs
 *   `old_str`, `command` vs `cmd`). Evidence: the first call of each.
 * Error text is only read from non-shell tools, and from shell calls whose program never ran (no exit
 * code): a program's own output (`out of range`, `unexpected keyword argument` in a test log) is not the
 * tool's interface.
 *
 * Raw score: tool errors caused by a convention mismatch between similar tools (argument names, path
 * form, indexing), half a point per pair of similar tools naming an argument differently. Evidence per
 * error: the call and its result.
 *
 * Exemptions (kept in `exempted`): a missing-file error whose path form matches the earlier successful
 * calls (or with none to compare) — the file is genuinely missing, not the convention; a path-form error
 * for a form no earlier successful call used — the agent's slip, not a mismatch between tools.
 *
 * Complexity: O(n) — one pass over the stream's calls; state: the last successful call naming a path (its
 * path form, id and excerpt) and, per tool kind and argument role, the first call giving each argument
 * name (tool, id, excerpt: bounded by the kinds, roles and names listed).
 */
export const inconsistentToolInterface = streaming("inconsistent-tool-interface", () => {
  const instances = new Instances<DefectInstance>();
  const exempted = new Instances<ExemptedInstance>();
  let lastForm: { absolute: boolean; id: string; excerpt: Excerpt } | undefined;
  const naming = new Map<string, Map<string, FirstCall>>(); // kind/role → argument name → first call
  /** An error caused by a convention mismatch counts (with `events`); otherwise it is exempt (the call and result only). */
  const judge = (counted: boolean, events: string[], excerpts: Excerpt[], note: string, reason: string) => {
    if (counted) instances.push({ events, note, weight: 1, excerpts });
    else exempted.push({ events: events.slice(-2), note, weight: 1, reason, excerpts: excerpts.slice(-2) });
  };
  return {
    push(_at, e, c) {
      if (e.type !== "tool_call" || !c) return;
      noteNaming(c, naming, instances);
      const path = c.paths[0];
      if (!c.failed) {
        if (path) lastForm = { absolute: isAbsolutePath(path), id: c.call.id, excerpt: excerptOf(c.call) };
        return;
      }
      if (!c.result || (c.kind === "shell" && c.command && c.command.exitCode !== null)) return;
      const text = c.result.output;
      const evidence = [c.call.id, c.result.id];
      const excerpts = [excerptOf(c.call), excerptOf(c.result)];
      const quote = (re: RegExp) => (re.exec(text)?.[0] ?? "").slice(0, 80);
      if (SCHEMA.test(text))
        instances.push({
          events: evidence,
          note: `${c.call.name} (${c.call.id}) argument error: "${quote(SCHEMA)}"`,
          weight: 1,
          excerpts,
        });
      else if (c.kind === "shell") return;
      else if (PATH_FORM.test(text)) {
        // A mismatch between tools only when the form refused is the one earlier calls used successfully.
        const counted = !path || (lastForm !== undefined && lastForm.absolute === isAbsolutePath(path));
        judge(
          counted,
          lastForm && path ? [lastForm.id, ...evidence] : evidence,
          lastForm && path ? [lastForm.excerpt, ...excerpts] : excerpts,
          `${c.call.name} (${c.call.id}) path-form error: "${quote(PATH_FORM)}"`,
          lastForm
            ? "the agent's own slip: earlier successful calls used the path form this tool asks for"
            : "no earlier successful call named a path: no other convention to mismatch",
        );
      } else if (INDEXING.test(text))
        instances.push({
          events: evidence,
          note: `${c.call.name} (${c.call.id}) indexing error: "${quote(INDEXING)}"`,
          weight: 1,
          excerpts,
        });
      else if (MISSING.test(text) && path) {
        const absolute = isAbsolutePath(path);
        const note = `${c.call.name} (${c.call.id}) could not find ${absolute ? "absolute" : "relative"} path ${path}`;
        const counted = lastForm !== undefined && lastForm.absolute !== absolute;
        judge(
          counted,
          lastForm ? [lastForm.id, ...evidence] : evidence,
          lastForm ? [lastForm.excerpt, ...excerpts] : excerpts,
          counted && lastForm
            ? `${note}, where the last successful call (${lastForm.id}) used ${lastForm.absolute ? "an absolute" : "a relative"} path`
            : note,
          "genuinely missing file: path form consistent with earlier successful calls",
        );
      }
    },
    finish: () => makeFinding("inconsistent-tool-interface", instances, exempted),
  };
});

/** The first call giving an argument role a name: its tool, id and excerpt. */
interface FirstCall {
  name: string;
  id: string;
  excerpt: Excerpt;
}

/** Argument and schema errors of a tool call. */
const SCHEMA =
  /InputValidationError|invalid (tool )?(arguments|parameters|params|input)\b|unknown (parameter|argument|field|key|property|option)|unexpected (keyword )?(argument|parameter|property|field|key)|(missing|required) (required )?(parameter|argument|property|field)|required property|is a required (parameter|property|field|argument)|must have required property|unrecognized key|additional propert(y|ies)|invalid_type|expected \w+, received \w+|must NOT have additional/i;

/** Errors demanding the other path form. */
const PATH_FORM =
  /must be an? absolute path|path must be absolute|not an absolute path|relative paths? (is |are )?not (allowed|supported|permitted)|must be (a )?relative path|outside (of )?the (workspace|project|allowed|root)|within the (workspace|project) (root|director)/i;

/** Errors about line or offset conventions. */
const INDEXING =
  /\bline 0\b|\b(1|one|0|zero)-based\b|out of range|exceeds (the )?(file length|number of lines|total lines|line count)|beyond (the )?end of (the )?file|invalid (line|offset|range)\b|(offset|start_line|end_line|line number) (must|should) be/i;

/** Missing-file errors. */
const MISSING =
  /no such file|ENOENT|does not exist|(file|path|directory) not found|cannot find the (file|path)|could not find (the )?(file|path)/i;

/** Argument names that play the same role, per role. */
const ROLES: [string, string[]][] = [
  ["path", PATH_KEYS],
  ["content", ["content", "file_text", "contents", "text"]],
  ["old text", ["old_string", "old_str", "oldText", "old_text", "search"]],
  ["new text", ["new_string", "new_str", "newText", "new_text", "replace"]],
  ["command", ["command", "cmd", "commandLine", "script"]],
];

const SIMILAR: ReadonlySet<ToolKind> = new Set(["read", "write", "edit", "search", "list", "shell"]);

/** Record which name a call gives each argument role; a second name from another tool is a mismatch. */
function noteNaming(
  c: CallView,
  naming: Map<string, Map<string, FirstCall>>,
  instances: Instances<DefectInstance>,
): void {
  if (!SIMILAR.has(c.kind) || !c.call.input || typeof c.call.input !== "object") return;
  const input = c.call.input as Record<string, unknown>;
  for (const [role, names] of ROLES) {
    const name = names.find((n) => n in input);
    if (!name) continue;
    const key = `${c.kind}/${role}`;
    const seen = naming.get(key) ?? new Map<string, FirstCall>();
    naming.set(key, seen);
    if (seen.has(name)) continue;
    const other = [...seen.entries()].find(([, first]) => first.name !== c.call.name);
    const excerpt = excerptOf(c.call);
    seen.set(name, { name: c.call.name, id: c.call.id, excerpt });
    if (other)
      instances.push({
        events: [other[1].id, c.call.id],
        note: `${other[1].name} and ${c.call.name} (both ${c.kind} tools) name the ${role} \`${other[0]}\` and \`${name}\``,
        weight: 0.5,
        excerpts: [other[1].excerpt, excerpt],
      });
  }
}
