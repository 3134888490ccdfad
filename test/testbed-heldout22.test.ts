import { describe, expect, it } from "vitest";
import { FAULTS, heldout22Agent, STATES } from "../bench/agents/heldout22.ts";
import { datesFor, FACTS, slotsFor } from "../bench/agents/heldout22-data.ts";
import { Facts } from "../src/boundary/types.ts";

interface Run {
  replies: string[];
  states: readonly string[];
  fp: string;
}

async function run(
  turns: readonly string[],
  options: { faults?: string[]; seed?: number } = {},
): Promise<Run> {
  const target = heldout22Agent.create(options);
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  const result = { replies, states: target.statesVisited(), fp: target.fingerprint() };
  await target.close();
  return result;
}

const SIGN_IN = {
  eleanor: ["sign in", "NP-482913", "14/03/1986", "LS6 2QT", "Hollins Park"],
  marcus: ["I'd like to sign in please", "NP-517460", "02/11/1979", "M14 5RL", "Bristol"],
  amira: ["log in", "NP-630058 09/06/1992 BS3 4HJ", "Biscuit"],
} as const;

const LEEDS_MONDAY = datesFor("leeds")[1] ?? "";
const LEEDS_SLOTS = slotsFor("leeds", LEEDS_MONDAY);
const FULL_TIME = LEEDS_SLOTS.find((s) => s.full)?.time ?? "";
const FREE_TIMES = LEEDS_SLOTS.filter((s) => !s.full).map((s) => s.time);
const FREE_A = FREE_TIMES[0] ?? "";
const FREE_B = FREE_TIMES[2] ?? "";

/** Book Oliver's child passport appointment at Leeds on the second offered date. */
const BOOK_START = [...SIGN_IN.eleanor, "I need to book an appointment", "1", "Leeds", "B"];

interface FaultCase {
  turns: string[];
  /** The clean agent's correct behaviour on these turns. */
  clean: (r: Run) => void;
}

