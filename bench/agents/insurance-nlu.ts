/**
 * Text in and out for the insurance testbed agent (`insurance.ts`): its keyword NLU (intents, general
 * questions, incident types, yes/no, hand-off), the slot extractors (policy numbers, postcodes, names, claim
 * ids, police references, amounts and dates, relative to the fixed {@link TODAY}) and the wording of money,
 * dates and lists. Pure functions of the text; the dialogue state lives in `insurance.ts`.
 */
import { type IncidentType, type Info, type Intent, type PolicyKind, TODAY } from "./insurance-data.ts";

const MONTHS = "January February March April May June July August September October November December".split(
  " ",
);
export const MONTH_RE =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five"];

export const gbp = (n: number) => `£${n.toFixed(n % 1 === 0 ? 0 : 2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
export const days = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
export const addDays = (iso: string, n: number) =>
  new Date(Date.parse(iso) + n * 86_400_000).toISOString().slice(0, 10);
export const longDate = (iso: string) =>
  `${Number(iso.slice(8))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
export const title = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
export const either = (items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
export const both = (items: readonly string[]) =>
  items.length < 2 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/** An ISO date from parts, or undefined when it is no calendar day. */
function isoOf(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return date.toISOString().slice(0, 10);
}
const monthOf = (s: string) => MONTHS.findIndex((m) => m.toLowerCase().startsWith(s.slice(0, 3))) + 1;
const year = (s: string | undefined) =>
  s ? (s.length === 2 ? 2000 + Number(s) : Number(s)) : Number(TODAY.slice(0, 4));

/** A date in the (lower-case) text with the words it was read from; relative "today" only when `loose`. */
export function findDate(l: string, loose: boolean): { iso: string; match: string } | undefined {
  const tries: [RegExp, (m: RegExpExecArray) => string | undefined][] = [
    [/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, (m) => isoOf(Number(m[1]), Number(m[2]), Number(m[3]))],
    [/\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b/, (m) => isoOf(year(m[3]), Number(m[2]), Number(m[1]))],
    [
      new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?:\\s+of)?\\s+${MONTH_RE}\\b(?:,?\\s+(\\d{4}))?`),
      (m) => isoOf(year(m[3]), monthOf(m[2] ?? ""), Number(m[1])),
    ],
    [
      new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`),
      (m) => isoOf(year(m[3]), monthOf(m[1] ?? ""), Number(m[2])),
    ],
    [/\bday before yesterday\b/, () => addDays(TODAY, -2)],
    [/\byesterday\b/, () => addDays(TODAY, -1)],
    [
      /\b(\d+|an?|one|two|three|four|five)\s+(day|week|month)s?\s+ago\b/,
      (m) => {
        const w = NUMBER_WORDS.indexOf(m[1] ?? "");
        const n = /^an?$/.test(m[1] ?? "") ? 1 : w >= 0 ? w : Number(m[1]);
        return addDays(TODAY, -n * (m[2] === "day" ? 1 : m[2] === "week" ? 7 : 30));
      },
    ],
    [/\blast week\b/, () => addDays(TODAY, -7)],
  ];
  if (loose)
    tries.push(
      [/\b(today|this morning|earlier today|tonight)\b/, () => TODAY],
      [/\btomorrow\b/, () => addDays(TODAY, 1)],
      [/\bnext week\b/, () => addDays(TODAY, 7)],
    );
  for (const [re, read] of tries) {
    const m = re.exec(l);
    const iso = m ? read(m) : undefined;
    if (m && iso) return { iso, match: m[0] };
  }
  return undefined;
}

/** Whole years from `dob` to today. */
export function ageOn(dob: string): number {
  const [y, m, d] = dob.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = TODAY.split("-").map(Number) as [number, number, number];
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}

