import { labelReply } from "./abstract.ts";
import { offeredCapabilities } from "./answer.ts";
import { canonicalValues } from "./mentions.ts";
import { sameRequest } from "./requests.ts";
import { knownValues, mentionsWhole } from "./slots.ts";
import { CUE, cueOf, type Facts, type SessionTrace } from "./types.ts";

/**
 * The requests discovery explores (AgentEval §III-A): the services the agent offered and the facts' requests,
 * and which of them the agent answered alike.
 */

/**
 * The requests to explore: services offered in earlier replies (in order seen), then the facts' requests. A
 * facts request that is an offered service in other words takes its place: it is how the user's customers
 * say it ("where is my parcel?" for the agent's "tell you where a parcel is").
 */
export function knownRequests(traces: readonly SessionTrace[], facts: Facts): string[] {
  const out: string[] = [];
  const add = (p: string, own = false) => {
    const at = out.findIndex((q) => sameRequest(q, p));
    if (at < 0) out.push(p);
    else if (own && !facts.requests.includes(out[at] as string)) out[at] = p;
  };
  for (const t of traces)
    for (const turn of t.turns) {
      const offered = offeredCapabilities(turn.reply);
      if (!slotOptions(offered, facts)) for (const o of offered) add(o);
    }
  for (const r of facts.requests) add(r, true);
  return out.length ? out : ["get help with a booking"];
}

/**
 * Whether an offered list is one slot's options rather than services ("On your car policy I can take claims
 * for theft, collision damage or windscreen damage"): every item names a value the facts give for one slot.
 */
function slotOptions(items: readonly string[], facts: Facts): boolean {
  if (!items.length) return false;
  return Object.values(knownValues(facts)).some((values) =>
    items.every((item) => values.some((v) => v.length > 1 && mentionsWhole(item, v))),
  );
}

/**
 * Requests the agent answered alike (AgentEval §III-A discovery budget): a service the agent offers in its words
 * ("reschedule a delivery") and a facts request in the customer's ("I need to change my delivery date") are one
 * workflow when every customer who carried both through got the same replies, label for label, and those replies
 * reach a step no other request's sessions reached. Exploring both would spend the session budget twice on one
 * branch while others (an amount below the minimum, a second customer's refusal) wait. Pure: the labels are the
 * `rules` labeller's (a function of the text and the facts), whatever labeller the campaign uses.
 */

/** One carried session: who played it (persona and the records named) and the trace. */
export interface CarriedSession {
  /** The request the session explored. */
  request: string;
  /** Persona index and the identifier values of its variant, as one key. */
  who: string;
  trace: SessionTrace;
}

/**
 * Later requests that repeat an earlier one, mapped to the earliest they repeat: `b` → `a` when (1) at least two
 * customers carried both, (2) each got the same activities in `a` as in `b` (its first carried session of each),
 * and (3) those activities include a step that is not a refusal (a question, a gate, a completion, information)
 * and that no session of a request outside their group shows (the group: `a` and every request its customers
 * met the same way), or one of those customers made the very same write in both (the same answers through the
 * confirmation to its completion, the same amounts, dates and times in every reply).
 *
 * @param requests  every known request, in planning order (earlier ones are kept)
 * @param carried   the sessions that carried a request through with a persona × values variant
 * @param sessions  every session with the request it explored
 * @returns dropped request → kept request
 */
export function requestAliases(
  requests: readonly string[],
  carried: readonly CarriedSession[],
  sessions: readonly { request?: string | undefined; trace: SessionTrace }[],
  facts: Facts,
): Map<string, string> {
  const labels = new Map<SessionTrace, string[]>();
  const label = (t: SessionTrace) => {
    let l = labels.get(t);
    if (l === undefined) {
      l = t.turns.map((u) => labelReply(u.reply, facts).activity);
      labels.set(t, l);
    }
    return l;
  };
  // Per request, the first carried session of each customer: it stands for that customer.
  const byRequest = new Map<string, Map<string, SessionTrace>>();
  for (const c of carried) {
    const mine = byRequest.get(c.request) ?? new Map<string, SessionTrace>();
    if (!mine.has(c.who)) mine.set(c.who, c.trace);
    byRequest.set(c.request, mine);
  }
  const path = (t: SessionTrace | undefined) => (t ? label(t).join(" ") : undefined);
  /**
   * Whether some customer of `common` made one write in `a` and `b` alike: through a confirmation to its
   * completion, answering the same after the first message, and told the same amounts, dates and times in every
   * reply ("make my overdue payment" and "settle my overdue balance": £24.99 owed, £24.99 paid).
   */
  const sameWrite = (a: string, b: string, common: readonly string[]) =>
    common.some((who) => {
      const [x, y] = [byRequest.get(a)?.get(who), byRequest.get(b)?.get(who)];
      if (!x || !y || x.turns.length !== y.turns.length) return false;
      const acts = label(x);
      if (!acts.includes(CUE.gate) || acts.at(-1) !== CUE.done) return false;
      const said = (t: SessionTrace, i: number) => canonicalValues(t.turns[i]?.reply ?? "").join(" ");
      return x.turns.every((u, i) => (i === 0 || u.user === y.turns[i]?.user) && said(x, i) === said(y, i));
    });
  /** The customers `x` and `y` have in common, when each got the same activities in both; else undefined. */
  const alike = (x: string, y: string) => {
    const [sx, sy] = [byRequest.get(x), byRequest.get(y)];
    if (!sx || !sy) return undefined;
    const common = [...sy.keys()].filter((who) => sx.has(who));
    return common.length && common.every((who) => path(sx.get(who)) === path(sy.get(who)))
      ? common
      : undefined;
  };
  const alias = new Map<string, string>();
  for (const [j, b] of requests.entries()) {
    for (const a of requests.slice(0, j)) {
      if (alias.has(a)) continue;
      const common = alike(a, b);
      if (!common || common.length < 2) continue;
      const group = new Set(requests.filter((c) => c === a || c === b || alike(a, c)));
      const theirs = new Set(
        sessions.filter((s) => !s.request || !group.has(s.request)).flatMap((s) => label(s.trace)),
      );
      const own = common.flatMap((who) => {
        const t = byRequest.get(a)?.get(who);
        return t ? label(t) : [];
      });
      const particular = own.filter(
        (x) => !theirs.has(x) && cueOf(x) !== CUE.refuse && cueOf(x) !== CUE.notFound,
      );
      if (particular.length || sameWrite(a, b, common)) {
        alias.set(b, a);
        break;
      }
    }
  }
  return alias;
}
