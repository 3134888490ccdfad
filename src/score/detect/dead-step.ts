import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { Artifacts } from "./artifacts.ts";
import { sharedDuplicateSteps, short } from "./duplicate-step.ts";
import { excerptsOf } from "./evidence.ts";
import { type Detector, Instances, makeFinding, streaming } from "./finding.ts";
import { MAX_PENDING_PROBES } from "./later-use.ts";
import { partsAt, sharedTerms, spell } from "./terms.ts";
import type { CallView } from "./view.ts";

/**
 * Dead Step (ProcCtrlBench App. A.2): an executed action with no downstream influence. Gauntlet judges
 * information-gathering calls — reads, searches, listings, fetches, inspecting shell commands — because
 * their only effect is what they tell the agent: a result that brought new information (at least
 * {@link MIN_NEW} distinctive tokens seen nowhere earlier in the trajectory) none of which any later
 * assistant message or tool input draws on (as a whole token, or through a part of one: `validateData`
 * is drawn on by a later "validate") had no influence.
 *
 * Also dead: actions that had nothing to do (a `git commit` on a clean tree: {@link noEffect}) and
 * artifacts nothing used (a script written and never run, an output saved and never read:
 * {@link unusedArtifacts}).
 *
 * Raw score: one point per action with no effect or artifact nothing used, half a point per result nothing
 * drew on ({@link UNUSED_RESULT_WEIGHT}). Evidence: the call and its result.
 * Calls that changed state (writes, edits, mutating commands), failed calls, and results with too little
 * new information to judge are not judged. A call that exactly repeats an earlier one is a Duplicate Step,
 * not a Dead Step.
 *
 * Exemptions: reads of long-lived rule and memory files (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`,
 * `.cursorrules`, memory files) — rules shape behaviour without being quoted (App. A.1); results the log
 * ends before anything could use (no assistant message or tool call after them: a cut-off log).
 *
 * Complexity: O(n · cap) — one pass over the stream; each text contributes at most `cap` terms (shared
 * scans, {@link sharedTerms}). Each judged result that brings new terms becomes a pending probe holding
 * them (and their parts), resolved and dropped by the first later produced text that draws on one of them
 * (a term → probes index); the rest are decided at the end. Calls are judged as they pass, after the stream's
 * Duplicate Step machine ({@link sharedDuplicateSteps}) has said whether they are repeats. State: the terms seen
 * ({@link TermSet}: exact up to {@link SEEN_EXACT} terms, then a 2²⁶-bit bitset that takes a new term for
 * seen n / 2²⁶ of the time: 1.5% at a million terms), the calls judged whose result is still to come (calls
 * in flight), the pending probes (results not drawn on yet: at the end, instances; at most
 * {@link MAX_PENDING_PROBES}), and
 * for artifacts the paths and names met (per file), the artifacts nothing used yet, and the distinct
 * words of earlier user messages and write/edit inputs (`Words` in artifacts.ts, at most `MAX_WORD_CHARS`
 * characters: past that, a name only later such texts mention is not seen there).
 */
