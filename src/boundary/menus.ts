/**
 * Menus in a reply (answer.ts reads them): the options it numbers or lists at the end of a question, and a
 * confirmation offered as a menu ("1) Confirm 2) Change something 3) Cancel"). Pure functions of the text.
 */

/**
 * A reply without its Markdown emphasis, a bold key made a plain one ("- **A** Tue 18 Mar" → "- A) Tue 18 Mar",
 * "**2.** Email" → "2) Email"; "**Total:** £40" → "Total: £40"), and lines lettered "A. …", "B. …" keyed "A) …".
 */
export function unmark(reply: string): string {
  // Lines lettered "A. Basic: …", "B. Standard: …" (an A and a B line): a lettered list, not initials.
  const lettered = /(?:^|\n)\s*(?:[-*•]\s+)?A\.\s/.test(reply) && /\n\s*(?:[-*•]\s+)?B\.\s/.test(reply);
  return (lettered ? reply.replace(/(^|\n)(\s*(?:[-*•]\s+)?)([A-H])\.\s+/g, "$1$2$3) ") : reply)
    .replace(/^(\s*(?:[-*•]\s+)?)(?:\*\*|__)([A-Ha-h]|\d{1,2})[.):]?(?:\*\*|__)[.):]?\s+/gm, "$1$2) ")
    .replace(/\*\*|__|`/g, "");
}

/**
 * Options a reply numbers ("1) Basic – €10/month, 2) Plus – €20/month", "1. Morning 2. Afternoon", "1 - Confirm;
 * 2 - Change something", one per line or inline): each option's name, without what follows a dash, colon,
 * parenthesis or the end of its sentence ("2. Persuasion. Which one?"), of up to 6 words (12 when the reply asks
 * for the number); empty when fewer than two.
 */
export function numberedOptions(reply: string): string[] {
  const out: string[] = [];
  const byLabel = BY_LABEL.test(reply);
  for (const m of unmark(reply).matchAll(
    /(?:^|[\s:;,(])\[?(\d{1,2})(?:[.)\]]|\s+[-–])\s+([^\n;]+?)(?=\s+\[?\d{1,2}(?:[.)\]]|\s+[-–])\s|[\n;]|,\s*(?:or\s+)?\d{1,2}[.)]|$)/g,
  )) {
    const n = Number(m[1]);
    if (n !== out.length + 1) continue;
    const name =
      (m[2] ?? "")
        // A name ends at its description or price ("Basic, £10"), not inside a time ("Thu 12 Jun, 14:00–15:00").
        .split(
          /\s*(?::(?!\d)|(?<!\d)[–—]|\()|\s+-\s|\s*,\s*(?=[€$£]|\d(?!\d?[:.]\d{2}|\d?\s?[ap]m\b))|(?<=\p{L}{3})[.?!]\s+/u,
        )[0]
        ?.trim()
        .replace(/[.,]$/, "") ?? "";
    // A reason may run long ("I was parked inside a marked Loop zone") when its number is the answer ("Reply with
    // the number."); else a long item is a record or a step, not an option to say.
    if (name && name.split(/\s+/).length <= (byLabel ? 12 : 6)) out.push(name);
  }
  return out.length >= 2 ? out : [];
}

export const MENU_YES =
  /^(?:yes\b|confirm|go ahead|proceed|agree|accept|approve|submit|ok(?:ay)?\b|(?:that's|that is|all) (?:right|correct|good)|book it|place (?:it|the order))/i;
export const MENU_NO = /^(?:no\b|cancel|abort|stop|discard|don't|do not|never ?mind|start (?:again|over))/i;
/**
 * A confirmation offered as a menu ("1) Confirm  2) Change something  3) Cancel", "Reply 1 to confirm …" aside):
 * the numbered options, one that goes ahead and one that does not. Undefined unless the reply numbers both.
 */
export function menuGate(reply: string): { options: string[]; yes: string; no?: string } | undefined {
  const options = numberedOptions(reply);
  const yes = options.find((o) => MENU_YES.test(o));
  const no = options.find((o) => MENU_NO.test(o));
  return yes && no ? { options, yes, no } : undefined;
}

/** Options listed after a colon or in parentheses at the end of an asking sentence (not examples of one value: "for example …"). */
export function optionsIn(sentence: string): string[] {
  const list = /\(([^()]+)\)\s*[?.]?\s*$/.exec(sentence)?.[1] ?? /:\s*([^:]+?)\s*\?\s*$/.exec(sentence)?.[1];
  // "(for example 2004-03-09 or 9 March 2004)": forms of one value shown, not options to choose from.
  if (
    !list ||
    /^\s*(?:for example|for instance|e\.g\.?|eg|such as|like|in the form|format)\b/i.test(list) ||
    /\b(?:for example|for instance|e\.g\.)/i.test(list)
  )
    return [];
  const parts = list
    .split(/\s*,\s*(?:or\s+|and\s+)?|\s+or\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  // "Which profile: Maya, Leo and Nana?": a list's last two joined by "and".
  const last = parts.at(-1)?.split(/\s+and\s+/) ?? [];
  if (parts.length >= 2 && last.length === 2 && last.every((p) => p.split(/\s+/).length <= 3))
    parts.splice(-1, 1, ...last);
  // "To confirm it's you: what's your surname, and your date of birth?": questions for values, not options.
  if (parts.some((p) => /^(?:what(?:'s| is)?|which|who|when|where|how)\b/i.test(p))) return [];
  return parts.length >= 2 && parts.every((p) => p.split(/\s+/).length <= 6) ? parts : [];
}

/**
 * Options a reply labels with letters ("A) Tue 10 Mar 08:00–09:00\nB) Tue 10 Mar 20:00–21:00", "(a) Email (b)
 * Post", "a: brakes; b: flat tyre"), from A in order: each option's name, as {@link numberedOptions} cuts it;
 * empty when fewer than two.
 * A letter and a full stop ("A. Smith") is an initial, not a label.
 */
export function letteredOptions(reply: string): string[] {
  const out: string[] = [];
  for (const m of unmark(reply).matchAll(
    /(?:^|[\s:;,])\(?([A-Ha-h])[):]\s+([^\n;]+?)(?=\s+\(?[A-Ha-h][):]\s|[\n;]|$)/g,
  )) {
    if ((m[1] ?? "").toUpperCase().charCodeAt(0) - 65 !== out.length) continue;
    const name =
      (m[2] ?? "")
        .split(/\s+[–—-]\s|:(?!\d)|(?<=\p{L}{3})[.?!]\s+/u)[0]
        ?.trim()
        .replace(/[.,]$/, "") ?? "";
    if (name && name.split(/\s+/).length <= 8) out.push(name);
  }
  return out.length >= 2 ? out : [];
}

/**
 * Options a reply offers by the key to send ("Reply 1 for your card ending 4417, or 2 for account credit", "Press
 * 1 for email or 2 for post", "… delivered? 1 for your desk at Leeds, Wellington Place, 2 for home."): `[key,
 * option]` pairs in order, keys 1, 2, … or A, B, …; an option runs to the next key (commas inside it kept), the
 * last one to its sentence's end or a comma; empty when fewer than two.
 */
export function keyedOptions(reply: string): [string, string][] {
  const KEY = /(?:^|[\s,(])(\d|[A-Z])\s+(?:for|to)\s+/g;
  // After a verb ("Reply 1 for …"), or opening a sentence ("1 for your desk …, 2 for home").
  const first =
    /\b(?:reply|press|type|send|enter|say|text)\s+(?=(?:\d|[A-Z])\s+(?:for|to)\s)/i.exec(reply) ??
    /(?:^|[.?!:]\s+)(?:[Jj]ust\s+)?(?=(?:1|A)\s+for\s)/.exec(reply);
  if (!first) return [];
  const rest = reply.slice(first.index + first[0].length).split(/[.;?!\n](?:\s|$)/)[0] ?? "";
  const keys = [...rest.matchAll(KEY)];
  const out: [string, string][] = [];
  keys.forEach((m, i) => {
    const from = m.index + m[0].length;
    const next = keys[i + 1];
    const text = next ? rest.slice(from, next.index) : (rest.slice(from).split(",")[0] ?? "");
    out.push([m[1] as string, text.replace(/,?\s*(?:or)?\s*$/i, "").trim()]);
  });
  // Keys in order from the first: 1, 2, 3 or A, B, C.
  const base = out[0]?.[0] === "1" ? 49 : 65;
  if (out.some(([k], i) => k.charCodeAt(0) !== base + i)) return [];
  return out.length >= 2 ? out : [];
}

/**
 * Whether a reply asks for an option's label, not its words ("— reply with the letter", "Reply with the number.",
 * "Just type the letter", "Tell me the number of the one to cancel."); not "reply with the number of copies".
 */
/** "(number or name)" after a list: either the option's key or its name. */
export const KEY_OR_NAME = /\((?:the |its )?(?:number|letter) or (?:the |its )?name\)/i;
export const BY_LABEL =
  /\b(?:reply|respond|answer|type|enter|send|say|pick|choose|select|give|tell me)\b[^.?!\n]{0,24}\b(?<!\bname or )(?:the|a|its|their) (?:letter|number|option number)\b(?! of\b(?! the (?:one|option|item|entry)\b))/i;

/** Words an alternative's second half may begin with that ask for no choice ("… or not?", "… or anything else?"). */
const NO_ALTERNATIVE =
  /^(?:not|no|nothing|anything|something|someone|anyone|both|neither|either|other|another|is there|can i|would you|do you)\b/i;
/** Words that start a phrase ("to your card" or "as app credit", "a window seat or an aisle seat"). */
const PREPOSITION = /^(?:to|as|by|for|in|on|at|with|via|into|onto|from)$/i;
const DETERMINER = /^(?:a|an|the|your|my)$/i;
/**
 * The two options of an alternative question ("Would you like the refund back to your Visa ending 4821 (3–5 working
 * days) or as Forkful credit (instant)?" → ["to your Visa ending 4821", "as Forkful credit"], "Do you want it
 * delivered or collected?", "a window seat or an aisle seat?"): the phrase after its one "or", and the phrase of
 * as many words (from a preposition or article when the second begins with one) before it; bracketed notes
 * dropped. Empty unless the sentence asks a would-you-like / do-you-want / should-I question with one "or", both
 * options of at most 6 words, and neither a yes nor a no ("go ahead or cancel" is a gate) nor "or not", "or
 * anything else".
 */
export function alternativesIn(sentence: string): string[] {
  const plain = sentence.replace(/\s*\([^()]*\)/g, "").trim();
  const m =
    /^(?:[^.?!]*?[,—–-]\s*)?(?:would you (?:like|prefer)|do you (?:want|prefer|need)|should (?:i|we)|shall (?:i|we)|is (?:it|this|that)|are you)\b(.*)\?$/i.exec(
      plain,
    );
  const body = m?.[1];
  if (!body) return [];
  const halves = body.split(/\s+or\s+/i);
  if (halves.length !== 2) return [];
  const [left, right] = halves.map((h) => h.trim().replace(/[,;]$/, "")) as [string, string];
  if (!right || NO_ALTERNATIVE.test(right)) return [];
  const rightWords = right.split(/\s+/);
  const leftWords = left.split(/\s+/);
  if (rightWords.length > 6) return [];
  // The first option begins with a word of the kind the second begins with, else has as many words.
  const kind = [PREPOSITION, DETERMINER].find((k) => k.test(rightWords[0] ?? ""));
  const from = kind ? leftWords.findLastIndex((w) => kind.test(w)) : leftWords.length - rightWords.length;
  const first = leftWords.slice(Math.max(0, from)).join(" ");
  if (!first || first.split(/\s+/).length > 6) return [];
  const options = [first, right];
  return options.some((o) => MENU_YES.test(o) || MENU_NO.test(o)) ? [] : options;
}
