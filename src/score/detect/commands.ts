/**
 * What a shell command does, from its text (ProcCtrlBench App. A.2 exemptions need it): validation runs
 * (tests, builds, linters, type checks) may be rerun after edits; time-varying probes (`git status`,
 * `date`, `ps`, `curl`) may be repeated; inspections only read; the rest may change state.
 */

/** Families of shell commands. `other` is anything not recognised and counts as possibly mutating. */
export type CommandKind = "validate" | "probe" | "inspect" | "mutate" | "other";

const VALIDATE =
  /\b(pytest|py\.test|tox|nox|unittest|jest|vitest|mocha|ava|tap|karma|playwright|cypress|rspec|phpunit|ctest|tsc|mypy|pyright|ruff|flake8|pylint|eslint|biome|clippy|rustfmt\s+--check|gofmt\s+-l|go\s+vet|go\s+(test|build)|cargo\s+(test|build|check|clippy|nextest)|(npm|pnpm|yarn|bun)\s+(run\s+)?(test|build|lint|check|typecheck|tsc)\b|make(\s+\S+)*\s+(test|check|build|lint)\b|^make$|gradle\w*\s+(test|build|check)|mvn\s+\S*\s*(test|verify|package)|dotnet\s+(test|build)|node\s+--test|python3?\s+-m\s+(pytest|unittest|mypy|py_compile|compileall)|deno\s+(test|check|lint)|swift\s+(test|build)|bazel\s+(test|build)|sphinx-build|mkdocs\s+build|hugo|jekyll\s+build|(vite|next|nuxt|astro|webpack)\s+build|webpack)(?![\w.-])/;
const PROBE =
  /^(date|uptime|ps|top|free|df|du|whoami|hostname|git\s+(status|log|diff|show|branch|rev-parse)|docker\s+(ps|logs)|kubectl\s+(get|describe|logs)|curl|wget|ping|sleep|wait|jobs|tail\s+-f|nvidia-smi|lsof|netstat|ss)\b/;
const INSPECT =
  /^(cat|head|tail|less|more|wc|ls|ll|tree|find|fd|grep|rg|ag|ack|file|stat|which|type|pwd|echo|printf|sed\s+-n|awk|sort|uniq|diff|cmp|nl|od|xxd|jq|yq|env|printenv|python3?\s+--version|node\s+--version|\S+\s+--version|\S+\s+--help|man)\b/;
const MUTATE =
  /^(rm|mv|cp|mkdir|rmdir|touch|chmod|chown|ln|tee|truncate|patch|git\s+(add|commit|checkout|reset|restore|stash|merge|rebase|apply|push|pull|clean|switch|cherry-pick|revert)|(npm|pnpm|yarn|pip3?|uv|cargo|go|gem|apt(-get)?|brew)\s+(install|add|remove|uninstall|update|upgrade|get|i)\b|sed\s+-i|perl\s+-pi)/;

/**
 * Classify a command line. The command is split on `&&`, `;`, `||` and `|`; a leading `cd <dir>` or
 * environment assignment is ignored, and so are redaction placeholders such as `<user>`; redirection into a file (`>`, `>>`) makes it `mutate`. The result
 * is the strongest family among the parts, in the order mutate > other > validate > probe > inspect.
 */
export function classifyCommand(command: string): CommandKind {
  const parts = unredacted(command)
    .split(/&&|\|\||;|\n/)
    .flatMap((p) => p.split(/\|(?!\|)/))
    .map((p) => p.trim())
    .filter((p) => p && !/^cd(\s|$)/.test(p));
  if (parts.length === 0) return "inspect";
  let worst: CommandKind = "inspect";
  const rank: Record<CommandKind, number> = { inspect: 0, probe: 1, validate: 2, other: 3, mutate: 4 };
  for (const raw of parts) {
    const part = raw.replace(/^(\w+=\S*\s+)+/, "").replace(/^(sudo|timeout\s+\S+|time|nice|env)\s+/, "");
    let kind: CommandKind;
    if (/(^|[^0-9&])>{1,2}\s*(?!&|\/dev\/null)\S/.test(part) || MUTATE.test(part)) kind = "mutate";
    else if (VALIDATE.test(part)) kind = "validate";
    else if (PROBE.test(part)) kind = "probe";
    else if (INSPECT.test(part)) kind = "inspect";
    else kind = "other";
    if (rank[kind] > rank[worst]) worst = kind;
  }
  return worst;
}

/**
 * A command line with redaction placeholders of published logs (`/home/<user>/…`, `<REDACTED>`) made plain
 * words, so their `<` and `>` do not read as redirections.
 */
export function unredacted(command: string): string {
  return command.replace(/<[A-Za-z_][\w-]*>/g, "X");
}

/** A command line with backslash escapes and quotes removed (`'a b'`, `a\ b` and `"a b"` read alike). */
export function unquoted(command: string): string {
  return command.replace(/\\(.)/g, "$1").replace(/["']/g, "");
}
