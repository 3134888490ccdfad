import { describe, expect, it } from "vitest";
import { FAULTS, heldout21Agent, STATES } from "../bench/agents/heldout21.ts";
import { Facts } from "../src/boundary/types.ts";

type Fault = (typeof FAULTS)[number];

interface Run {
  replies: string[];
  fp: string;
  states: readonly string[];
}

const PRIYA = ["priya.shah@example.com", "482913"];
const TOM = ["tom.okafor@example.com", "157340"];
const HANNAH = ["hannah.berg@example.com", "903625"];

async function run(turns: readonly string[], faults: readonly string[] = [], seed = 1): Promise<Run> {
  const target = heldout21Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  const out = { replies, fp: target.fingerprint(), states: target.statesVisited() };
  await target.close();
  return out;
}

const last = (r: Run): string => r.replies[r.replies.length - 1] ?? "";

/** Per fault: a conversation on which the fault acts, and what the clean agent must do there. */
const FAULT_CASES: Record<Fault, { turns: string[]; clean: (r: Run) => void }> = {
  auth_skip_track: {
    turns: ["where is my order FK-20425?"],
    clean: (r) => {
      expect(r.states).toEqual(["auth.ask_email"]);
      expect(r.fp).toBe("");
    },
  },
  no_lockout: {
    turns: ["track my order", "priya.shah@example.com", "111111", "222222", "333333", "482913"],
    clean: (r) => {
      expect(r.states).toContain("auth.locked");
      expect(r.states).not.toContain("auth.verified");
    },
  },
  refund_other_customer: {
    turns: ["I have a missing item", ...PRIYA, "FK-20410"],
    clean: (r) => {
      expect(r.states).toContain("order.not_yours");
      expect(r.states).not.toContain("refund.choose_item");
    },
  },
  refund_window_ignored: {
    turns: ["something was missing from my order", ...PRIYA, "FK-20388"],
    clean: (r) => {
      expect(r.states.at(-1)).toBe("refund.refused_window");
    },
  },
  refund_amount_wrong: {
    turns: ["an item was missing", ...PRIYA, "FK-20417", "1", "1", "card", "yes"],
    clean: (r) => {
      expect(r.fp).toContain("write:refund:FK-20417:item=Margherita pizza:qty=1:amount=11.5:method=card");
      expect(last(r)).toContain("£11.50");
    },
  },
  refund_forget_correction: {
    turns: ["an item was missing", ...PRIYA, "FK-20417", "1", "2", "card", "no, make it 1", "yes"],
    clean: (r) => {
      expect(r.states).toContain("refund.corrected");
      expect(r.fp).toContain("qty=1:amount=11.5");
    },
  },
  cancel_skip_typed_gate: {
    turns: ["cancel my order", ...PRIYA, "FK-20431"],
    clean: (r) => {
      expect(r.states.at(-1)).toBe("cancel.fee_warning");
      expect(r.fp).not.toContain("write:cancel");
      expect(last(r)).toContain("CANCEL ORDER");
    },
  },
  cancel_after_dispatch: {
    turns: ["cancel my order", ...TOM, "FK-20425", "yes"],
    clean: (r) => {
      expect(r.states).toContain("cancel.refused_dispatched");
      expect(r.fp).not.toContain("write:cancel");
    },
  },
  address_zone_ignored: {
    turns: ["change my delivery address", ...PRIYA, "FK-20431", "22 Hoxton Square", "SE15 4QL", "yes"],
    clean: (r) => {
      expect(r.states).toContain("address.out_of_zone");
      expect(r.fp).not.toContain("write:address");
    },
  },
  address_forget_correction: {
    turns: [
      "change my delivery address",
      ...PRIYA,
      "FK-20431",
      "22 Hoxton Square",
      "N1 6NT",
      "no, it's 24 Hoxton Square",
      "yes",
    ],
    clean: (r) => {
      expect(r.fp).toContain("write:address:FK-20431:24 Hoxton Square, N1 6NT");
    },
  },
  tip_cap_ignored: {
    turns: ["change my tip", ...PRIYA, "FK-20417", "30", "yes"],
    clean: (r) => {
      expect(r.states).toContain("tip.over_cap");
      expect(r.fp).not.toContain("write:tip");
    },
  },
  tip_saved_wrong: {
    turns: ["change my tip", ...PRIYA, "FK-20431", "5", "yes", "where is FK-20431"],
    clean: (r) => {
      expect(r.fp).toContain("write:tip:FK-20431:5");
      expect(last(r)).toContain("£5.00");
    },
  },
  promo_expired_accepted: {
    turns: ["add a promo code", ...PRIYA, "SPRING25", "yes"],
    clean: (r) => {
      expect(r.states).toContain("promo.expired");
      expect(r.fp).not.toContain("write:voucher");
    },
  },
  promo_min_spend_wrong: {
    turns: ["add a promo code", ...PRIYA, "SUMMER10", "yes"],
    clean: (r) => {
      expect(r.replies.at(-2)).toContain("£20.00");
      expect(r.fp).toContain("write:voucher:c1:SUMMER10");
    },
  },
  plus_resume_date_wrong: {
    turns: ["pause my plus membership", ...PRIYA, "2", "yes"],
    clean: (r) => {
      expect(r.fp).toContain("write:plus:c1:paused_until=28 August");
    },
  },
  plus_status_wrong: {
    turns: ["what's the status of my plus membership", ...TOM],
    clean: (r) => {
      expect(r.fp).toContain("read:plus:c2:paused");
      expect(last(r)).toContain("paused");
    },
  },
  delete_skip_reverify: {
    turns: ["delete my account", ...HANNAH],
    clean: (r) => {
      expect(r.states.at(-1)).toBe("reverify.ask_card");
      expect(r.states).not.toContain("delete.warn");
    },
  },
  pay_remove_wrong_card: {
    turns: ["remove a card", ...PRIYA, "4821", "B", "yes", "show my cards"],
    clean: (r) => {
      expect(r.fp).toContain("write:remove_card:c1:0093");
      expect(last(r)).toContain("4821");
      expect(last(r)).not.toContain("0093");
    },
  },
  track_eta_wrong: {
    turns: ["track my order", ...TOM, "FK-20425"],
    clean: (r) => {
      expect(r.states.at(-1)).toBe("track.on_the_way");
      expect(last(r)).toContain("19:52");
    },
  },
};

