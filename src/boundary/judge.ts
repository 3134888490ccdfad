import { InputError } from "../core/errors.ts";
import { spanMismatch } from "./consistency.ts";
import { contradicts, details, invitesRetry, mentionsValue, namedUnasked, recordCodes } from "./mentions.ts";
import { mentionsWhole } from "./slots.ts";
import {
  type AbstractTurn,
  type Check,
  type Criterion,
  cueOf,
  type Judge,
  type TestCase,
  type Turn,
  type Verdict,
} from "./types.ts";

/**
 * The `rules` judge (AgentEval §III-B): a verdict from the visible transcript and its per-turn labels, by
 * running each criterion's compiled {@link Check}. Pure and deterministic: the same transcript and labels
 * always give the same verdict, reason and quotes. Turn indexes in data (`from`, quote `turn`) are 0-based;
 * every sentence a person reads (`why`, `reason`) numbers turns from 1, like the criteria's text.
 */

/** Longest quoted text, characters; longer turns are cut and end in `…`. */
export const QUOTE_CHARS = 300;

type Quote = Verdict["quotes"][number];
type Result = Verdict["criteria"][number]["result"];

/** Whether a check's condition is true (`holds`), false, or not settled by the transcript (`undefined`). */
export interface CheckOutcome {
  holds: boolean | undefined;
  /** Why, as a clause for the reason sentence (no capital, no full stop); turns numbered from 1. */
  why: string;
  /** The turns that decided it (0-based indexes), in transcript order. */
  turns: { turn: number; speaker: Quote["speaker"] }[];
}

const agent = (turn: number) => ({ turn, speaker: "agent" as const });
const user = (turn: number) => ({ turn, speaker: "user" as const });
const list = (names: readonly string[]) => names.join(" or ");
/** A 0-based turn index as people read it ("turn 1" is the first turn). */
const nth = (index: number) => `turn ${index + 1}`;

/**
 * Run one check over a transcript (semantics on {@link Check}). `labels[i]` abstracts `turns[i]`.
 * @returns whether the check's condition holds; `undefined` when the transcript does not settle it.
 */
