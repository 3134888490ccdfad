import { MONTHS } from "./entities.ts";

/**
 * Out-of-range values for boundary tests: a malformed one ({@link invalidValue}), one far outside any normal
 * range ({@link extremeValue}), and one just past a limit the agent states in its own words.
 *
 * Limits an agent states in its own words — "refunds are capped at €150", "late checkout is possible until
 * 14:00", "up to 3 extra beds", "at least 2 nights" — the edges of boundary value analysis (Myers, *The Art of
 * Software Testing*, ch. 4) for the rules generator to probe just past (perturb.ts `past_limit`). Read from
 * the discovery replies only: a pure function of the text, no knowledge of the domain.
 */

/** A limit stated in a reply: a number (an amount or a count), a time of day or a date, and the side it bounds. */
export interface StatedLimit {
  kind: "number" | "time" | "date";
  /**
   * The number; minutes after midnight for a time; for a date, days since 1970-01-01 (UTC), of the year 1970
   * when the reply gave none (`unit` is then `no-year`).
   */
  value: number;
  /** `max`: values above it are out of range ("up to", "until"); `min`: values below it ("at least", "from"). */
  side: "max" | "min";
  /** The noun after a count ("3 extra beds" → `bed`, singular), the currency of an amount (`€`); empty otherwise. */
  unit: string;
}

const MAX_CUE =
  "up to|maximum(?: of)?|max(?:imum)?|at most|no more than|not more than|cap(?:ped)? (?:of|at)|(?:is |are )?capped at|limit(?:ed)? (?:of|to|at|is)|until|no later than|latest(?: is| of)?|exceed(?:ing|s)?|more than|over|above|beyond|before";
const MIN_CUE =
  "at least|minimum(?: of)?|min|no (?:less|fewer) than|not (?:less|fewer) than|earliest(?: is| of)?|from|below|under|less than|after";
