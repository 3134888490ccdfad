import path from "node:path";
import { type ChatTarget, TargetError } from "../agents/chat/target.ts";
import { appendJsonl, readJsonlIfExists } from "../core/jsonl.ts";
import { makeDirectory } from "../core/paths.ts";
import { asksSomething, readQuestion } from "./answer.ts";
import { TRIES_LEFT } from "./asking.ts";
import { sessionNovelty } from "./coverage.ts";
import { objectiveMet, rulesDriver } from "./driver.ts";
import { createRulesPlanner, type WarmupSchedule } from "./planner.ts";
import { factSlotNames } from "./slots.ts";
import { STRATEGIES } from "./tactics.ts";
import { type Driver, type Facts, type Planner, RoundPlan, SessionTrace, type Turn } from "./types.ts";

export { objectiveMet, rulesDriver } from "./driver.ts";
export {
  createRulesPlanner,
  DEFAULT_WARMUP,
  rulesPlanner,
  STRATEGIES,
  type WarmupSchedule,
} from "./planner.ts";

/** Options of {@link discover}. */
export interface DiscoverOptions {
  /** Chooses each round's phase, objective and strategy; default: the rules planner with `warmup`. */
  planner?: Planner;
  /** Plays each session; default: {@link rulesDriver}. */
  driver?: Driver;
  facts: Facts;
  /** R_disc: rounds (sessions) in all, resumed ones included; default 24. With `maxRounds`, the minimum. */
  rounds?: number;
  /**
   * Coverage-driven budget: past `rounds`, discovery goes on while one of the last `patience` sessions still
   * added an activity or transition (coverage.ts {@link sessionNovelty}), up to `maxRounds` sessions in all;
   * default `rounds` (a fixed number of sessions).
   */
  maxRounds?: number;
  /** Sessions without anything new after which a coverage-driven discovery stops; default 12. */
  patience?: number;
  /** B_turn: user turns per session at most; default 10 (the paper: 6 — too few for an authenticated write with a gate). */
  turnBudget?: number;
  /**
   * Warm-up schedule of the default planner (m_cap, m_hp, m_cc; default 1, 2, 1). A given planner applies its
   * own schedule (the Planner interface receives no schedule).
   */
  warmup?: WarmupSchedule;
  /** `traces.jsonl`: each session is appended as it ends; sessions already there are not re-run. */
  file?: string;
  /** One line per finished session. */
  onProgress?: (line: string) => void;
}

/** Sessions after which discovery stops when every one of them ended in a target error. */
const FAIL_FAST = 3;

const traceId = (round: number) => `d${String(round).padStart(2, "0")}`;

/**
 * Phase-guided discovery (AgentEval §III-A): `rounds` fresh sessions with the target; in each the planner
 * sets phase, objective and strategy from the traces so far, and the driver sends one plain user message per
 * turn until it stops (`objective` when {@link objectiveMet}, else `driver_stop`) or the turn budget is spent
 * (`turn_budget`). A TargetError (on reset or a turn) ends that session with `target_error` and the message
 * — the failed turn is kept with an empty reply — and the campaign goes on.
 *
 * With `maxRounds` above `rounds`, the budget follows coverage: after `rounds` sessions discovery goes on while
 * one of the last `patience` sessions still added an activity or transition, or the planner holds a round
 * necessary ({@link Planner.pending}: a customer not yet carried through a request), and stops at `maxRounds`.
 *
 * Resumable: with `file`, the rounds already in it are read back (a torn last line is repaired) and skipped,
 * and every new session is appended the moment it ends.
 *
 * @returns the traces of rounds 0 … (rounds … maxRounds)−1, in round order
 * @throws InputError when `file` holds a line that is not a session trace; errors of the planner or driver
 */
