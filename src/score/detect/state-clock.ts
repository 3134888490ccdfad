import { unredacted } from "./commands.ts";
import { readTargets } from "./file-reads.ts";
import { FileMap } from "./paths.ts";
import type { CallView } from "./view.ts";

/**
 * Duplicate Step's notion of state (ProcCtrlBench App. A.2: "no substantive state change in between").
 * The state a call observes: a global clock (user turns, compactions, changes whose targets are unknown)
 * plus, for a read of named files, the versions of those files — a re-read of a file nothing wrote is a
 * duplicate even if other files changed — or, for any other call, the count of all changes.
 */
export class StateClock {
  private global = 0;
  private turns = 0;
  private changes = 0;
  private readonly files = new FileMap<number>(); // path (any form) → how often it was written

  /** A compaction or a change whose targets are unknown: everything may differ now. */
  bumpAll(): void {
    this.global++;
  }

  /** A user turn: the user may have changed anything, or asked for a fresh look. */
  bumpTurn(): void {
    this.turns++;
  }

  /** The state `c` observes; `withTurns: false` leaves user turns out (for checks that compare content). */
  of(c: CallView | undefined, withTurns = true): string {
    const files = c ? readTargets(c) : undefined;
    const epoch = withTurns ? `${this.global}.${this.turns}` : `${this.global}`;
    if (!files) return `${epoch}:${this.changes}`;
    return `${epoch}:${files.map((f) => this.files.get(f) ?? 0).join(",")}`;
  }

  after(c: CallView): void {
    // A build writes its outputs (`_build/`, `dist/`) where no change is recorded: anything may differ now.
    if (c.kind === "shell" && !c.failed && BUILD.test(c.commandText)) {
      this.global++;
      return;
    }
    if (!changesState(c)) return;
    if (!c.changes.length && c.kind === "shell" && environmentOnly(c.commandText)) {
      this.changes++; // the environment changed (packages, a virtualenv), not the project's files
      return;
    }
    const touched = [
      ...c.changes.map((x) => x.path),
      ...(c.kind === "write" || c.kind === "edit" ? c.paths : []),
    ];
    if (!touched.length) {
      this.global++;
      return;
    }
    this.changes++;
    for (const p of touched) this.files.set(p, (this.files.get(p) ?? 0) + 1);
  }
}

/** Commands that build, writing outputs no change event records. */
const BUILD =
  /(^|[;&|]\s*|\s)(sphinx-build|mkdocs\s+build|hugo|jekyll\s+build|(npm|pnpm|yarn|bun)\s+(run\s+)?build|(vite|next|nuxt|astro|webpack)\s+build|webpack|make|cargo\s+build|go\s+build|tsc|gradle\w*\s+build|mvn\s+\S*\s*package|dotnet\s+build|swift\s+build|bazel\s+build|python3?\s+-m\s+build)(?![\w.-])/;

/** Commands that set up the environment only: package installs, virtualenvs, activating one. */
const ENVIRONMENT =
  /^((npm|pnpm|yarn|bun|pip3?|uv|poetry|pipenv|cargo|gem|bundle|conda|mamba|brew|apt(-get)?)\s+(install|add|i|sync|ci)\b|python3?\s+-m\s+(pip\s+install|venv)\b|virtualenv\b|uv\s+venv\b|(source|\.)\s+\S*activate\b)/;

/** Every part of the command line only sets up the environment (see {@link ENVIRONMENT}). */
function environmentOnly(command: string): boolean {
  const parts = unredacted(command)
    .split(/&&|\|\||;|\n/)
    .map((p) => p.trim().replace(/^(sudo|time)\s+/, ""))
    .filter((p) => p && !/^cd(\s|$)/.test(p));
  return (
    parts.length > 0 &&
    parts.every((p) => ENVIRONMENT.test(p) && !/(^|[^0-9&])>{1,2}\s*(?!&|\/dev\/null)\S/.test(p))
  );
}

/** A definite state change (see the module doc). */
function changesState(c: CallView): boolean {
  if (c.changes.length > 0) return true;
  if (c.failed) return false;
  if (c.kind === "write" || c.kind === "edit" || c.kind === "delegate") return true;
  if (c.kind === "shell") return c.commandKind === "mutate";
  return c.kind === "other";
}