export const deadStep: Detector = streaming("dead-step", (shared) => {
  const exempted = new Instances<ExemptedInstance>();
  const idle = new Instances<DefectInstance>(); // actions with no effect
  const settled = new Instances<DefectInstance>(); // probes nothing drew on while MAX_PENDING_PROBES others waited
  const repeats = sharedDuplicateSteps(shared);
  const seen = new TermSet();
  const judged = new Set<CallView>(); // judged calls whose result is still to come: calls in flight
  const probes = new Set<Probe>(); // pending, in the order of their results
  const index = new Map<number, Probe | Probe[]>(); // term or part → the pending probes holding it
  const artifacts = new Artifacts();
  let lastProduced = -1; // position of the last text the agent produced
  return {
    push(at, e, c) {
      const repeat = repeats.push(at, e, c);
      if (e.type === "tool_call" && c) {
        if (c.result && !c.failed && isInformational(c) && !repeat) judged.add(c);
        const none = noEffect(c);
        if (none) idle.push(none);
        artifacts.call(c);
      } else if (e.type === "message" && e.role === "user") artifacts.userText(e.text);
      if (e.type !== "message" && e.type !== "tool_call" && e.type !== "tool_result") return;
      const found = sharedTerms(e);
      const n = Math.min(found.terms.length, TOKENS_PER_TEXT);
      if (e.type === "tool_result" && c?.result === e && judged.delete(c)) {
        // Which terms the judged result brings first.
        const brought: number[] = [];
        const held = new Set<number>();
        for (let k = 0; k < n; k++) {
          const t = found.terms[k] as number;
          if (seen.has(t)) continue;
          brought.push(t);
          held.add(t);
          for (const p of partsAt(found, k)) held.add(p);
        }
        for (let k = 0; k < n; k++) seen.add(found.terms[k] as number);
        if (brought.length >= MIN_NEW) probe(at, c, brought, held);
        return;
      }
      for (let k = 0; k < n; k++) seen.add(found.terms[k] as number);
      const produced =
        e.type === "message"
          ? e.role === "assistant" && e.text !== ""
          : e.type === "tool_call" && (n > 0 || hasText(e.input));
      if (!produced) return;
      lastProduced = at;
      if (!probes.size) return;
      for (let k = 0; k < n; k++) {
        use(found.terms[k] as number);
        for (const p of partsAt(found, k)) use(p);
      }
    },
    finish() {
      const instances = new Instances<DefectInstance>();
      for (const p of probes) {
        if (p.rules)
          exempted.push({
            ...p.instance,
            reason: RULES_REASON,
          });
        else if (lastProduced < p.at)
          exempted.push({ ...p.instance, reason: "the log ends before anything could use the result" });
        else instances.push(p.instance);
      }
      instances.absorb(settled);
      instances.absorb(idle);
      for (const x of artifacts.unused()) instances.add(x);
      return makeFinding("dead-step", instances, exempted);
    },
  };

  /** A judged result at `at` brought `brought` (terms; `held`: with their parts): wait for their use. */
  function probe(at: number, c: CallView, brought: number[], held: Set<number>): void {
    const r = c.result!;
    const what = c.commandText ? `\`${short(c.commandText)}\`` : `${c.call.name} ${c.paths[0] ?? ""}`.trim();
    const p: Probe = {
      at,
      rules: c.paths.some((x) => RULES_FILE.test(x)),
      held: [...held],
      instance: {
        events: [c.call.id, r.id],
        note: `${what} (${c.call.id}) returned ${brought.length} new terms, none used afterwards (e.g. ${spell(
          r.output,
          brought.slice(0, 3),
        ).join(", ")})`,
        weight: UNUSED_RESULT_WEIGHT,
        excerpts: excerptsOf(c.call, r),
      },
    };
    probes.add(p);
    if (probes.size > MAX_PENDING_PROBES) settleOldest();
    for (const h of p.held) {
      const holders = index.get(h);
      if (!holders) index.set(h, p);
      else if (Array.isArray(holders)) holders.push(p);
      else index.set(h, [holders, p]);
    }
  }

  /** A produced text draws on `h`: the probes holding it were used; forget them. */
  function use(h: number): void {
    const holders = index.get(h);
    if (!holders) return;
    for (const p of Array.isArray(holders) ? [...holders] : [holders]) forget(p);
  }

  /** Drop a pending probe and its index entries. */
  function forget(p: Probe): void {
    probes.delete(p);
    for (const x of p.held) {
      const hs = index.get(x);
      if (hs === p) index.delete(x);
      else if (Array.isArray(hs)) {
        const i = hs.indexOf(p);
        if (i >= 0) hs.splice(i, 1);
        if (hs.length === 1) index.set(x, hs[0] as Probe);
        else if (!hs.length) index.delete(x);
      }
    }
  }

  /** The probe judged longest ago, once more than MAX_PENDING_PROBES (later-use.ts) wait: nothing drew on it. */
  function settleOldest(): void {
    const p = probes.values().next().value as Probe;
    forget(p);
    if (p.rules)
      exempted.add({
        ...p.instance,
        reason: RULES_REASON,
      });
    else settled.add(p.instance);
  }
});

/** A judged result waiting for a later text to draw on what it brought. */
interface Probe {
  /** Position of the result. */
  at: number;
  /** It read a rules or memory file. */
  rules: boolean;
  /** The new terms and their parts. */
  held: number[];
  instance: DefectInstance;
}

