import type { TrajectoryEvent } from "../../core/trajectory.ts";
import type { DefectInstance, ExemptedInstance } from "../defects.ts";
import { type Excerpt, excerptOf } from "./evidence.ts";
import { isSpace } from "./file-reads.ts";
import { makeFinding, streaming } from "./finding.ts";
import { LaterUse, type Probe, sampleTerms } from "./later-use.ts";
import { MAX_REMEMBERED, RecentMap } from "./stream.ts";
import { scanTerms } from "./terms.ts";
import { estimateTokens } from "./view.ts";

/**
 * Oversized Rules (ProcCtrlBench App. A.1): persistent static prompt burden — rule text carried in
 * context that the run never draws on (as opposed to Ghost Context, dynamically retained material).
 *
 * Rule text, by source:
 * - system messages (not compaction summaries);
 * - `<system-reminder>` blocks in user messages, and in tool outputs when the same block comes back at
 *   least twice (harness re-injection; a one-off reminder in a result is dynamic feedback);
 * - user messages that are injected instructions: `# AGENTS.md instructions`, `<INSTRUCTIONS>`,
 *   `<user_instructions>`, `Contents of …/CLAUDE.md`, `# Instructions` / `# Rules` preambles — minus the
 *   task statement such templates wrap (`<pr_description>`, `<issue>`, `<task>`, …);
 * - any other user or system message text of at least {@link MIN_REPEATED_CHARS} characters repeated
 *   identically (static re-injection).
 * Each block is split into sections at Markdown headings and tag-only lines (a section holds at least
 * {@link MIN_SECTION_CHARS} characters), and identical sections are grouped. A group is drawn on when at
 * least {@link DRAWN_ON} of a sample of its distinctive tokens (up to 50; at least one) appears in an
 * assistant message or tool input after its first occurrence.
 *
 * Raw score: thousand estimated tokens of rule text never drawn on — a group weighs its section's tokens
 * times its occurrences / 1000 (every re-injection is carried again). Evidence: the events carrying the
 * section, in order.
 *
 * Exemption (App. A.1 "necessary long-lived rules"), kept in `exempted`: a section the run demonstrably
 * uses — its evidence adds the first event drawing on it; and rule text the log ends before anything
 * could draw on (no assistant message or tool call after it: a cut-off log). Sections with too few
 * distinctive tokens to judge (fewer than 3) are left out.
 *
 * Complexity: O(n + total text) — one pass over the stream. State: the groups of sections (keyed by a hash
 * of their text, at most {@link MAX_REMEMBERED}: past that the group touched longest ago is judged with
 * the use seen so far and forgotten), each with its events and a pending probe of its use
 * ({@link LaterUse}) from its first occurrence; and the first copies of long user messages not yet seen
 * twice (at most {@link MAX_REMEMBERED}), with probes from where they stand.
 */
