import { sentences } from "./answer.ts";
import { NUMBER_WORDS } from "./formats.ts";
import { DATE, dayOf as dateDay } from "./limits.ts";

/**
 * Internal consistency of a reply (issue 15, a fault oracle that needs no golden value): a sentence that states
 * both a period's length and its first and last day ("6 months from 16 April 2025 to 15 October 2025", "3 nights,
 * 12 March to 15 March") must have them agree. A permit read back as "6 months … until 15 November" is wrong
 * whatever discovery saw, so the check holds on paths discovery never reached and on wordings that state no
 * figure a functional test pinned. Pure functions of the reply text.
 */

const WEEKDAY = "(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?";
/** A calendar date (limits.ts `DATE`), each match read by limits.ts `dayOf`. */
const DATES = new RegExp(String.raw`\b(?:${DATE})`, "gi");
/** What stands between a period's first and last day: "to", "until", "–", "and" (between … and …), "check-out". */
const BETWEEN = new RegExp(
  String.raw`^[\s,;(]*(?:to|until|till|through|thru|and|-|–|—|(?:and |with )?(?:check(?:ing)?[- ]?out|return(?:ing)?|drop(?:ping)?[- ]?off|back)(?: on| date)?:?)(?:\s+(?:the\s+)?)?(?:${WEEKDAY},?\s+)?$`,
  "i",
);
/**
 * A period's length: "6 months", "three nights", "a 12-month", "14-day". Not a limit or an offset ("up to 8
 * weeks", "within 28 days", "5 working days", "2 weeks ahead"): those are not the period's own length.
 */
const DURATION =
  /(?<!\b(?:up to|within|at least|at most|more than|less than|fewer than|over|under|every|per|after|before|in|than|next|last|past|about|around|max(?:imum)?|min(?:imum)?) )\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|eighteen|twenty|thirty)[- ](day|night|week|month|year)s?\b(?! (?:ahead|before|after|later|earlier|ago|notice|in advance|beforehand|from now)\b)/gi;
const WORKING = /\b(?:working|business|school|banking) days?\b/i;

const DAY_MS = 86_400_000;
/** Days since 1970 of a UTC calendar date. */
const dayOf = (y: number, m: number, d: number) => Date.UTC(y, m, d) / DAY_MS;

interface Stated {
  month: number;
  date: number;
  year?: number;
  start: number;
  end: number;
}

function datesIn(sentence: string): Stated[] {
  const out: Stated[] = [];
  for (const m of sentence.matchAll(DATES)) {
    const read = dateDay(m);
    if (!read) continue;
    const d = new Date(read.day * DAY_MS);
    const year = read.year ? d.getUTCFullYear() : undefined;
    out.push({
      month: d.getUTCMonth(),
      date: d.getUTCDate(),
      ...(year ? { year } : {}),
      start: m.index,
      end: m.index + m[0].length,
    });
  }
  return out;
}

/** The day count a length allows between a period's first and last day, as [lowest, highest]. */
function allowed(first: number, n: number, unit: string, y: number, m: number, d: number): [number, number] {
  switch (unit) {
    case "night":
      return [n, n];
    case "day":
      return [n - 1, n];
    case "week":
      return [7 * n - 1, 7 * n + 1];
    case "month": {
      const span = dayOf(y, m + n, d) - first;
      return [span - 3, span + 3];
    }
    default: {
      const span = dayOf(y + n, m, d) - first;
      return [span - 3, span + 3];
    }
  }
}

/**
 * The first sentence of `reply` whose stated period disagrees with the length it states, as "<length> from <first
 * day> to <last day> is <N> days", or undefined when every such sentence agrees (or none states both). A sentence
 * counts when it states exactly one length (not a limit, an offset or working days) and two dates joined as a
 * span ("from A to B", "A until B", "A – B", "between A and B", "A, check-out B"); a date without a year takes
 * the other's year, and a last day before the first runs into the next year. Tolerance: a day for days and weeks
 * (inclusive or exclusive counting), three days for months and years.
 */
export function spanMismatch(reply: string): string | undefined {
  for (const sentence of sentences(reply)) {
    if (WORKING.test(sentence)) continue;
    const lengths = [...sentence.matchAll(DURATION)];
    if (lengths.length !== 1) continue;
    const [, count, unitWord] = lengths[0] as RegExpMatchArray;
    const n = /^\d+$/.test(count ?? "") ? Number(count) : (NUMBER_WORDS[(count ?? "").toLowerCase()] ?? 0);
    const unit = (unitWord ?? "").toLowerCase();
    if (n < 1) continue;
    const dates = datesIn(sentence);
    for (let i = 0; i + 1 < dates.length; i++) {
      const a = dates[i] as Stated;
      const b = dates[i + 1] as Stated;
      if (!BETWEEN.test(sentence.slice(a.end, b.start))) continue;
      const y = a.year ?? b.year ?? 2001;
      const first = dayOf(y, a.month, a.date);
      let last = dayOf(b.year ?? y, b.month, b.date);
      if (last < first && b.year === undefined) last = dayOf(y + 1, b.month, b.date);
      const [lo, hi] = allowed(first, n, unit, y, a.month, a.date);
      const span = last - first;
      if (span >= lo && span <= hi) continue;
      const quote = (s: Stated) => sentence.slice(s.start, s.end).replace(/\.$/, "");
      return `"${lengths[0]?.[0]}" from ${quote(a)} to ${quote(b)} is ${span} days`;
    }
  }
  return undefined;
}