/** Intent keywords, tried in order. */
export const INTENTS: readonly [Intent, RegExp][] = [
  ["withdraw", /\bwithdraw\w*\b|\b(cancel|retract|drop|pull|close)\b.{0,30}\bclaim\b/],
  [
    "status",
    /\b(status|progress|update|check|track|where'?s|what'?s happening|how is|how'?s)\b.{0,30}\bclaim\b|\bclaim\b.{0,30}\b(status|progress|going|doing)\b/,
  ],
  [
    "driver",
    /\b(add|named|additional|extra|another|new|put)\b.{0,30}\bdrivers?\b|\bdrivers?\b.{0,25}\b(to|on)\b.{0,10}\b(car|policy|insurance)\b/,
  ],
  [
    "claim",
    /\b(file|make|submit|open|start|lodge|report|raise|register|put in)\b.{0,25}\bclaim\b|\bnew claim\b|\bclaim (for|on)\b|\bwant to claim\b|\b(stolen|burgl\w*|break-in|broken into|robbed|leak\w*|burst|flood\w*|storm|crash\w*|accident|collision|windscreen|windshield)\b/,
  ],
];

export const INFOS: readonly [Info, RegExp][] = [
  ["deductible", /\b(deductibles?|excess)\b/],
  [
    "claim_time",
    /\bhow long\b.{0,40}\b(claims?|take|settle\w*|process\w*|pay\w*)\b|\bclaims?\b.{0,20}\b(take|processing time|turnaround)\b/,
  ],
  [
    "hours",
    /\b(opening|office|business|working) hours\b|\bhours\b.{0,15}\b(open|office)\b|\bwhen are you open\b|\b(are you|is the office) open\b|\bopening times\b|\bwhat time do you (open|close)\b/,
  ],
];

/** Which incident a text describes (water before storm: "burst pipe" vs "flood"). */
export const INCIDENTS: readonly [IncidentType, RegExp][] = [
  ["windscreen", /\b(windscreen|windshield|chipped glass|cracked glass)\b/],
  ["theft", /\b(theft|thefts|stolen|steal|burgl\w*|break-in|broken into|broke in|robbed|robbery|nicked)\b/],
  ["storm", /\b(storm|storms|flood|floods|flooded|flooding|hail|gale|high winds?|wind damage)\b/],
  ["water", /\b(water|leak\w*|burst|pipe|pipes|escape of water)\b/],
  ["collision", /\b(collision|crash\w*|accident|bumped|rear-?ended|prang|hit by|hit a|hit another|dent)\b/],
];

/** Approval at a read-back, a refusal, a human, a callback, goodbye, hello. */
export const APPROVE =
  /^\s*(yes|yeah|yep|yup|sure|ok(ay)?|fine|alright|approve[sd]?|approval given|i approve|go ahead|go for it|that'?s (right|correct|fine)|correct|confirm(ed)?|please do|do it|submit( it)?|please submit|looks (good|right|fine)|sounds (good|right)|proceed|all correct)\b/;
export const NO =
  /^\s*(no|nope|nah|not (now|yet|really)|stop|cancel|never ?mind|forget it|don'?t|abandon|leave it|scrap (it|that))\b/;
export const HUMAN =
  /\b(human|real person|a person|an agent|live agent|representative|operator|colleague|advisor|adviser|claims handler|speak to someone|talk to someone)\b/;
export const CALLBACK = /\b(call ?-?back|call me|ring me|phone me)\b/;
export const BYE =
  /\b(thanks|thank you|cheers|bye|goodbye|that'?s all|that is all|nothing else|all good|no thanks)\b/;
export const GREETING = /^\s*(hi|hello|hey|hiya|good (morning|afternoon|evening))\b/;
export const HELP = /\b(help|menu|what can you do|what else|options)\b/;
export const NO_REPORT =
  /\b(don'?t have|haven'?t got|no (police|crime)|not reported|didn'?t report|haven'?t reported|no report|no reference|none)\b/;

/** Words never taken for a last name or a driver's name. */
export const NOT_NAMES = new Set(
  (
    "my name last surname family is it its it's the and postcode post code zip i am i'm im sure yes yeah ok okay " +
    "here of course thanks thank you please hi hello for policy holder under that this mr mrs ms miss dr sir " +
    "madam a an on in at to is was be as driver named add called his her their he she they son daughter wife " +
    "husband partner brother sister mum mother dad father friend with number so um er well born dob birth date"
  ).split(" "),
);

export const POLICY_RE = /\bhm[\s-]?(\d{6})\b/i;
export const CLAIM_RE = /\bcl[\s-]?(\d{5})\b/i;
export const POSTCODE_RE = /\b([a-z]{1,2}\d[a-z\d]?)\s*(\d[a-z]{2})\b/i;
export const POLICE_RE = /\b(?!(?:hm|cl)\b)([a-z]{2,4})\s?[/-]\s?(\d{3,6})(?:\s?[/-]\s?(\d{2,4}))?\b/i;

export function findPolicy(t: string, loose: boolean): string | undefined {
  const m = POLICY_RE.exec(t) ?? (loose ? /^\D*?(\d{6})\D*$/.exec(t) : null);
  return m ? `HM-${m[1]}` : undefined;
}

export function findClaimId(t: string, loose: boolean): string | undefined {
  const m = CLAIM_RE.exec(t) ?? (loose ? /^\D*?(\d{5})\D*$/.exec(t) : null);
  return m ? `CL-${m[1]}` : undefined;
}

export function findPostcode(t: string): string | undefined {
  const m = POSTCODE_RE.exec(t);
  return m ? `${(m[1] ?? "").toUpperCase()} ${(m[2] ?? "").toUpperCase()}` : undefined;
}

export function findPoliceRef(t: string, loose: boolean): string | undefined {
  const m = POLICE_RE.exec(t) ?? (loose ? /\b([a-z]{0,4}\d{4,}[a-z\d/-]*)\b/i.exec(t) : null);
  return m ? m[0].toUpperCase().replace(/\s/g, "") : undefined;
}

/** An amount in pounds (£640, 1,200 pounds, 2k); a bare number only when `loose`. */
export function findAmount(l: string, loose: boolean): number | undefined {
  const re = /(£\s?)?(\d[\d,]*(?:\.\d{1,2})?)\s*(k\b|grand\b)?\s*(pounds|gbp|quid)?/g;
  for (const m of l.matchAll(re)) {
    if (!(m[1] || m[3] || m[4] || loose)) continue;
    const n = Number((m[2] ?? "").replace(/,/g, "")) * (m[3] ? 1000 : 1);
    if (Number.isFinite(n) && n > 0) return n;
  }
  return undefined;
}

/** Candidate name words of a text: letters only, not filler words or months. */
function nameWords(s: string): string[] {
  return s
    .replace(/’/g, "'")
    .split(/[^A-Za-z'-]+/)
    .filter(
      (w) => w.length >= 2 && !NOT_NAMES.has(w.toLowerCase()) && !new RegExp(`^${MONTH_RE}$`, "i").test(w),
    );
}

export function findLastName(t: string, loose: boolean): string | undefined {
  const m = /\b(?:last name|surname|family name)(?:\s+is|:|\s*-)?\s+([a-z][a-z'’-]+)/i.exec(t);
  if (m && !NOT_NAMES.has((m[1] ?? "").toLowerCase())) return title(m[1] ?? "");
  if (!loose) return undefined;
  const words = nameWords(t.replace(POSTCODE_RE, " ").replace(POLICY_RE, " "));
  const last = words[words.length - 1];
  return last ? title(last) : undefined;
}

export function findDriverName(t: string, loose: boolean, dateText?: string): string | undefined {
  for (const k of t.matchAll(
    /\b(?:add|adding|named|called|name is|name's|driver is)\s+(?:my\s+[a-z]+\s+)?/gi,
  )) {
    const m = /^[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){0,2}/.exec(t.slice((k.index ?? 0) + k[0].length));
    if (m && !NOT_NAMES.has(m[0].split(" ")[0]?.toLowerCase() ?? "")) return m[0];
  }
  if (!loose) return undefined;
  const rest = dateText ? t.toLowerCase().replace(dateText, " ") : t;
  const words = nameWords(rest.replace(/\d/g, " ")).slice(0, 3);
  return words.length ? words.map(title).join(" ") : undefined;
}

export function findIncident(l: string): IncidentType | undefined {
  return INCIDENTS.find(([, re]) => re.test(l))?.[0];
}

export function detectIntent(l: string): Intent | undefined {
  const hit = INTENTS.find(([, re]) => re.test(l));
  if (hit) return hit[0];
  if (CLAIM_RE.test(l)) return "status";
  return findIncident(l) ? "claim" : undefined;
}

export const detectInfo = (l: string): Info | undefined => INFOS.find(([, re]) => re.test(l))?.[0];
/** Policies of each incident type when only one kind can cover it. */
export const kindOf = (type?: IncidentType): PolicyKind | undefined =>
  type === "collision" || type === "windscreen"
    ? "car"
    : type === "water" || type === "storm"
      ? "home"
      : undefined;