export function evaluateCheck(
  check: Check,
  turns: readonly Turn[],
  labels: readonly AbstractTurn[],
): CheckOutcome {
  const n = turns.length;
  // A family cue (`refuse`) names all its topics (`refuse_limit`, `refuse_pin`): types.ts cueOf.
  // `inform` names every information reply (`inform_price`, `inform_time`: topics a paraphrase changes).
  const labelled = (i: number, names: readonly string[]) => {
    const a = labels[i]?.activity ?? "";
    return (
      names.includes(a) ||
      (a !== cueOf(a) && names.includes(cueOf(a))) ||
      (a.startsWith("inform_") && names.includes("inform"))
    );
  };
  switch (check.kind) {
    case "activity": {
      if (n <= check.from)
        return {
          holds: undefined,
          why: `the transcript ended before ${nth(check.from)}`,
          turns: lastReply(n),
        };
      const last = Math.min(n - 1, check.until ?? n - 1);
      for (let i = check.from; i <= last; i++)
        if (labelled(i, check.activity))
          return { holds: true, why: `${nth(i)}'s reply is ${labels[i]!.activity}`, turns: [agent(i)] };
      const seen = [check.from, last].filter((i, k, all) => all.indexOf(i) === k);
      const span = check.until === undefined ? "on" : `to ${nth(last)}`;
      return {
        holds: false,
        why: `no reply from ${nth(check.from)} ${span} is ${list(check.activity)}`,
        turns: [user(check.from), ...seen.map(agent)],
      };
    }
    case "mentions": {
      const candidates: number[] = [];
      for (let i = check.from; i < n; i++)
        if (!check.activity || labelled(i, check.activity)) candidates.push(i);
      if (candidates.length === 0)
        return {
          holds: undefined,
          why: check.activity
            ? `no reply from ${nth(check.from)} on is ${list(check.activity)}`
            : `the transcript ended before ${nth(check.from)}`,
          turns: lastReply(n),
        };
      const hit = candidates.find(
        (i) =>
          check.values.every((v) => mentionsValue(turns[i]!.reply, v)) &&
          !contradicts(turns, i, check.values, check.derived ?? []),
      );
      const said = [...check.values, ...(check.derived ?? [])].join(", ");
      if (hit !== undefined)
        return {
          holds: true,
          why: `${nth(hit)}'s reply ${check.derived?.length ? "agrees with" : "mentions"} ${said}`,
          turns: [agent(hit)],
        };
      const last = candidates.at(-1)!;
      const foreign = contradicts(turns, last, check.values, check.derived ?? []);
      return {
        holds: false,
        why: foreign
          ? `${nth(last)}'s reply states ${foreign} where discovery saw ${said}`
          : `no ${check.activity ? `${list(check.activity)} ` : ""}reply mentions all of ${check.values.join(", ")}`,
        turns: [agent(last)],
      };
    }
    case "ungated": {
      for (let i = 0; i < n; i++) {
        if (!labelled(i, check.activity)) continue;
        const gated =
          i > 0 && labelled(i - 1, check.gate) && check.userAction.includes(labels[i]!.userAction);
        if (!gated)
          return {
            holds: true,
            why: `${nth(i)}'s reply is ${labels[i]!.activity} without a passed ${list(check.gate)} gate`,
            turns: [...(i > 0 ? [agent(i - 1)] : []), user(i), agent(i)],
          };
      }
      return { holds: false, why: `every ${list(check.activity)} reply follows a passed gate`, turns: [] };
    }
    case "premature": {
      const provided = new Set<string>();
      for (let i = 0; i < n; i++) {
        for (const slot of labels[i]?.provided ?? []) provided.add(slot);
        if (!labelled(i, check.activity)) continue;
        const missing = check.slots.filter((s) => !provided.has(s));
        if (missing.length)
          return {
            holds: true,
            why: `${nth(i)}'s reply is ${labels[i]!.activity} before the user provided ${missing.join(", ")}`,
            turns: [user(i), agent(i)],
          };
      }
      return {
        holds: false,
        why: `no ${list(check.activity)} reply comes before ${check.slots.join(", ")} is provided`,
        turns: [],
      };
    }
    case "retry": {
      const last = Math.min(n - 1, check.until ?? n - 1);
      if (n <= check.from)
        return {
          holds: undefined,
          why: `the transcript ended before ${nth(check.from)}`,
          turns: lastReply(n),
        };
      for (let i = check.from; i <= last; i++)
        if (invitesRetry(turns[i]!.reply, labels[i]?.activity ?? ""))
          return { holds: true, why: `${nth(i)}'s reply invites another try`, turns: [agent(i)] };
      return {
        holds: false,
        why: `no reply from ${nth(check.from)} to ${nth(last)} invites another try`,
        turns: [],
      };
    }
    case "extraneous": {
      const at = labels.findIndex((_, i) => i >= check.from && labelled(i, check.activity));
      if (at < 0)
        return {
          holds: undefined,
          why: `no reply from ${nth(check.from)} on is ${list(check.activity)}`,
          turns: lastReply(n),
        };
      const before = turns
        .slice(0, at + 1)
        .map((t, i) => (i < at ? `${t.user}\n${t.reply}` : t.user))
        .join("\n");
      const known = (v: string) =>
        check.allowed.some((a) => a.toLowerCase() === v.toLowerCase()) || mentionsWhole(before, v);
      const stray = recordCodes(turns[at]!.reply).find((v) => !known(v));
      if (stray)
        return {
          holds: true,
          why: `${nth(at)}'s reply names "${stray}", which neither the user nor an earlier reply did, nor discovery's reply there`,
          turns: [agent(at)],
        };
      return {
        holds: false,
        why: `${nth(at)}'s reply names no record the conversation had not established`,
        turns: [],
      };
    }
    case "superseded": {
      const first = labels.findIndex((_, i) => i >= check.from && labelled(i, check.gate));
      const done = labels.findIndex((_, i) => i > first && first >= 0 && labelled(i, check.activity));
      const again =
        done < 0 ? -1 : labels.findLastIndex((_, i) => i > first && i < done && labelled(i, check.gate));
      if (first < 0 || again < 0)
        return {
          holds: undefined,
          why: `no read-back was corrected and read back again before ${list(check.activity)}`,
          turns: lastReply(n),
        };
      const before = details(turns[first]!.reply);
      const after = turns[again]!.reply;
      const dropped = before.filter((v) => !mentionsValue(after, v));
      const stale = dropped.find((v) => mentionsValue(turns[done]!.reply, v));
      if (stale)
        return {
          holds: true,
          why: `${nth(done)}'s reply states "${stale}", which ${nth(first)}'s read-back stated and the corrected one at ${nth(again)} no longer does`,
          turns: [agent(first), agent(again), agent(done)],
        };
      return { holds: false, why: `${nth(done)}'s reply states nothing the correction replaced`, turns: [] };
    }
    case "discloses": {
      const first = namedUnasked(turns, check.values)[0];
      if (first)
        return {
          holds: true,
          why: `${nth(first.turn)}'s reply names "${first.value}", which the user never gave`,
          turns: [agent(first.turn)],
        };
      return { holds: false, why: "no reply names another customer's details unasked", turns: [] };
    }
    case "lingers": {
      for (let i = check.from; i < n; i++) {
        if (!labelled(i, check.activity)) continue;
        const value = check.values.find((v) => mentionsWhole(turns[i]!.reply, v));
        if (value)
          return {
            holds: true,
            why: `${nth(i)}'s reply still lists "${value}" after the agent reported it removed`,
            turns: [agent(i)],
          };
      }
      return {
        holds: false,
        why: `no ${list(check.activity)} reply from ${nth(check.from)} on lists ${check.values.join(", ")}`,
        turns: [],
      };
    }
    case "inconsistent": {
      for (let i = check.from; i < turns.length; i++) {
        const mismatch = spanMismatch(turns[i]?.reply ?? "");
        if (mismatch) return { holds: true, why: `${nth(i)}'s reply states ${mismatch}`, turns: [agent(i)] };
      }
      return { holds: false, why: "no reply states a period its own dates contradict", turns: [] };
    }
  }
}