const CASES: Record<(typeof FAULTS)[number], FaultCase> = {
  status_no_auth: {
    turns: ["What is the status of application PA-2025-018734?"],
    clean: (r) => {
      expect(r.states).toContain("auth.required");
      expect(r.fp).not.toContain("R:status");
    },
  },
  no_lockout: {
    turns: [
      "sign in",
      "NP-482913",
      "14/03/1986",
      "LS6 2QT",
      "Oakfield",
      "Primrose",
      "St Mary's",
      "Hollins Park",
      "list all my applications",
    ],
    clean: (r) => {
      expect(r.states).toContain("auth.locked");
      expect(r.states).not.toContain("auth.success");
      expect(r.fp).toBe("");
    },
  },
  status_other_customer: {
    turns: [...SIGN_IN.eleanor, "What's the status of PC-2024-093311?"],
    clean: (r) => {
      expect(r.states).toContain("lookup.not_yours");
      expect(r.fp).not.toContain("PC-2024-093311");
    },
  },
  cancel_other_customer: {
    turns: [...SIGN_IN.eleanor, "Please cancel appointment APT-40577", "CANCEL APPOINTMENT"],
    clean: (r) => {
      expect(r.states).toContain("lookup.not_yours");
      expect(r.fp).not.toContain("W:cancel");
    },
  },
  reschedule_limit_ignored: {
    turns: [...SIGN_IN.marcus, "I need to reschedule APT-40577", "A", "1", "yes"],
    clean: (r) => {
      expect(r.states).toContain("reschedule.refused_limit");
      expect(r.fp).not.toContain("W:reschedule");
    },
  },
  fasttrack_window_ignored: {
    turns: [...SIGN_IN.marcus, "Can I fast track PA-2025-019980?", "30/05/2025", "yes", "Bristol"],
    clean: (r) => {
      expect(r.states).toContain("fasttrack.refused_window");
      expect(r.fp).not.toContain("fasttrack");
    },
  },
  cancel_skip_phrase: {
    turns: [...SIGN_IN.eleanor, "cancel my appointment APT-31822", "no, keep it"],
    clean: (r) => {
      expect(r.states).toContain("cancel.confirm_phrase");
      expect(r.states).toContain("cancel.kept");
      expect(r.fp).not.toContain("W:cancel");
    },
  },
  payment_skip_reverify: {
    turns: [...SIGN_IN.eleanor, "I'd like to pay an outstanding fee", "A", "yes", "yes"],
    clean: (r) => {
      expect(r.states).toContain("verify.ask_security");
      expect(r.states).toContain("verify.failed");
      expect(r.fp).not.toContain("W:pay");
    },
  },
  payment_cap_ignored: {
    turns: [...SIGN_IN.marcus, "pay fee FEE-6030", "Bristol", "yes"],
    clean: (r) => {
      expect(r.states).toContain("pay.refused_cap");
      expect(r.fp).not.toContain("W:pay");
    },
  },
  address_after_print: {
    turns: [
      ...SIGN_IN.marcus,
      "change the address on PC-2024-093311",
      "5 Wilmslow Road, Manchester M14 6XQ",
      "yes",
    ],
    clean: (r) => {
      expect(r.states).toContain("address.refused_printed");
      expect(r.fp).not.toContain("W:address");
    },
  },
  lost_skip_declaration: {
    turns: [...SIGN_IN.eleanor, "I've lost my passport", "533918274", "08/03/2025", "no"],
    clean: (r) => {
      expect(r.states).toContain("lost.declaration");
      expect(r.states).toContain("lost.withdrawn");
      expect(r.fp).not.toContain("W:lost");
    },
  },
  book_full_slot_accepted: {
    turns: [...BOOK_START, FULL_TIME, "yes"],
    clean: (r) => {
      expect(r.states).toContain("book.slot_full");
      expect(r.fp).not.toContain("W:book");
    },
  },
  status_wrong_date: {
    turns: [...SIGN_IN.eleanor, "status of PA-2025-018734"],
    clean: (r) => {
      expect(r.fp).toContain("R:status|PA-2025-018734|in_processing|2025-03-26|");
      expect(r.replies.at(-1)).toContain("26 March 2025");
    },
  },
  status_wrong_name: {
    turns: [...SIGN_IN.eleanor, "where is my application PC-2025-020155"],
    clean: (r) => {
      expect(r.replies.at(-1)).toContain("Oliver Whitcombe");
      expect(r.fp).toContain("|Oliver Whitcombe|");
    },
  },
  book_forget_correction: {
    turns: [...BOOK_START, FREE_A, `no, make it ${FREE_B}`, "yes", "show my appointments"],
    clean: (r) => {
      expect(r.states).toContain("book.corrected");
      expect(r.fp).toContain(`W:book|APT-60001|PC-2025-020155|leeds|${LEEDS_MONDAY}|${FREE_B}`);
    },
  },
  reschedule_wrong_day: {
    turns: [...SIGN_IN.eleanor, "I want to reschedule APT-31822", "A", "1", "yes", "when is my appointment?"],
    clean: (r) => {
      const date = datesFor("leeds", "2025-03-18")[0] ?? "";
      expect(r.states).toContain("reschedule.done");
      expect(r.fp).toContain(`W:reschedule|APT-31822|${date}|`);
      expect(r.fp).toContain(`APT-31822@leeds/${date}/`);
    },
  },
  fasttrack_child_fee: {
    turns: [...SIGN_IN.eleanor, "please fast-track PC-2025-020155", "28/03/2025", "yes", "Hollins Park"],
    clean: (r) => {
      expect(r.fp).toContain("R:ftquote|PC-2025-020155|6500|");
      expect(r.fp).toContain("W:fasttrack|PC-2025-020155|6500|");
      expect(r.replies.join("\n")).toContain("£65.00");
    },
  },
  pay_wrong_amount: {
    turns: [...SIGN_IN.eleanor, "I'd like to pay what I owe", "A", "Hollins Park", "yes"],
    clean: (r) => {
      expect(r.fp).toContain("W:pay|FEE-5521|5350|");
      expect(r.replies.at(-1)).toContain("£53.50");
    },
  },
  address_saved_wrong: {
    turns: [
      ...SIGN_IN.eleanor,
      "I've moved house and need to update my address",
      "PA-2025-018734",
      "22 Kirkstall Lane, Leeds",
      "LS5 3BE",
      "yes",
      "status of PA-2025-018734",
    ],
    clean: (r) => {
      expect(r.fp).toContain("W:address|PA-2025-018734|22 Kirkstall Lane, Leeds|LS5 3BE");
      expect(r.replies.at(-1)).toContain("LS5 3BE");
    },
  },
  lost_wrong_kind: {
    turns: [
      ...SIGN_IN.amira,
      "My passport has been stolen",
      "118402276",
      "BS-2025-04417",
      "09/03/2025",
      "I DECLARE",
    ],
    clean: (r) => {
      expect(r.fp).toContain("W:lost|118402276|stolen|2025-03-09|BS-2025-04417|");
      expect(r.replies.at(-1)).toContain("stolen");
    },
  },
};