/** Conversations that together walk every designed state. */
const COVERAGE: string[][] = [
  [
    "hello",
    "menu",
    "what are your delivery fees?",
    "which areas do you cover?",
    "E8 1JX",
    "do you deliver to SE15?",
    "what are your opening hours",
    "do your dishes contain nuts?",
    "blargh",
    "qwerty zxcv",
    "yes",
    "thanks",
    "bye",
  ],
  [
    "track my order",
    "nobody@example.com",
    "priya.shah@example.com",
    "I didn't get the code",
    "000000",
    "111111",
    "222222",
    "where's my order",
  ],
  ["track my order", ...PRIYA, "I don't know", "1", "where is FK-99999", "FK-20410", "FK-20417"],
  ["track FK-20436", ...TOM, "and FK-20425?"],
  ["where is FK-20379", ...HANNAH],
  [
    "something is missing from my order",
    ...PRIYA,
    "FK-20431",
    "I want a refund for FK-20388",
    "my garlic bread was missing from FK-20417",
    "garlic bread",
    "app credit",
    "yes",
    "another item missing from FK-20417",
    "2",
    "1",
    "5",
    "both",
    "card",
    "no, make it 1",
    "never mind",
    "the margherita was missing from FK-20417",
    "margherita",
    "2",
    "card",
    "yes",
    "tiramisu missing from FK-20417",
    "3",
    "1",
    "yes",
  ],
  [
    "cancel my order",
    ...TOM,
    "FK-20425",
    "cancel FK-20402",
    "cancel FK-20436",
    "no",
    "cancel FK-20436",
    "yes",
  ],
  ["cancel FK-20431", ...PRIYA, "yes", "CANCEL ORDER"],
  [
    "menu",
    "4",
    ...PRIYA,
    "FK-20417",
    "menu",
    "4",
    "FK-20431",
    "A",
    "22 Hoxton Square",
    "E3 2AN",
    "N1 6NT",
    "no, it's 24 Hoxton Square",
    "yes",
    "add delivery instructions for FK-20431",
    "x".repeat(200),
    "Ring flat 2 please",
    "yes",
  ],
  ["change my tip", ...TOM, "FK-20402"],
  ["change my tip on FK-20379", ...HANNAH],
  ["I want to tip more on FK-20417", ...PRIYA, "lots", "30", "1", "4", "no, make it 5", "yes"],
  ["I have a promo code", ...PRIYA, "NOPE99", "SPRING25", "SUMMER10", "yes", "what vouchers do I have?"],
  ["promo code PIZZA3", ...TOM],
  ["voucher WELCOME5", ...HANNAH, "plus membership"],
  ["tell me about my plus membership", ...PRIYA, "A", "6", "2", "yes", "cancel my plus", "yes"],
  ["cancel my plus membership", ...PRIYA, "B", "no"],
  ["pause my membership", ...TOM, "resume my plus", "yes"],
  [
    "payment methods",
    ...PRIYA,
    "make a different card my default",
    "A",
    "B",
    "remove a card",
    "1234",
    "0093",
    "A",
    "yes",
    "add a new card",
  ],
  ["remove my card", ...TOM, "3007", "A"],
  ["remove a card", ...HANNAH, "1111", "2222"],
  ["delete my account", ...PRIYA],
  ["delete my account", ...HANNAH, "7764", "yes", "keep", "delete my account", "DELETE MY ACCOUNT"],
];

