import { StoppedError } from "../core/errors.ts";

/**
 * Usage accounting and budgets for model calls (issue 3 §1): calls, input / output tokens, cost (USD, from a
 * price table the user can override) and wall time, per role and per run. A budget (max calls, tokens or
 * USD per run) stops the run cleanly with {@link StoppedError}; what was done is kept by the caller.
 */

/** Prices in USD per million tokens. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
}

/** Default prices (USD / 1M tokens) of a few common models; users override or extend them in config. */
export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  "openai:gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  "openai:gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10 },
  "anthropic:claude-3-5-haiku-latest": { inputPerMTok: 0.8, outputPerMTok: 4 },
  "google:gemini-2.5-flash-lite": { inputPerMTok: 0.1, outputPerMTok: 0.4 },
};

/** Totals of one role (or of the whole run). */
export interface UsageTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD; models without a known price count 0 and are listed in `unpriced`. */
  costUsd: number;
  /** Wall time of the calls, ms. */
  wallMs: number;
}

/** Limits per run; an absent limit is no limit. */
export interface Budget {
  maxCalls?: number;
  maxTokens?: number;
  maxUsd?: number;
}

const zero = (): UsageTotals => ({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, wallMs: 0 });

/** Usage of a run, by role. */
export class UsageLedger {
  private readonly roles = new Map<string, UsageTotals>();
  /** Calls admitted and not yet recorded or released. */
  private pending = 0;
  /** Models used without a price (their cost counted as 0). */
  readonly unpriced = new Set<string>();

  constructor(
    private readonly budget: Budget = {},
    private readonly prices: Readonly<Record<string, Price>> = DEFAULT_PRICES,
  ) {}

  /**
   * Check, before a call, that one more call fits the budget, and count it as in flight until it is
   * recorded (or released).
   * @throws StoppedError naming the limit reached
   */
  admit(role: string): void {
    const t = this.total();
    // Calls admitted but not yet recorded count against the limits, so calls in flight cannot overshoot them.
    t.calls += this.pending;
    const stop = (what: string) =>
      new StoppedError(
        `model budget reached (${what}) before a ${role} call`,
        "raise the budget in gauntlet.yaml, or resume later; finished work is kept",
      );
    if (this.budget.maxCalls !== undefined && t.calls >= this.budget.maxCalls)
      throw stop(`${t.calls} of ${this.budget.maxCalls} calls`);
    if (this.budget.maxTokens !== undefined && t.inputTokens + t.outputTokens >= this.budget.maxTokens)
      throw stop(`${t.inputTokens + t.outputTokens} of ${this.budget.maxTokens} tokens`);
    if (this.budget.maxUsd !== undefined && t.costUsd >= this.budget.maxUsd)
      throw stop(`$${t.costUsd.toFixed(4)} of $${this.budget.maxUsd}`);
    this.pending++;
  }

  /** An admitted call that ended without a reply to record (failed or aborted). */
  release(): void {
    this.pending = Math.max(0, this.pending - 1);
  }

  /** Record one finished call. */
  record(
    role: string,
    model: string,
    call: { inputTokens: number; outputTokens: number; wallMs: number },
  ): void {
    this.release();
    const price = this.prices[model];
    if (!price) this.unpriced.add(model);
    const cost = price
      ? (call.inputTokens * price.inputPerMTok + call.outputTokens * price.outputPerMTok) / 1_000_000
      : 0;
    const t = this.roles.get(role) ?? zero();
    t.calls++;
    t.inputTokens += call.inputTokens;
    t.outputTokens += call.outputTokens;
    t.costUsd += cost;
    t.wallMs += call.wallMs;
    this.roles.set(role, t);
  }

  /**
   * Add totals accounted earlier (a resumed run's previous invocations), so budgets hold per run.
   * @param byRole totals per role, as {@link byRole} returns them
   */
  carryOver(byRole: Readonly<Record<string, UsageTotals>>): void {
    for (const [role, t] of Object.entries(byRole)) {
      const mine = this.roles.get(role) ?? zero();
      for (const k of ["calls", "inputTokens", "outputTokens", "costUsd", "wallMs"] as const)
        mine[k] += t[k] ?? 0;
      this.roles.set(role, mine);
    }
  }

  /** Totals per role. */
  byRole(): Record<string, UsageTotals> {
    return Object.fromEntries([...this.roles].map(([r, t]) => [r, { ...t }]));
  }

  /** Totals over all roles. */
  total(): UsageTotals {
    const out = zero();
    for (const t of this.roles.values()) {
      out.calls += t.calls;
      out.inputTokens += t.inputTokens;
      out.outputTokens += t.outputTokens;
      out.costUsd += t.costUsd;
      out.wallMs += t.wallMs;
    }
    return out;
  }
}