/** Conversations that together walk the designed states. */
const COVERAGE: string[][] = [
  ["hello", "help", "asdf qwerty", "zxcv", "stop", "thank you", "goodbye"],
  ["speak to a human", "yes", "can I talk to an adviser", "no"],
  [
    "what are the fees",
    "how long does processing take",
    "what are the photo rules",
    "what are your opening hours",
  ],
  ["information", "how much is fast track", "what happens if I lose my passport"],
  ["what documents do I need", "c", "documents for a child passport", "documents for a first adult passport"],
  ["what documents are needed for an identity card"],
  ["sign in", "ABC", "NP-482913", "not sure", "14/03/1986", "LS1 1AA", "NP-482913", "14/03/1986", "LS6 2QT"],
  ["sign in", "NP-482913", "14/03/1986", "LS6 2QT", "wrong", "wrong", "wrong", "check my status"],
  [
    "check my application status",
    "NP-482913",
    "14/03/1986",
    "LS6 2QT",
    "Hollins Park",
    "PA-2025-999999",
    "PA-2025-018734",
    "sign in",
    "list all my applications",
    "my appointments",
    "book an appointment for ID-2025-004410",
    "book an appointment",
    "1",
    "Leeds",
    "B",
    FULL_TIME,
    FREE_A,
    "no",
    "the time",
    FREE_B,
    "yes",
    "sign out",
  ],
  [
    ...SIGN_IN.eleanor,
    "reschedule my appointment",
    "APT-29904",
    "reschedule",
    "1",
    "A",
    "1",
    "no",
    "cancel APT-29904",
    "cancel my appointment",
    "1",
    "please go ahead",
    "keep it",
    "cancel APT-31822",
    "CANCEL APPOINTMENT",
  ],
  [
    ...SIGN_IN.marcus,
    "book an appointment",
    "reschedule APT-40612",
    "reschedule APT-40577",
    "cancel APT-31822",
  ],
  [
    ...SIGN_IN.eleanor,
    "I need to fast track my application",
    "3",
    "fast track PC-2025-020155",
    "01/01/2025",
    "28/03/2025",
    "no",
    "fast track PA-2025-018734",
    "28/03/2025",
    "yes",
    "Hollins Park",
  ],
  [
    ...SIGN_IN.marcus,
    "fast track PC-2024-093311",
    "fast track PA-2025-019980",
    "30/05/2025",
    "I lost my passport",
    "209114563",
    "pay",
    "Z",
    "A",
    "pay FEE-6044",
    "Paris",
  ],
  [
    ...SIGN_IN.amira,
    "I need to report my passport",
    "123456789",
    "118402276",
    "stolen",
    "none",
    "20/12/2025",
    "09/03/2025",
    "yes",
    "I DECLARE",
  ],
  [
    ...SIGN_IN.eleanor,
    "pay",
    "A",
    "Hollins Park",
    "no",
    "pay",
    "A",
    "Hollins Park",
    "yes",
    "pay",
    "change my address",
    "1",
    "22 Kirkstall Lane, Leeds",
    "123",
    "LS5 3BE",
    "no, the postcode is LS5 3BD",
    "yes",
    "change my address",
    "PA-2025-018734",
    "22 Kirkstall Lane, Leeds LS5 3BE",
    "no",
  ],
  [...SIGN_IN.marcus, "change address on PC-2024-093311", "I lost my passport", "never mind"],
  [
    ...SIGN_IN.amira,
    "cancel APT-52240",
    "CANCEL APPOINTMENT",
    "my appointments",
    "I want to report a lost passport",
  ],
  ["I want to report a lost passport", "NP-630058", "09/06/1992", "BS3 4HJ", "Biscuit", "118402276", "2"],
];