/** A number as written: with thousands separators ("1,000.00") or a decimal point or comma ("2.5", "2,5"). */
const DIGITS = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?`;
/** The value of a {@link DIGITS} match ("1,000.00" → 1000, "2,5" → 2.5). */
const numberOf = (text: string) =>
  Number(/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(text) ? text.replaceAll(",", "") : text.replace(",", "."));
const NUMBER = String.raw`([$€£])?\s?(${DIGITS})(?:\s?(usd|eur|gbp|dollars?|euros?|pounds?))?((?:\s+[a-z-]+){0,2})`;
const TIME = String.raw`(\d{1,2})(?::(\d{2}))?\s?([ap]\.?m\.?)?`;

/** A bound time or number after each side's cue, built once. */
const BOUND: readonly { side: StatedLimit["side"]; time: RegExp; number: RegExp }[] = (
  [
    ["max", MAX_CUE],
    ["min", MIN_CUE],
  ] as const
).map(([side, cue]) => ({
  side,
  time: new RegExp(String.raw`\b(?:${cue})\s+(?:the |a |an )?${TIME}`, "g"),
  number: new RegExp(String.raw`\b(?:${cue})\s+(?:the |a |an )?${NUMBER}`, "g"),
}));

/**
 * A range ("from 1 to 8 weeks", "between 2 and 6 guests", "1–4 tickets", "€10 to €500"): its low end bounds
 * from below and its high end from above. Not dates ("from 13 to 20 November"): the word after is no month.
 */
const RANGE = new RegExp(
  String.raw`\b(from |between )?([$€£])?\s?(${DIGITS})\s?(?:to|and|-|–)\s?([$€£])?\s?(${DIGITS})(?:\s?(usd|eur|gbp|dollars?|euros?|pounds?))?((?:\s+[a-z-]+){0,2})`,
  "g",
);
const MONTH_AFTER = new RegExp(String.raw`^\s+(?:${MONTHS})\b`);

/** A date as written: "13 November 2025", "13th of Nov", "November 13, 2025", "2025-11-13" (9 groups). */
export const DATE = String.raw`(\d{1,2})(?:st|nd|rd|th)?(?: of)? (${MONTHS})\.?(?:,? (\d{4}))?|(${MONTHS})\.? (\d{1,2})(?:st|nd|rd|th)?\b(?:,? (\d{4}))?|(\d{4})-(\d{2})-(\d{2})`;
const DATE_TOKEN = new RegExp(String.raw`\b(?:${DATE})\b`, "i");
const MONTH_NAMES =
  "january february march april may june july august september october november december".split(" ");
const DAY = 86_400_000;

/** A date match's day (days since 1970-01-01 UTC; of 1970 when it has no year) and whether it had a year. */
export function dayOf(
  m: RegExpExecArray | RegExpMatchArray,
  at = 1,
): { day: number; year: boolean } | undefined {
  const g = (i: number) => m[at + i];
  const [d, mon, y] = g(0)
    ? [g(0), g(1), g(2)]
    : g(3)
      ? [g(4), g(3), g(5)]
      : [g(8), MONTH_NAMES[Number(g(7)) - 1], g(6)];
  const month = MONTH_NAMES.findIndex((name) => name.startsWith((mon ?? "").toLowerCase().slice(0, 3)));
  const date = Number(d);
  if (month < 0 || date < 1 || date > 31) return undefined;
  return { day: Date.UTC(y ? Number(y) : 1970, month, date) / DAY, year: y !== undefined };
}

/** Date bounds: a window ("from 13 November to 12 December", "between … and …"), or one side after a cue. */
const DATE_BOUNDS: readonly [RegExp, readonly StatedLimit["side"][]][] = [
  [
    new RegExp(String.raw`\b(?:${DATE})\s?(?:to|and|until|till|through|-|–)\s?(?:${DATE})`, "gi"),
    ["min", "max"],
  ],
  [
    new RegExp(
      String.raw`\b(?:until|till|up to|no later than|latest(?: is| of)?|before|not after|on or before)\s+(?:the )?(?:${DATE})`,
      "gi",
    ),
    ["max"],
  ],
  [
    new RegExp(
      String.raw`\b(?:from|after|earliest(?: is| of)?|no earlier than|not before|on or after|starting)\s+(?:the )?(?:${DATE})`,
      "gi",
    ),
    ["min"],
  ],
];
/** How many groups {@link DATE} has. */
const DATE_GROUPS = 9;

/** The symbol of a currency written as a word or code ("euros", "GBP" → `€`, `£`). */
const CURRENCY_WORD = /\b(?:usd|eur|gbp|dollars?|euros?|pounds?)\b/;
const symbolOf = (word: string) =>
  /^(?:usd|dollars?)$/.test(word) ? "$" : /^(?:eur|euros?)$/.test(word) ? "€" : "£";

/** Words after a cue that make the cue something else ("after 3 tries", "from 2 to 5"). */
const NOT_A_UNIT = new Set(
  "and or to the a an per each of in on at for you your we i it this that".split(" "),
);

/** The count's noun: the last of up to two words before a function word ("3 extra beds per room" → bed). */
function nounOf(after: string): string {
  const words = after.trim().split(/\s+/).filter(Boolean);
  const cut = words.findIndex((w) => NOT_A_UNIT.has(w));
  return (cut < 0 ? words : words.slice(0, cut)).at(-1)?.replace(/s$/, "") ?? "";
}

function minutes(h: string, m: string | undefined, ampm: string | undefined): number | undefined {
  let hour = Number(h);
  const min = Number(m ?? 0);
  if (ampm) {
    if (hour < 1 || hour > 12) return undefined;
    const pm = ampm.startsWith("p");
    hour = (hour % 12) + (pm ? 12 : 0);
  } else if (m === undefined) return undefined; // "until 3" is not a time
  if (hour > 23 || min > 59) return undefined;
  return hour * 60 + min;
}

/**
 * The limits stated in `replies` (deduplicated, in order of first appearance): amounts and counts after a
 * bounding cue ("up to €150", "a maximum of 3 beds", "more than 90 tablets"), and times of day ("until 14:00",
 * "from 3pm"). A "more than"/"over" after a refusal word bounds from above like "up to" does.
 */
export function statedLimits(replies: readonly string[]): StatedLimit[] {
  const out = new Map<string, StatedLimit>();
  const add = (l: StatedLimit) => out.set(`${l.kind}:${l.value}:${l.side}:${l.unit}`, l);
  for (const reply of replies) {
    const t = reply.toLowerCase();
    for (const { side, time, number } of BOUND) {
      for (const m of t.matchAll(time)) {
        const value = minutes(m[1] as string, m[2], m[3]);
        if (value !== undefined) add({ kind: "time", value, side, unit: "" });
      }
      for (const m of t.matchAll(number)) {
        const after = t.slice((m.index ?? 0) + m[0].length);
        // A time, read above; a date ("from 4 March"), read as one.
        if (/^\s?(?::\d|[ap]\.?m\b)/.test(after) || MONTH_AFTER.test(m[4] ?? "")) continue;
        const currency = m[1] ?? (m[3] ? symbolOf(m[3]) : "");
        const noun = nounOf(m[4] ?? "");
        add({
          kind: "number",
          value: numberOf(m[2] as string),
          side,
          unit: currency || noun,
        });
      }
    }
    for (const [re, sides] of DATE_BOUNDS)
      for (const m of t.matchAll(re)) {
        const days = sides.map((_, k) => dayOf(m, 1 + k * DATE_GROUPS));
        if (days.length === 2 && !((days[0]?.day ?? 0) < (days[1]?.day ?? 0))) continue;
        sides.forEach((side, k) => {
          const d = days[k];
          if (d) add({ kind: "date", value: d.day, side, unit: d.year ? "" : "no-year" });
        });
      }
    for (const m of t.matchAll(RANGE)) {
      const [, lead, sign1, low, sign2, high, word, rest = ""] = m;
      if (MONTH_AFTER.test(rest) || /^\s?(?::\d|[ap]\.?m\b)/.test(t.slice((m.index ?? 0) + m[0].length)))
        continue;
      const currency = sign1 ?? sign2 ?? (word ? symbolOf(word) : "");
      const noun = nounOf(rest);
      // "between 2 and 6" or "from 1 to 8" reads as a range by itself; "1 to 8" needs its unit ("1 to 8 weeks").
      if (!lead && !currency && !noun) continue;
      if (lead === "between " && !/\band\b/.test(m[0])) continue;
      const [a, b] = [numberOf(low as string), numberOf(high as string)];
      if (!(a < b)) continue;
      add({ kind: "number", value: a, side: "min", unit: currency || noun });
      add({ kind: "number", value: b, side: "max", unit: currency || noun });
    }
  }
  return [...out.values()];
}

const TIME_TOKEN = /\b(\d{1,2})(?::(\d{2}))?\s?([ap]\.?m\.?)(?![a-z])|\b(\d{1,2}):(\d{2})\b/i;
const NUMBER_TOKEN = new RegExp(
  String.raw`([$€£]\s?)?\b(${DIGITS})\b(?![:\d])((?:\s?(?:usd|eur|gbp|dollars?|euros?|pounds?))?(?:\s+[a-z-]+){0,2})`,
  "i",
);

/** `minutes` written the way the observed time was ("11am" → "3pm", "11:00" → "15:00"). */
function formatTime(value: number, twelveHour: boolean, padded: boolean): string {
  const h = Math.floor(value / 60) % 24;
  const m = value % 60;
  if (twelveHour)
    return `${h % 12 || 12}${m ? `:${String(m).padStart(2, "0")}` : ""}${h >= 12 ? "pm" : "am"}`;
  return `${String(h).padStart(padded ? 2 : 1, "0")}:${String(m).padStart(2, "0")}`;
}

/**
 * The observed value (a bare value or the user's sentence) with its time or number moved just past each
 * limit that applies to it, the rest kept: a time an hour past a time limit ("11:00" with "until 14:00" →
 * "15:00"), a number one past a limit of the same unit ("30 tablets" with "up to 90 tablets" → "91 tablets"; a
 * number without a unit takes any). A limit the observed value — one the agent accepted — is already past
 * bounds something else and is skipped. With `outside`, the observed value is one the agent refused: the
 * limits it is past instead, each probed just past ("12 weeks" with "at most 8 weeks" → "9 weeks").
 * @returns at most `max` values with their limits, nearest limit to the observed value first; empty when none
 */
export function pastLimits(
  observed: string,
  limits: readonly StatedLimit[],
  max = 2,
  outside = false,
): { value: string; limit: StatedLimit }[] {
  const found: { value: string; limit: StatedLimit; distance: number }[] = [];
  const splice = (at: number, length: number, text: string) =>
    `${observed.slice(0, at)}${text}${observed.slice(at + length)}`;
  const date = DATE_TOKEN.exec(observed);
  const when = date ? dayOf(date) : undefined;
  if (date && when) {
    // A year-less date on either side compares by month and day only.
    const on = (l: StatedLimit) =>
      l.unit === "no-year" || !when.year ? dayOfYear(when.day) - dayOfYear(l.value) : when.day - l.value;
    const inRange = (l: StatedLimit) =>
      l.kind === "date" && (l.side === "max" ? on(l) <= 0 : on(l) >= 0) !== outside;
    for (const l of limits.filter(inRange)) {
      const shift = l.side === "max" ? 1 : -1;
      // The limit's day moved one past it, in the observed value's year when the limit names none.
      const year = new Date(when.day * DAY).getUTCFullYear();
      const base = l.unit === "no-year" ? Date.UTC(year, ...monthDay(l.value)) / DAY : l.value;
      const past = base + shift;
      if (past === when.day) continue;
      found.push({
        value: splice(date.index, date[0].length, formatDate(past, date[0], when.year)),
        limit: l,
        distance: Math.abs(on(l)),
      });
    }
    return nearest(found, max);
  }
  const time = TIME_TOKEN.exec(observed);
  const seen = time
    ? time[4] !== undefined
      ? minutes(time[4], time[5], undefined)
      : minutes(time[1] as string, time[2], time[3])
    : undefined;
  if (time && seen !== undefined) {
    const inRange = (l: StatedLimit) =>
      l.kind === "time" && (l.side === "max" ? seen <= l.value : seen >= l.value) !== outside;
    for (const l of limits.filter(inRange)) {
      const past = l.side === "max" ? l.value + 60 : l.value - 60;
      if (past < 0 || past >= 24 * 60 || past === seen) continue;
      const text = formatTime(past, time[3] !== undefined, (time[4] ?? "").length === 2);
      found.push({
        value: splice(time.index, time[0].length, text),
        limit: l,
        distance: Math.abs(l.value - seen),
      });
    }
  } else {
    const m = NUMBER_TOKEN.exec(observed);
    if (!m) return [];
    const n = numberOf(m[2] as string);
    const unit = `${m[1] ?? ""}${m[3] ?? ""}`.toLowerCase().replace(CURRENCY_WORD, symbolOf);
    const inRange = (l: StatedLimit) =>
      l.kind === "number" && (l.side === "max" ? n <= l.value : n >= l.value) !== outside;
    for (const l of limits.filter(inRange)) {
      if (l.unit && unit.trim() && !unit.includes(l.unit)) continue;
      const step = Number.isInteger(l.value) ? 1 : 0.01;
      const past = l.side === "max" ? l.value + step : l.value - step;
      if (past <= 0 || past === n) continue;
      const text = Number.isInteger(past) ? String(past) : past.toFixed(2);
      const at = m.index + (m[1] ?? "").length;
      found.push({
        value: splice(at, (m[2] as string).length, text),
        limit: l,
        distance: Math.abs(l.value - n),
      });
    }
  }
  return nearest(found, max);
}

/** At most `max` distinct values, nearest limit first. */
function nearest(
  found: { value: string; limit: StatedLimit; distance: number }[],
  max: number,
): { value: string; limit: StatedLimit }[] {
  found.sort((a, b) => a.distance - b.distance);
  const values = new Set<string>();
  return found
    .filter((f) => !values.has(f.value) && values.add(f.value))
    .slice(0, max)
    .map(({ value, limit }) => ({ value, limit }));
}

/**
 * A day inside a date window `text` states ("any day from 13 November 2025 to 12 December 2025" → "14 November
 * 2025"): the day after its first, written day first; undefined when it states no window of three days or more.
 */
export function dateInside(text: string): string | undefined {
  const dates = statedLimits([text]).filter((l) => l.kind === "date");
  const lo = dates.find((l) => l.side === "min");
  const hi = dates.find((l) => l.side === "max" && l.unit === lo?.unit);
  if (!lo || !hi || hi.value - lo.value < 2) return undefined;
  const withYear = lo.unit !== "no-year";
  return formatDate(lo.value + 1, "1 January", withYear);
}

/** A day's month (0-based) and date. */
const monthDay = (day: number): [number, number] => {
  const d = new Date(day * DAY);
  return [d.getUTCMonth(), d.getUTCDate()];
};
/** A day's place in its year, comparable across years (month × 32 + date). */
const dayOfYear = (day: number) => {
  const [m, d] = monthDay(day);
  return m * 32 + d;
};

/** `day` written the way `like` was ("1 December 2025", "Dec 1", "2025-12-01"), with its year if it had one. */
function formatDate(day: number, like: string, withYear: boolean): string {
  const d = new Date(day * DAY);
  const [y, m, date] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (/^\d{4}-/.test(like)) return `${y}-${String(m + 1).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
  const full = MONTH_NAMES[m] as string;
  const written = /[a-z]+/i.exec(like.replace(/^\d+(?:st|nd|rd|th)?(?: of)?\s*/i, ""))?.[0] ?? full;
  const name = written.length <= 4 && written.toLowerCase() !== full ? full.slice(0, 3) : full;
  const cased = /^[A-Z]/.test(written) ? name[0]?.toUpperCase() + name.slice(1) : name;
  const year = withYear ? ` ${y}` : "";
  return /^\d/.test(like) ? `${date} ${cased}${year}` : `${cased} ${date}${withYear ? `, ${y}` : ""}`;
}

