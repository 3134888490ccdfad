import { describe, expect, it } from "vitest";
import type { ChatReply, ChatTarget } from "../src/agents/chat/target.ts";
import { discover } from "../src/boundary/discover.ts";
import { rulesDriver } from "../src/boundary/driver.ts";
import { remedyOf, remedyRequest, TAKE_OFFER } from "../src/boundary/remedy.ts";
import { STRATEGIES, strategyText } from "../src/boundary/tactics.ts";
import type { Facts, RoundPlan, Turn } from "../src/boundary/types.ts";

/**
 * The remedy tactic (issue 15 §1: explore past each gate): a refusal that offers its own way past ("Say 'pay
 * my balance'") is taken, then the request is made again, so the guard behind the first one is reached.
 */

const OWED =
  "I can't make new bookings while £20.00 is overdue on your account. Say 'pay my balance' and I can take it now. Anything else?";
const OWED_PLAIN =
  "Bookings are on hold because last month's payment of £20.00 failed. Once it's settled you can book straight away; I can help with that.";

describe("the way past a refusal the refusal offers (remedy.ts)", () => {
  it("takes the quoted instruction, else says yes to an offer to lift it", () => {
    expect(remedyOf(OWED)).toBe("pay my balance");
    expect(remedyOf(OWED_PLAIN)).toBe(TAKE_OFFER);
  });

  it("finds none in a gate, a hand-off, a visit or a reply that refuses nothing", () => {
    expect(remedyOf("Shall I book PI42 on Thursday? Say 'yes' to confirm.")).toBeUndefined();
    expect(
      remedyOf("I can't change that here; a colleague can help with that. Shall I transfer you?"),
    ).toBeUndefined();
    expect(remedyOf("Your balance is £20.00. I can help with that.")).toBeUndefined();
    expect(remedyOf("Sorry, but refunds have to be done at a desk: say 'branches' for the list.")).toBe(
      "branches",
    );
  });
});

const facts: Facts = {
  personas: [{ member_number: ["M1001"], class_code: ["BX05"] }],
  requests: ["I'd like to book a class"],
};

describe("the remedy tactic in the driver (driver.ts)", () => {
  const plan: RoundPlan = {
    phase: "free",
    objective: "Get the agent to book a class",
    request: "I'd like to book a class",
    strategy: strategyText("remedy", 0, {}),
    persona: 0,
  };
  const refused: Turn[] = [{ user: "I'd like to book a class", reply: OWED, ms: 0 }];
  const paid: Turn[] = [
    ...refused,
    { user: "pay my balance", reply: "You owe £20.00. Shall I take it from your card ending 4821?", ms: 0 },
    { user: "yes", reply: "Paid: £20.00 taken. Your balance is now £0.00. Anything else?", ms: 0 },
  ];

  it("takes the offer, carries the remedy through, then makes the request again once", async () => {
    expect(strategyText("remedy", 0, {}).startsWith(STRATEGIES.remedy)).toBe(true);
    expect(await rulesDriver.next({ plan, turns: refused, facts })).toBe("pay my balance");
    expect(await rulesDriver.next({ plan, turns: paid.slice(0, 2), facts })).toMatch(/^yes/i);
    expect(await rulesDriver.next({ plan, turns: paid, facts })).toBe("I'd like to book a class");
    const again: Turn[] = [
      ...paid,
      { user: "I'd like to book a class", reply: "BX05 is premium; your plan doesn't include it.", ms: 0 },
    ];
    expect(await rulesDriver.next({ plan, turns: again, facts })).toBeUndefined();
  });

  it("takes a plain offer with the agent's own request the planner named for it", async () => {
    const named = {
      ...plan,
      strategy: strategyText("remedy", 0, {}, undefined, "Hi, I'd like to make a payment."),
    };
    const plain: Turn[] = [{ user: "I'd like to book a class", reply: OWED_PLAIN, ms: 0 }];
    expect(await rulesDriver.next({ plan: named, turns: plain, facts })).toBe(
      "Hi, I'd like to make a payment.",
    );
    expect(await rulesDriver.next({ plan, turns: plain, facts })).toBe(TAKE_OFFER);
    // The quoted instruction wins over the named request: it is what the agent asked for.
    expect(await rulesDriver.next({ plan: named, turns: refused, facts })).toBe("pay my balance");
    expect(
      remedyRequest(
        OWED_PLAIN,
        ["book a class", "cancel a class booking", "make an overdue payment", "see my account"],
        "book a class",
      ),
    ).toBe("make an overdue payment");
    expect(remedyRequest(OWED_PLAIN, ["book a class", "see my account"], "book a class")).toBeUndefined();
  });

  it("stops at a refusal as carry does when the tactic is not played", async () => {
    const carry = { ...plan, strategy: strategyText("carry", 0, {}) };
    expect(await rulesDriver.next({ plan: carry, turns: refused, facts })).toBeUndefined();
  });
});

/** A gym bot: bookings refused while a balance is owed (its remedy quoted), then a premium class refused. */
class DuesBot implements ChatTarget {
  readonly name = "dues-bot";
  private owed = true;
  private step: "idle" | "member" | "pay" | "class" = "idle";
  private member = false;
  async reset() {
    this.owed = true;
    this.step = "idle";
    this.member = false;
  }
  async close() {}
  async send(text: string): Promise<ChatReply> {
    return { text: this.reply(text.toLowerCase()), ms: 0 };
  }
  private reply(t: string): string {
    if (this.step === "member") {
      if (!/m1001/.test(t)) return "I can't find that membership number. What's your membership number?";
      this.member = true;
      this.step = "idle";
      return this.owed ? OWED : "Thanks. Which class would you like to book?";
    }
    if (this.step === "pay") {
      this.step = "idle";
      if (!/\byes\b/.test(t)) return "OK, I haven't taken anything. Anything else?";
      this.owed = false;
      return "Paid: £20.00 taken from your card. Your balance is now £0.00. Anything else?";
    }
    if (/pay my balance/.test(t)) {
      this.step = "pay";
      return "You owe £20.00. Shall I take it from your card ending 4821 now?";
    }
    if (this.step === "class") {
      this.step = "idle";
      return /bx05/.test(t)
        ? "BX05 Boxing Fit is a premium class, and your plan doesn't include premium classes."
        : "Booked! Reference BK-1. Anything else?";
    }
    if (/\bbook\b/.test(t)) {
      if (!this.member) {
        this.step = "member";
        return "Sure. What's your membership number?";
      }
      if (this.owed) return OWED;
      this.step = "class";
      return "Which class would you like to book? The class code, please.";
    }
    return "I can help with class bookings and payments. What would you like to do?";
  }
}

describe("discovery past a guard the agent offers to lift (discover.ts, planner.ts)", () => {
  it("reaches the guard behind the balance refusal only by taking its remedy", async () => {
    const traces = await discover(new DuesBot(), { facts, rounds: 24 });
    const said = traces.flatMap((t) => t.turns.map((u) => u.reply));
    expect(said).toContain(OWED);
    expect(traces.some((t) => t.plan.strategy.startsWith(STRATEGIES.remedy))).toBe(true);
    expect(said.some((r) => /premium class/.test(r))).toBe(true);
  });
});