describe("heldout22 testbed agent", () => {
  it("declares its faults, states and facts", () => {
    expect(heldout22Agent.name).toBe("heldout22");
    expect(heldout22Agent.faults).toEqual(FAULTS);
    expect(heldout22Agent.states).toEqual(STATES);
    expect(FAULTS.length).toBeGreaterThanOrEqual(15);
    expect(FAULTS.length).toBeLessThanOrEqual(20);
    expect(STATES.length).toBeGreaterThanOrEqual(90);
    expect(STATES.length).toBeLessThanOrEqual(110);
    expect(new Set(STATES).size).toBe(STATES.length);
    expect(Object.keys(CASES).sort()).toEqual([...FAULTS].sort());
  });

  it("FACTS parses as Facts", () => {
    const parsed = Facts.parse(FACTS);
    expect(parsed.personas).toHaveLength(3);
    expect(parsed.requests.length).toBeGreaterThanOrEqual(4);
    expect(parsed.requests.length).toBeLessThanOrEqual(8);
    expect(heldout22Agent.facts).toBe(FACTS);
  });

  describe.each(FAULTS.map((f) => [f]))("fault %s", (fault) => {
    it("is killed by its scripted conversation, and the clean agent behaves", async () => {
      const c = CASES[fault];
      const clean = await run(c.turns);
      const faulty = await run(c.turns, { faults: [fault] });
      c.clean(clean);
      const differs = clean.fp !== faulty.fp || clean.replies.join("\n") !== faulty.replies.join("\n");
      expect(differs).toBe(true);
    });
  });

  it("faults stay silent outside their own situation (public and neutral conversations)", async () => {
    const neutral = [
      ...SIGN_IN.eleanor,
      "hello",
      "what are the fees",
      "list all my applications",
      "my appointments",
      "status of ID-2025-004410",
    ];
    const clean = await run(neutral);
    for (const fault of FAULTS) {
      const faulty = await run(neutral, { faults: [fault] });
      expect({ fault, replies: faulty.replies, fp: faulty.fp }).toEqual({
        fault,
        replies: clean.replies,
        fp: clean.fp,
      });
    }
  });

  it("coverage conversations reach at least 90% of the designed states", async () => {
    const seen = new Set<string>();
    for (const turns of COVERAGE) {
      const r = await run(turns);
      for (const s of r.states) seen.add(s);
    }
    for (const c of Object.values(CASES)) for (const s of (await run(c.turns)).states) seen.add(s);
    for (const s of seen) expect(STATES).toContain(s);
    const missing = STATES.filter((s) => !seen.has(s));
    expect(missing).toEqual([]);
    expect(seen.size / STATES.length).toBeGreaterThanOrEqual(0.9);
  });

  it("is deterministic per seed", async () => {
    const turns = COVERAGE[8] ?? [];
    for (const seed of [1, 2, 3]) {
      const a = await run(turns, { seed });
      const b = await run(turns, { seed });
      expect(a).toEqual(b);
    }
  });

  it("words the same conversation differently across seeds 1-3", async () => {
    const turns = [
      "hello",
      "help",
      "what are the fees",
      ...SIGN_IN.eleanor,
      "status of PA-2025-018734",
      "qwerty",
    ];
    const runs = await Promise.all([1, 2, 3].map((seed) => run(turns, { seed })));
    for (let i = 0; i < turns.length; i++) {
      const texts = new Set(runs.map((r) => r.replies[i]));
      expect(texts.size).toBe(3);
    }
    expect(runs[0]?.fp).toBe(runs[1]?.fp);
    expect(runs[1]?.fp).toBe(runs[2]?.fp);
  });

  it("starts afresh on reset()", async () => {
    const target = heldout22Agent.create();
    await target.reset();
    for (const t of [...SIGN_IN.eleanor, "pay", "A", "Hollins Park", "yes"]) await target.send(t);
    expect(target.fingerprint()).toContain("W:pay");
    await target.reset();
    expect(target.fingerprint()).toBe("");
    expect(target.statesVisited()).toEqual([]);
    const reply = await target.send("list all my applications");
    expect(target.statesVisited()).toEqual(["auth.required"]);
    expect(reply.text.length).toBeGreaterThan(0);
    await target.close();
    await target.close();
  });

  it("never throws on odd input, in or out of a flow", async () => {
    const odd = [
      "",
      "   ",
      "\u0000\u0001",
      "🛂🛂🛂",
      "パスポートをなくしました",
      "x".repeat(50_000),
      "yes ".repeat(5_000),
      "'; DROP TABLE applications; --",
      '{"json": true}',
      "12/34/5678",
      "99:99",
      "NP-",
      "APT-",
      "0",
      "-1",
      "Ω≈ç√∫",
    ];
    const prefixes = [
      [],
      SIGN_IN.eleanor,
      [...BOOK_START],
      [...SIGN_IN.amira, "my passport was stolen", "118402276"],
    ];
    for (const prefix of prefixes) {
      const target = heldout22Agent.create({ seed: 2 });
      await target.reset();
      for (const t of prefix) await target.send(t);
      for (const t of odd) {
        const reply = await target.send(t);
        expect(typeof reply.text).toBe("string");
        expect(reply.text.length).toBeGreaterThan(0);
      }
      for (const s of target.statesVisited()) expect(STATES).toContain(s);
    }
  });
});