const ODD_INPUTS = [
  "",
  "   ",
  "🙂🍕🚴",
  "a".repeat(20_000),
  "\u0000\u0001\uffff",
  "\ud800",
  "'; DROP TABLE orders; --",
  "<script>alert(1)</script>",
  "ñandú çava ü 東京 مرحبا",
  "FK-",
  "£-5",
  "12345678901234567890",
  "yes no yes no",
  "@@@@@.@@",
];

describe("heldout21 testbed agent", () => {
  it("exports a well-formed agent", () => {
    expect(heldout21Agent.name).toBe("heldout21");
    expect(new Set(STATES).size).toBe(STATES.length);
    expect(STATES.length).toBeGreaterThanOrEqual(90);
    expect(STATES.length).toBeLessThanOrEqual(110);
    expect(new Set(FAULTS).size).toBe(FAULTS.length);
    expect(FAULTS.length).toBeGreaterThanOrEqual(15);
    expect(FAULTS.length).toBeLessThanOrEqual(20);
    expect(heldout21Agent.faults).toEqual(FAULTS);
    expect(heldout21Agent.states).toEqual(STATES);
  });

  it("has facts that parse", () => {
    const facts = Facts.parse(heldout21Agent.facts);
    expect(facts.personas).toHaveLength(3);
    expect(facts.requests.length).toBeGreaterThanOrEqual(4);
    expect(facts.requests.length).toBeLessThanOrEqual(8);
  });

  it("has a scripted case for every fault", () => {
    expect(Object.keys(FAULT_CASES).sort()).toEqual([...FAULTS].sort());
  });

  describe("faults", () => {
    for (const fault of FAULTS) {
      it(`${fault}: clean agent behaves, faulty agent differs`, async () => {
        const c = FAULT_CASES[fault];
        const clean = await run(c.turns);
        c.clean(clean);
        const faulty = await run(c.turns, [fault]);
        const differs = faulty.replies.join("\n") !== clean.replies.join("\n") || faulty.fp !== clean.fp;
        expect(differs).toBe(true);
        expect(faulty.fp).not.toBe(clean.fp);
      });
    }

    it("faults do not act on a conversation outside their situation", async () => {
      const turns = COVERAGE[0] ?? [];
      const clean = await run(turns);
      for (const fault of FAULTS) {
        const faulty = await run(turns, [fault]);
        expect(faulty.replies).toEqual(clean.replies);
        expect(faulty.fp).toBe(clean.fp);
      }
    });
  });

  it("coverage conversations reach at least 90% of the designed states", async () => {
    const seen = new Set<string>();
    const known = new Set<string>(STATES);
    for (const turns of COVERAGE) {
      const r = await run(turns);
      for (const s of r.states) {
        expect(known.has(s)).toBe(true);
        seen.add(s);
      }
    }
    expect(seen.size / STATES.length).toBeGreaterThanOrEqual(0.9);
  });

  it("is deterministic for a given seed", async () => {
    for (const seed of [1, 2, 3, 7]) {
      for (const turns of COVERAGE.slice(0, 8)) {
        const a = await run(turns, [], seed);
        const b = await run(turns, [], seed);
        expect(b.replies).toEqual(a.replies);
        expect(b.fp).toBe(a.fp);
        expect(b.states).toEqual(a.states);
      }
    }
  });

  it("words replies differently across seeds 1-3 (same states and effects)", async () => {
    for (const turns of COVERAGE) {
      const runs = await Promise.all([1, 2, 3].map((seed) => run(turns, [], seed)));
      const [r1, r2, r3] = runs;
      if (!r1 || !r2 || !r3) throw new Error("missing run");
      expect(new Set(runs.map((r) => r.replies.join("\n"))).size).toBe(3);
      expect(r2.states).toEqual(r1.states);
      expect(r3.states).toEqual(r1.states);
      expect(r2.fp).toBe(r1.fp);
      expect(r3.fp).toBe(r1.fp);
    }
    const greetings = await Promise.all([1, 2, 3].map((seed) => run(["hi"], [], seed)));
    expect(new Set(greetings.map((g) => g.replies[0])).size).toBe(3);
  });

  it("starts a fresh world on reset", async () => {
    const target = heldout21Agent.create();
    await target.reset();
    for (const turn of ["cancel FK-20436", ...TOM, "yes"]) await target.send(turn);
    expect(target.fingerprint()).toContain("write:cancel:FK-20436");
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).toBe("");
    for (const turn of ["where is FK-20436", ...TOM]) await target.send(turn);
    expect(target.statesVisited().at(-1)).toBe("track.placed");
  });

  it("never throws on odd input, in any state", async () => {
    const prefixes: string[][] = [
      [],
      ["track my order"],
      ["track my order", "tom.okafor@example.com"],
      ["something was missing", ...PRIYA, "FK-20417", "1"],
      ["cancel FK-20431", ...PRIYA],
      ["change my delivery address", ...PRIYA, "FK-20431"],
      ["change my tip", ...PRIYA, "FK-20417"],
      ["delete my account", ...HANNAH, "7764"],
    ];
    for (const prefix of prefixes) {
      const target = heldout21Agent.create({ seed: 2 });
      await target.reset();
      for (const turn of [...prefix, ...ODD_INPUTS]) {
        const reply = await target.send(turn);
        expect(typeof reply.text).toBe("string");
        expect(reply.text.length).toBeGreaterThan(0);
      }
      await target.close();
    }
    const odd = heldout21Agent.create({ seed: Number.NaN, faults: [...FAULTS] });
    await odd.reset();
    for (const turn of ODD_INPUTS) expect(typeof (await odd.send(turn)).text).toBe("string");
  });
});
