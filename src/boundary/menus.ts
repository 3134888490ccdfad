/**
 * Menus in a reply (answer.ts reads them): the options it numbers or lists at the end of a question, and a
 * confirmation offered as a menu ("1) Confirm 2) Change something 3) Cancel"). Pure functions of the text.
 */

/**
 * Options a reply numbers ("1) Basic – €10/month, 2) Plus – €20/month", "1. Morning 2. Afternoon", "1 - Confirm;
 * 2 - Change something", one per line or inline): each option's name, without what follows a dash, colon, parenthesis or the end of its
 * sentence ("2. Persuasion. Which one?"); empty when fewer than two.
 */
export function numberedOptions(reply: string): string[] {
  const out: string[] = [];
  for (const m of reply.matchAll(
    /(?:^|[\s:;,(])(\d{1,2})(?:[.)]|\s+[-–])\s+([^\n;]+?)(?=\s+\d{1,2}(?:[.)]|\s+[-–])\s|[\n;]|,\s*(?:or\s+)?\d{1,2}[.)]|$)/g,
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
    if (name && name.split(/\s+/).length <= 6) out.push(name);
  }
  return out.length >= 2 ? out : [];
}

const MENU_YES =
  /^(?:yes\b|confirm|go ahead|proceed|agree|accept|approve|submit|ok(?:ay)?\b|(?:that's|that is|all) (?:right|correct|good)|book it|place (?:it|the order))/i;
const MENU_NO = /^(?:no\b|cancel|abort|stop|discard|don't|do not|never ?mind|start (?:again|over))/i;
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
  if (!list || /^\s*(?:for example|for instance|e\.g\.?|eg|such as|like|in the form|format)\b/i.test(list))
    return [];
  const parts = list
    .split(/\s*,\s*(?:or\s+|and\s+)?|\s+or\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length >= 2 && parts.every((p) => p.split(/\s+/).length <= 6) ? parts : [];
}