export async function discover(target: ChatTarget, options: DiscoverOptions): Promise<SessionTrace[]> {
  const rounds = options.rounds ?? 24;
  const maxRounds = Math.max(rounds, options.maxRounds ?? rounds);
  const patience = options.patience ?? 16;
  const budget = options.turnBudget ?? 10;
  const planner = options.planner ?? createRulesPlanner(options.warmup);
  const driver = options.driver ?? rulesDriver;
  const { facts, file } = options;
  if (file) makeDirectory(path.dirname(file));
  const done = new Map<number, SessionTrace>();
  // A session the target failed is not done: a resume runs it again (the newest line of a round wins).
  for (const t of file ? readJsonlIfExists(file, SessionTrace, { repairTornTail: true }) : [])
    if (t.round < maxRounds) {
      if (t.stop === "target_error") done.delete(t.round);
      else done.set(t.round, t);
    }
  const of = maxRounds > rounds ? `${rounds}–${maxRounds}` : `${rounds}`;
  if (done.size) options.onProgress?.(`discover: ${done.size} of ${of} sessions already done, resuming`);

  const traces: SessionTrace[] = [];
  // What each session added to the activities and transitions seen so far (coverage.ts).
  const novelty = () => sessionNovelty(traces, facts);
  for (let round = 0; round < maxRounds; round++) {
    if (
      round >= rounds &&
      novelty()
        .slice(-patience)
        .every((n) => n === 0) &&
      !planner.pending?.({ traces, facts })
    ) {
      options.onProgress?.(
        `discover: stopping after ${round} sessions: the last ${patience} found no new activity or transition`,
      );
      break;
    }
    // A target that failed every one of the first sessions is down or misconfigured: stop rather than spend
    // the whole budget (each failed session can take a full timeout).
    if (traces.length >= FAIL_FAST && traces.every((t) => t.stop === "target_error")) {
      options.onProgress?.(
        `discover: stopping: the first ${traces.length} sessions all ended in a target error`,
      );
      break;
    }
    const resumed = done.get(round);
    if (resumed) {
      traces.push(resumed);
      continue;
    }
    const started = performance.now();
    const plan = RoundPlan.parse(await planner.plan({ round, traces, facts }));
    const trace = await session(target, driver, facts, plan, budget, round);
    if (file) appendJsonl(file, trace);
    traces.push(trace);
    const added = novelty().at(-1) ?? 0;
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const what = plan.request ? `: ${plan.request.slice(0, 60)}` : "";
    options.onProgress?.(
      `discover ${round + 1}/${of} ${trace.id} ${plan.phase}${what} → ${trace.stop} (${trace.turns.length} turns, ${added} new, ${secs} s)`,
    );
  }
  return traces;
}

/** One discovery session: reset, then the driver's turns until it stops, the budget, or a target error. */
async function session(
  target: ChatTarget,
  driver: Driver,
  facts: Facts,
  plan: RoundPlan,
  budget: number,
  round: number,
): Promise<SessionTrace> {
  const turns: Turn[] = [];
  const end = (stop: SessionTrace["stop"], error?: string): SessionTrace =>
    SessionTrace.parse({ id: traceId(round), round, plan, turns, stop, ...(error ? { error } : {}) });
  try {
    await target.reset();
  } catch (error) {
    if (error instanceof TargetError) return end("target_error", error.message);
    throw error;
  }
  const slots = factSlotNames(facts);
  // The again tactic makes its write several times over, the remedy tactic two workflows: the long budget.
  const long = [STRATEGIES.again, STRATEGIES.remedy].some((s) => plan.strategy.startsWith(s));
  const cap = long ? LONG_SESSION * budget : budget;
  for (;;) {
    // A workflow longer than the budget (sign-in, a new address, a date, a reading, then the gate) is carried on
    // while each reply still asks something new, up to LONG_SESSION × the budget.
    if (turns.length >= cap && !(turns.length < LONG_SESSION * budget && progressing(turns)))
      return end(objectiveMet(plan, turns) ? "objective" : "turn_budget");
    if (looping(turns, slots)) return end(objectiveMet(plan, turns) ? "objective" : "driver_stop");
    const user = await driver.next({ plan, turns, facts });
    if (user === undefined) return end(objectiveMet(plan, turns) ? "objective" : "driver_stop");
    const sent = performance.now();
    try {
      const reply = await target.send(user);
      turns.push({ user, reply: reply.text, ms: reply.ms });
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      turns.push({ user, reply: "", ms: performance.now() - sent });
      return end("target_error", error.message);
    }
  }
}

/** How far past its turn budget a session still moving forward may go (see {@link progressing}). */
const LONG_SESSION = 2.5;

/**
 * Whether a session is still moving forward: the last reply asks something and the last four replies are all
 * different (a workflow with more steps than the turn budget, not a loop; {@link looping} ends those).
 */
export function progressing(turns: readonly Turn[]): boolean {
  const last = turns.slice(-4).map((t) => t.reply.trim().toLowerCase());
  return last.length === 4 && new Set(last).size === 4 && asksSomething(turns.at(-1)?.reply ?? "");
}

/** Replies in a row asking for one slot that end a session as a loop (a lock-out comes after three). */
const SAME_ASK = 5;

/**
 * Whether the agent asks for the same thing again and again whatever the user says — the last
 * {@link SAME_ASK} replies ask for one slot, or one reply came word for word three times in the last six
 * turns while no count of tries left came between — so the rest of the session's turn budget would only loop (the session ends as a driver stop).
 */
export function looping(turns: readonly Turn[], slots: readonly string[]): boolean {
  const last = turns.slice(-SAME_ASK);
  if (last.length === SAME_ASK) {
    const asked = last.map((t) => readQuestion(t.reply, slots)?.slot);
    if (asked[0] !== undefined && asked.every((s) => s === asked[0])) return true;
  }
  const recent = turns.slice(-6).map((t) => t.reply.trim().toLowerCase());
  // Not while the agent counts down to a lock-out between them ("… 2 more attempts …", "… 1 more attempt …").
  const once = recent.some((r) => recent.filter((x) => x === r).length === 1 && TRIES_LEFT.test(r));
  return (
    !once && recent.some((r, i) => r.length > 0 && recent.filter((x, j) => j >= i && x === r).length >= 3)
  );
}