export const oversizedRules = streaming("oversized-rules", () => {
  const use = new LaterUse<undefined>({ untilCompaction: false, decide: () => {} });
  const groups = new RecentMap<number, Group>(); // section key → its group
  const retired: Judged[] = []; // groups judged when forgotten (past MAX_REMEMBERED)
  const seen = new RecentMap<number, Seen>(); // long user message text → its copies so far
  let afterCompaction = false;
  // The event at hand: its position, id, excerpt (taken once, when needed) and sections found in it.
  let at = 0;
  let current: TrajectoryEvent | undefined;
  let excerpt: Excerpt | undefined;
  let sub = 0;
  const excerptNow = () => (excerpt ??= excerptOf(current as TrajectoryEvent));

  return {
    push(position, e) {
      use.push(e);
      if (e.type === "context") {
        afterCompaction = e.compaction === true;
        return;
      }
      if (e.type === "usage") return;
      const wasAfterCompaction = afterCompaction;
      afterCompaction = false;
      at = position;
      current = e;
      excerpt = undefined;
      sub = 0;
      if (e.type === "tool_result" && e.output.includes("<system-reminder>"))
        for (const m of e.output.matchAll(REMINDER)) block(m[1] ?? "", TOOL_REMINDER);
      if (e.type !== "message" || e.role === "assistant" || e.role === "tool") return;
      if (e.role === "system") {
        if (!wasAfterCompaction && !SUMMARY.test(e.text)) block(e.text, "system prompt");
        return;
      }
      let rest = e.text;
      if (rest.includes("<system-reminder>")) {
        for (const m of rest.matchAll(REMINDER)) block(m[1] ?? "", "reminder");
        rest = rest.replace(REMINDER, "");
      }
      rest = rest.trim();
      if (INJECTED.test(rest)) block(rest.replace(TASK, "").trim(), "injected instructions");
      else if (rest.length >= MIN_REPEATED_CHARS) repeated(rest);
    },
    finish() {
      use.finish();
      const judged = [...retired];
      for (const g of groups.values()) {
        const j = judge(g);
        if (j) judged.push(j);
      }
      judged.sort((a, b) => a.at - b.at || a.sub - b.sub); // groups in first-occurrence order
      const instances: DefectInstance[] = [];
      const exempted: ExemptedInstance[] = [];
      for (const j of judged) {
        if ("reason" in j.instance) exempted.push(j.instance);
        else instances.push(j.instance);
      }
      return makeFinding("oversized-rules", instances, exempted);
    },
  };

  /** A rule block of the event at hand: each of its sections joins its group. */
  function block(text: string, source: string): void {
    for (const s of sections(text)) {
      const key = textKey(s);
      const g = groups.get(key);
      if (g) {
        g.events.push(current?.id ?? "");
        g.ats.push(at);
        if (g.excerpts.length < 4) g.excerpts.push(excerptNow());
        groups.set(key, g);
      } else
        keep(key, {
          at,
          sub,
          first: section(s, source, true),
          events: [current?.id ?? ""],
          ats: [at],
          excerpts: [excerptNow()],
        });
      sub++;
    }
  }

  /**
   * A long user message that is not injected instructions: rule text once it is re-injected. Its first
   * copy is held (its sections, with probes from its position for those not yet in a group) until a
   * second copy makes it rule text from where it first stood.
   */
  function repeated(rest: string): void {
    const key = textKey(rest);
    const copies = seen.get(key);
    if (!copies) {
      const fresh = new Set<number>();
      const list: Seen["sections"] = [];
      for (const s of sections(rest)) {
        const k = textKey(s);
        const probe = !groups.has(k) && !fresh.has(k);
        fresh.add(k);
        list.push({ key: k, sub: sub++, section: section(s, REINJECTED, probe) });
      }
      if (!seen.has(key) && seen.size >= MAX_REMEMBERED) {
        const [, oldest] = seen.entries().next().value as [number, Seen];
        for (const s of oldest.sections) if (s.section.probe) use.drop(s.section.probe);
      }
      seen.set(key, { copies: 1, at, id: current?.id ?? "", excerpt: excerptNow(), sections: list });
      return;
    }
    if (copies.copies === 1) {
      for (const s of copies.sections) confirm(copies, s);
      copies.sections = [];
    }
    copies.copies++;
    seen.set(key, copies);
    block(rest, REINJECTED);
  }

  /** A section of a first copy, once re-injected: joins its group where the copy stood. */
  function confirm(copy: Seen, s: Seen["sections"][number]): void {
    const g = groups.get(s.key);
    if (!g) {
      keep(s.key, {
        at: copy.at,
        sub: s.sub,
        first: s.section,
        events: [copy.id],
        ats: [copy.at],
        excerpts: [copy.excerpt],
      });
      return;
    }
    if (copy.at < g.at || (copy.at === g.at && s.sub < g.sub)) {
      // The group now starts at the first copy: its use is measured from there.
      if (g.first.probe) use.drop(g.first.probe);
      g.first = s.section;
      g.at = copy.at;
      g.sub = s.sub;
    } else if (s.section.probe) use.drop(s.section.probe);
    let i = g.ats.length;
    while (i > 0 && (g.ats[i - 1] as number) > copy.at) i--;
    g.events.splice(i, 0, copy.id);
    g.ats.splice(i, 0, copy.at);
    if (i < 4) {
      g.excerpts.splice(i, 0, copy.excerpt);
      g.excerpts.length = Math.min(g.excerpts.length, 4);
    }
    groups.set(s.key, g);
  }

  /** Store a new group; past MAX_REMEMBERED groups, the one touched longest ago is judged now and forgotten. */
  function keep(key: number, g: Group): void {
    if (!groups.has(key) && groups.size >= MAX_REMEMBERED) {
      const [, oldest] = groups.entries().next().value as [number, Group];
      const j = judge(oldest);
      if (j) retired.push(j);
      if (oldest.first.probe) use.drop(oldest.first.probe);
    }
    groups.set(key, g);
  }

  /** A section's text as the first of its group: its tokens, heading and (when asked) a probe of its use. */
  function section(text: string, source: string, probe: boolean): Section {
    const out: Section = { source, tokens: estimateTokens(text), head: head(text) };
    if (probe) {
      const tokens = sampleTerms(scanTerms(text).terms);
      if (tokens.length >= MIN_SAMPLE) out.probe = use.add(tokens, undefined);
    }
    return out;
  }
});

/** A group's instance (or exemption), with where the group first occurred. */
function judge(g: Group): Judged | undefined {
  const probe = g.first.probe;
  if ((g.first.source === TOOL_REMINDER && g.events.length < 2) || !probe) return undefined;
  const use = probe.use;
  const tokens = g.first.tokens;
  const times = g.events.length > 1 ? ` ×${g.events.length}` : "";
  const instance = {
    events: g.events,
    note: `${g.first.source} "${g.first.head}" (${tokens} tokens${times}): ${use.hits} of ${use.of} sampled terms drawn on later`,
    weight: (tokens * g.events.length) / 1000,
    excerpts: g.excerpts,
  };
  const first = { at: g.at, sub: g.sub };
  if (use.firstUse && use.hits >= Math.max(1, Math.ceil(DRAWN_ON * use.of))) {
    const excerpts = g.excerpts.slice(0, 2);
    if (excerpts.length < 2 && use.firstUseExcerpt) excerpts.push(use.firstUseExcerpt);
    return {
      ...first,
      instance: {
        ...instance,
        events: [...g.events, use.firstUse],
        excerpts,
        reason: `necessary long-lived rule: drawn on later, first by ${use.firstUse} (App. A.1)`,
      },
    };
  }
  if (!use.later)
    return {
      ...first,
      instance: {
        ...instance,
        excerpts: g.excerpts.slice(0, 2),
        reason: "the log ends before anything could draw on it",
      },
    };
  return { ...first, instance };
}