/** A shape-preserving value the agent cannot know: digits → 9, letters → Z (keeps case and separators). */
export function invalidValue(observed: string): string {
  if (/^\d+$/.test(observed)) return "0";
  const mutated = observed.replace(/\d/g, "9").replace(/[A-Z]/g, "Z").replace(/[a-z]/g, "z");
  return mutated === observed ? `${observed}x` : mutated;
}

const MONTH_WORD = new RegExp(`\\b(?:${MONTHS})\\b`, "i");

/**
 * A value beyond the range a policy allows, from the one observed (the boundary-value probe of an eligibility
 * rule): a date years in the past ("2024-05-18" → "2019-05-18", "14 June" → "14 June 2019"), a quantity a
 * hundred times larger with its unit ("90 days" → "9000 days", "250" → "25000"); undefined for other values.
 */
export function extremeValue(observed: string): string | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(observed);
  if (iso) return `${Number(iso[1]) - 5}-${iso[2]}-${iso[3]}`;
  if (MONTH_WORD.test(observed))
    return /\b\d{4}\b/.test(observed)
      ? observed.replace(/\b(\d{4})\b/, (y) => String(Number(y) - 5))
      : `${observed} 2019`;
  const m = /^(\D{0,3}?)(\d+(?:\.\d+)?)(\s*[a-z' ]{0,20})$/i.exec(observed.trim());
  if (!m) return undefined;
  return `${m[1]}${Number(m[2]) * 100}${m[3]}`;
}