/** Distinct terms kept exactly; past this many, {@link TermSet} keeps a bitset instead. */
export const SEEN_EXACT = 1 << 17;

/**
 * The terms seen so far: a set of their hashes up to {@link SEEN_EXACT} of them, then a bitset of 2²⁶ bits
 * (8 MiB) indexed by a multiplicative hash of the term hash. Past the switch a new term is taken for seen
 * when its bit is already set: with n terms, about n / 2²⁶ of the time (0.2% at the switch, 1.5% at a
 * million terms) — a result then counts fewer new terms (it may fall below {@link MIN_NEW}: not judged).
 */
class TermSet {
  private exact: Set<number> | undefined = new Set();
  private bits: Int32Array | undefined;

  has(t: number): boolean {
    if (this.exact) return this.exact.has(t);
    const i = slot(t);
    return ((this.bits![i >>> 5]! >>> (i & 31)) & 1) === 1;
  }

  add(t: number): void {
    if (!this.exact) {
      this.set(t);
      return;
    }
    this.exact.add(t);
    if (this.exact.size <= SEEN_EXACT) return;
    this.bits = new Int32Array(1 << 21);
    for (const x of this.exact) this.set(x);
    this.exact = undefined;
  }

  private set(t: number): void {
    const i = slot(t);
    this.bits![i >>> 5]! |= 1 << (i & 31);
  }
}

/** A term's bit: the top 26 bits of its hash times the golden ratio. */
function slot(t: number): number {
  return Math.imul(t, 0x9e3779b1) >>> 6;
}

/** `inputText(input) !== ""`, without joining the text. */
function hasText(input: unknown): boolean {
  let leaves = 0;
  const walk = (v: unknown): boolean => {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
      leaves++;
      return leaves > 1 || v !== "";
    }
    if (Array.isArray(v)) return v.some(walk);
    if (v && typeof v === "object") return Object.values(v).some(walk);
    return false;
  };
  return walk(input);
}

/** Results saying an action had nothing to do. */
const NO_OP =
  /\b(nothing to commit|nothing added to commit|no changes added to commit|already up[- ]to[- ]date|nothing to (do|push|install|update)|no changes (were )?(made|detected|to apply)|0 files? changed)\b/i;

/**
 * Actions that did nothing: a state-changing call (a mutating command, a write or an edit) whose result
 * says there was nothing to do (`git commit` on a clean tree, an install of what is installed) — an
 * executed step with no effect and so no downstream influence.
 */
function noEffect(c: CallView): DefectInstance | undefined {
  const acting =
    c.kind === "write" || c.kind === "edit" || (c.kind === "shell" && c.commandKind === "mutate");
  if (!acting || !c.result) return undefined;
  const m = NO_OP.exec(c.result.output);
  if (!m) return undefined;
  const what = c.commandText ? `\`${short(c.commandText)}\`` : c.call.name;
  return {
    events: [c.call.id, c.result.id],
    note: `${what} (${c.call.id}) had nothing to do: ${m[0]}`,
    weight: 1,
    excerpts: excerptsOf(c.call, c.result),
  };
}

/**
 * Weight of a result none of whose new terms is drawn on later: half a point, since term overlap is weaker
 * evidence than an action that did nothing or an artifact nothing used (one point each).
 */
export const UNUSED_RESULT_WEIGHT = 0.5;

/** Distinct tokens taken from each text (its first ones): enough to see new information and its use. */
export const TOKENS_PER_TEXT = 150;

/** New distinctive tokens a result must bring before its (lack of) influence is judged. */
export const MIN_NEW = 3;

/** Why a result read from a rules or memory file is exempt (App. A.1). */
const RULES_REASON = "long-lived rules or memory file: shapes behaviour without being quoted";

const RULES_FILE = /(^|\/)(CLAUDE|AGENTS|GEMINI|QWEN)\.md$|\.cursorrules$|(^|\/)\.?memory|MEMORY\.md$/i;

function isInformational(c: CallView): boolean {
  if (c.mutates && c.kind !== "shell") return false;
  if (c.kind === "read" || c.kind === "search" || c.kind === "list" || c.kind === "fetch") return true;
  return c.kind === "shell" && (c.commandKind === "inspect" || c.commandKind === "probe");
}