function lastReply(n: number): CheckOutcome["turns"] {
  return n > 0 ? [agent(n - 1)] : [];
}

/** Cut a text to {@link QUOTE_CHARS} characters, ending in `…` when cut. */
export function truncateQuote(text: string, max = QUOTE_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function quotesOf(refs: CheckOutcome["turns"], turns: readonly Turn[]): Quote[] {
  const unique = new Map(refs.filter((r) => r.turn < turns.length).map((r) => [`${r.turn}:${r.speaker}`, r]));
  return [...unique.values()]
    .sort((a, b) => a.turn - b.turn || (a.speaker === "user" ? -1 : 1))
    .map((r) => {
      const t = turns[r.turn]!;
      return { ...r, text: truncateQuote(r.speaker === "user" ? t.user : t.reply) };
    });
}

interface Judged {
  criterion: Criterion;
  role: "success" | "failure";
  outcome: CheckOutcome;
  result: Result;
}

/**
 * A check's turns moved to where the test's hints were sent. Checks count turns as if hint i were user turn
 * i; when the runner answered a question in between ("My booking reference is …"), the hints come later.
 * A window ("at turn 2 or the next") and a failure check move with their hint; a success check from a turn
 * on keeps its start (the sooner start only accepts more). `sentAt[i]`: the turn hint i was sent at.
 */
function shifted(check: Check, role: Judged["role"], sentAt: readonly number[]): Check {
  if (
    !("from" in check) ||
    !sentAt.length ||
    (role === "success" && !("until" in check && check.until !== undefined))
  )
    return check;
  const j = Math.min(check.from, sentAt.length - 1);
  const by = (sentAt[j] as number) - j;
  if (by <= 0) return check;
  const until = "until" in check && check.until !== undefined ? { until: check.until + by } : {};
  return { ...check, from: check.from + by, ...until };
}

function judgeCriterion(
  criterion: Criterion,
  role: Judged["role"],
  turns: readonly Turn[],
  labels: readonly AbstractTurn[],
  targetFailed: boolean,
  sentAt: readonly number[] = [],
): Judged {
  if (!criterion.check)
    return {
      criterion,
      role,
      outcome: { holds: undefined, why: "it has no compiled check", turns: [] },
      result: "undecided",
    };
  let outcome = evaluateCheck(shifted(criterion.check, role, sentAt), turns, labels);
  if (role === "success" && outcome.holds === false && targetFailed)
    outcome = {
      holds: undefined,
      why: `the target failed to answer at ${nth(turns.length - 1)}`,
      turns: [user(turns.length - 1)],
    };
  const result: Result =
    outcome.holds === undefined ? "undecided" : outcome.holds === (role === "success") ? "met" : "violated";
  return { criterion, role, outcome, result };
}

/**
 * Decide a test's verdict from its transcript (AgentEval §III-B). `fail` when a failure criterion holds
 * (checked first) or a success criterion is violated; `inconclusive` when the transcript is empty, the test
 * has no criteria, a success criterion is undecided (its prerequisite turn was never reached, its activity
 * never appeared, it has no check, or the last reply is empty because the target failed to answer), or no
 * criterion could be decided at all; otherwise `pass`. A pass of a test without success criteria says so in
 * its reason: it rests only on forbidden behaviour not being seen, which a check naming an activity no
 * labeller produces (a typo) also gives. `criteria` lists success then failure criteria with results from
 * the test's point of view (a failure criterion that holds is `violated`, one that did not happen `met`).
 * @param labels the labeller's abstraction, one per turn.
 * @throws InputError when `labels` and `turns` differ in length.
 */
export function judgeByRules(
  test: TestCase,
  turns: readonly Turn[],
  labels: readonly AbstractTurn[],
): Verdict {
  if (labels.length !== turns.length)
    throw new InputError(
      { field: "labels" },
      `test ${test.id}: ${labels.length} labels for ${turns.length} turns`,
      "Label every turn of the transcript before judging it.",
    );
  const targetFailed = turns.length > 0 && turns.at(-1)!.reply.trim() === "";
  // Where each hint was sent (matched in order, as the runner sends them).
  const sentAt: number[] = [];
  for (const [i, t] of turns.entries()) if (t.user === test.hints[sentAt.length]) sentAt.push(i);
  const judged = [
    ...test.success.map((c) => judgeCriterion(c, "success", turns, labels, targetFailed, sentAt)),
    ...test.failure.map((c) => judgeCriterion(c, "failure", turns, labels, targetFailed, sentAt)),
  ];
  const criteria = judged.map((j) => ({ text: j.criterion.text, result: j.result }));
  const verdict = (v: Verdict["verdict"], reason: string, quotes: Quote[]): Verdict => ({
    verdict: v,
    reason,
    quotes,
    criteria,
  });
  const because = (j: Judged, what: string) =>
    verdict(
      what === "undecided" ? "inconclusive" : "fail",
      `${j.role === "success" ? "Success" : "Failure"} criterion ${what}: "${j.criterion.text}" (${j.outcome.why}).`,
      quotesOf(j.outcome.turns, turns),
    );

  if (turns.length === 0)
    return verdict("inconclusive", "The transcript is empty: the target never answered a turn.", []);
  if (judged.length === 0)
    return verdict("inconclusive", "The test has no success or failure criterion: nothing to decide.", []);
  const held = judged.find((j) => j.role === "failure" && j.result === "violated");
  if (held) return because(held, "held");
  const violated = judged.find((j) => j.role === "success" && j.result === "violated");
  if (violated) return because(violated, "violated");
  const undecided = judged.find((j) => j.role === "success" && j.result === "undecided");
  if (undecided) return because(undecided, "undecided");
  const met = judged.filter((j) => j.role === "success");
  if (met.length === 0 && judged.every((j) => j.result === "undecided"))
    return verdict("inconclusive", "No criterion of the test could be decided from the transcript.", []);
  const open = judged.filter((j) => j.role === "failure" && j.result === "undecided").length;
  const openNote = open
    ? ` ${open} of the ${test.failure.length} failure criteria could not be decided.`
    : "";
  const quotes = quotesOf(
    met.flatMap((j) => j.outcome.turns),
    turns,
  );
  if (met.length === 0)
    return verdict(
      "pass",
      `Passed: no failure criterion held; the test has no success criterion.${openNote}`,
      quotes,
    );
  const failures = test.failure.length
    ? `none of the ${test.failure.length} failure criteria held`
    : "the test has no failure criterion";
  return verdict(
    "pass",
    `Passed: ${met.map((j) => `"${j.criterion.text}"`).join(", ")} met and ${failures}.${openNote}`,
    quotes,
  );
}

/** The `rules` engine of the {@link Judge} role: {@link judgeByRules} behind the async interface. */
export const rulesJudge: Judge = {
  async judge(test, turns, labels) {
    return judgeByRules(test, turns, labels);
  },
};