/** The first line of a section that is not a closing tag (else its first line), trimmed, to 60 characters. */
function head(text: string): string {
  let first: string | undefined;
  for (let i = 0; i <= text.length; ) {
    const j = text.indexOf("\n", i);
    const end = j < 0 ? text.length : j;
    const line = text.slice(i, end).trim();
    first ??= line;
    if (line && !/^<\/[\w-]+>$/.test(line)) return line.slice(0, 60);
    if (j < 0) break;
    i = j + 1;
  }
  return (first ?? "").slice(0, 60);
}

/**
 * A hash of a text with runs of whitespace as one space, trimmed (as `replace(/\s+/g, " ").trim()` gives
 * it), in 53 bits: two 32-bit FNV-style hashes, so distinct texts share a key with negligible probability.
 */
function textKey(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  let space = false;
  let started = false;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (isSpace(c)) {
      space = started;
      continue;
    }
    if (space) {
      a = Math.imul(a ^ 32, 0x01000193);
      b = Math.imul(b ^ 32, 0x5bd1e995);
      b ^= b >>> 15;
      space = false;
    }
    started = true;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** Share of a section's sampled terms that must reappear later for it to count as drawn on. */
export const DRAWN_ON = 0.1;

/** Length from which identical user/system message text counts as static re-injection. */
export const MIN_REPEATED_CHARS = 200;

/** Sections are cut at headings only once they hold this many characters. */
const MIN_SECTION_CHARS = 200;

/** Sampled terms a section needs before its use is judged. */
const MIN_SAMPLE = 3;

/** A section as the first of its group: what the instance reports. */
interface Section {
  source: string;
  /** Estimated tokens of its text. */
  tokens: number;
  /** Its first line, for notes. */
  head: string;
  /** Its later use, measured from where it stands (none: too few distinctive tokens to judge). */
  probe?: Probe<undefined>;
}

/** Identical sections (by their text with whitespace collapsed), in the order of the events carrying them. */
interface Group {
  /** Position of the first occurrence, and the section's rank among the sections found in that event. */
  at: number;
  sub: number;
  first: Section;
  events: string[];
  ats: number[];
  /** Excerpts of the first 4 events. */
  excerpts: Excerpt[];
}

/** A long user message not (yet) re-injected: its first copy, held until a second copy comes. */
interface Seen {
  copies: number;
  at: number;
  id: string;
  excerpt: Excerpt;
  /** The first copy's sections (emptied once it is re-injected). */
  sections: { key: number; sub: number; section: Section }[];
}

interface Judged {
  at: number;
  sub: number;
  instance: DefectInstance | ExemptedInstance;
}

const REMINDER = /<system-reminder>([\s\S]*?)<\/system-reminder>/g;
const INJECTED =
  /^\s*#\s*(AGENTS|CLAUDE|GEMINI|QWEN)\.md\b|<INSTRUCTIONS>|<(user|project|global)_instructions>|Contents of \S*(CLAUDE|AGENTS|GEMINI)\.md|^\s*#{1,3}\s*(instructions|rules|guidelines|system prompt)\s*$/im;
const SUMMARY =
  /continued from a previous conversation|summary of (the|our) (previous |earlier )?conversation|context summari[sz]ation/i;
/** The task statement inside an instruction template: what to do, not a rule. */
const TASK = /<(pr_description|issue|issue_description|problem_statement|task)>[\s\S]*?<\/\1>/g;
/** Source label of reminders found in tool outputs: rules only when re-injected (two or more copies). */
const TOOL_REMINDER = "reminder in tool output";
/** Source label of long user messages repeated identically. */
const REINJECTED = "re-injected message";

/**
 * A rule block cut into sections of at least MIN_SECTION_CHARS: a Markdown heading or an opening tag
 * line starts a new section, a closing tag line ends one.
 */
function sections(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let size = 0;
  const cut = () => {
    if (size < MIN_SECTION_CHARS) return;
    out.push(current.join("\n"));
    current = [];
    size = 0;
  };
  for (const line of text.split("\n")) {
    if (/^\s*(#{1,6}\s|<[A-Za-z_][\w-]*>\s*$)/.test(line)) cut();
    current.push(line);
    size += line.length + 1;
    if (/^\s*<\/[A-Za-z_][\w-]*>\s*$/.test(line)) cut();
  }
  if (current.length) {
    const last = current.join("\n");
    if (size < MIN_SECTION_CHARS && out.length) out[out.length - 1] += `\n${last}`;
    else out.push(last);
  }
  return out.filter((s) => s.trim());
}
