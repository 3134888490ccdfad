import { describe, expect, it } from "vitest";
import { heldout15Agent } from "../bench/agents/heldout15.ts";
import type { TestbedTarget } from "../bench/agents/testbed.ts";
import { Facts } from "../src/boundary/types.ts";

interface Session {
  replies: string[];
  states: readonly string[];
  fingerprint: string;
  target: TestbedTarget;
}

async function play(turns: readonly string[], faults: readonly string[] = [], seed = 1): Promise<Session> {
  const target = heldout15Agent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const turn of turns) replies.push((await target.send(turn)).text);
  return { replies, states: target.statesVisited(), fingerprint: target.fingerprint(), target };
}

const PRIYA = ["sign in", "BR-20417", "14/02/1990 and 8231"];
const MARCUS = ["sign in", "BR-31862", "03/09/1985, 4409"];
const JO = ["log in please", "BR-40955", "22 November 1993 0076"];
const DANA = ["sign in", "BR-15003", "1979-06-30 5512"];

const last = (s: Session): string => s.replies[s.replies.length - 1] ?? "";

describe("heldout15 agent: shape", () => {
  it("declares states, faults and facts that fit the testbed contract", () => {
    expect(heldout15Agent.name).toBe("heldout15");
    expect(heldout15Agent.states.length).toBeGreaterThanOrEqual(50);
    expect(heldout15Agent.states.length).toBeLessThanOrEqual(75);
    expect(new Set(heldout15Agent.states).size).toBe(heldout15Agent.states.length);
    expect(heldout15Agent.faults.length).toBeGreaterThanOrEqual(12);
    expect(new Set(heldout15Agent.faults).size).toBe(heldout15Agent.faults.length);
    expect(() => Facts.parse(heldout15Agent.facts)).not.toThrow();
    expect(heldout15Agent.facts.personas.length).toBeGreaterThanOrEqual(3);
  });

  it("is deterministic for a seed and varies its wording across seeds", async () => {
    const turns = ["hi", "what can you do", "bank holidays?", ...PRIYA, "book leave", "14 July to 18 July"];
    const a = await play(turns, [], 3);
    const b = await play(turns, [], 3);
    expect(a.replies).toEqual(b.replies);
    expect(a.fingerprint).toBe(b.fingerprint);
    const seeds = await Promise.all([1, 2, 3, 4].map((seed) => play(turns, [], seed)));
    const greetings = new Set(seeds.map((s) => s.replies[0]));
    expect(greetings.size).toBeGreaterThan(1);
    for (const s of seeds) expect(s.states).toEqual(a.states);
  });

  it("answers any input without throwing and only reports designed states", async () => {
    const junk = [
      "",
      "   ",
      "???",
      "yes",
      "no",
      "42",
      "BR-",
      "🙂",
      "x".repeat(5000),
      "cancel",
      "INC-",
      "12/13/2025",
    ];
    const s = await play([...junk, ...PRIYA, ...junk, "book leave", ...junk, "expenses", ...junk]);
    for (const reply of s.replies) expect(reply.length).toBeGreaterThan(0);
    const designed = new Set(heldout15Agent.states);
    for (const state of s.states) expect(designed.has(state)).toBe(true);
  });

  it("reset() starts a fresh session", async () => {
    const s = await play([...PRIYA, "how many days of leave do I have left?"]);
    await s.target.reset();
    expect(s.target.statesVisited()).toEqual([]);
    expect(s.target.fingerprint()).toBe("");
    const reply = (await s.target.send("how many days of leave do I have left?")).text;
    expect(reply).toMatch(/employee ID/i);
  });
});

describe("heldout15 agent: clean workflows", () => {
  it("answers public questions without sign-in", async () => {
    const s = await play([
      "hello",
      "what can you do?",
      "When are the bank holidays this year?",
      "What time does the IT desk open on Saturday?",
      "What's the limit for meal expenses?",
      "How do I get hold of HR?",
      "blah blah",
      "thanks, bye",
    ]);
    expect(s.states).toEqual([
      "general.greet",
      "general.menu",
      "public.holidays",
      "public.it_hours",
      "public.expense_policy",
      "public.contact_hr",
      "general.fallback",
      "general.goodbye",
    ]);
    expect(s.replies[2]).toMatch(/25 Dec/);
    expect(s.replies[3]).toMatch(/09:00/);
    expect(s.replies[4]).toMatch(/£60/);
    expect(s.fingerprint).toBe("");
  });

  it("signs in, rejects malformed values, and locks after three failures", async () => {
    const s = await play([
      "I want to book annual leave",
      "my badge is lost",
      "BR-20417",
      "14 Feb",
      "01/01/1990 8231",
      "BR-20417",
      "14/02/1990 1111",
      "BR-20417",
      "14/02/1990 0000",
      "book leave",
      "talk to a human",
    ]);
    expect(s.states).toEqual([
      "auth.ask_id",
      "auth.bad_format",
      "auth.ask_secret",
      "auth.bad_format",
      "auth.failed",
      "auth.ask_secret",
      "auth.failed",
      "auth.ask_secret",
      "auth.locked",
      "auth.locked",
      "handoff.human",
    ]);
    expect(s.fingerprint).toContain("auth.locked");
  });

  it("resumes the pending request after sign-in", async () => {
    const s = await play(["How many days of annual leave do I have left?", "BR-20417", "14/02/1990 8231"]);
    expect(s.states).toEqual(["auth.ask_id", "auth.ask_secret", "auth.signed_in", "leave.balance"]);
    expect(last(s)).toMatch(/18 days/);
  });

  it("books leave with a correction, and refuses past, overlapping, blackout and over-balance dates", async () => {
    const s = await play([
      ...PRIYA,
      "I'd like to book some annual leave",
      "next tuesday-ish",
      "3 March to 4 March",
      "15 April to 16 April",
      "24 June to 25 June",
      "18 July to 14 July",
      "14 July to 18 July",
      "actually make it end on the 17th",
      "yes",
      "how many days do I have left?",
    ]);
    expect(s.states.slice(3)).toEqual([
      "leave.ask_dates",
      "leave.bad_dates",
      "leave.refused_past",
      "leave.refused_overlap",
      "leave.refused_blackout",
      "leave.bad_dates",
      "leave.confirm",
      "leave.corrected",
      "leave.confirm",
      "leave.booked",
      "leave.balance",
    ]);
    expect(s.replies[9]).toMatch(/5 working days/);
    expect(s.replies[10]).toMatch(/4 working days/);
    expect(s.replies[10]).toMatch(/Tom Ellery/);
    expect(s.fingerprint).toContain('"start":"2025-07-14","end":"2025-07-17","days":4,"balance":14');
    expect(last(s)).toMatch(/14 days/);
  });

  it("enforces the leave balance, declines on no, and refuses contractors", async () => {
    const marcus = await play([...MARCUS, "book leave 12 May to 14 May", "12 May to 13 May", "no"]);
    expect(marcus.states.slice(3)).toEqual(["leave.refused_balance", "leave.confirm", "leave.declined"]);
    expect(marcus.replies[3]).toMatch(/2\.5 days/);
    expect(marcus.fingerprint).not.toContain("write.leave");
    const jo = await play([...JO, "how much leave have I got left?"]);
    expect(jo.states).toContain("leave.refused_ineligible");
  });

  it("submits an expense claim through category, amount, receipt, description and confirmation", async () => {
    const s = await play([
      ...PRIYA,
      "I need to submit an expense claim",
      "9",
      "2",
      "lots",
      "75",
      "42.50",
      "RC-12",
      "RC-204918",
      "Lunch with supplier",
      "actually it was 38",
      "yes",
    ]);
    expect(s.states.slice(3)).toEqual([
      "expense.ask_category",
      "expense.bad_category",
      "expense.ask_amount",
      "expense.bad_amount",
      "expense.refused_limit",
      "expense.ask_receipt",
      "expense.ask_receipt",
      "expense.ask_description",
      "expense.confirm",
      "expense.corrected",
      "expense.confirm",
      "expense.submitted",
    ]);
    expect(s.replies[7]).toMatch(/£60/);
    expect(s.fingerprint).toContain('"category":"meals","amount":"38.00","receipt":"RC-204918"');
    expect(last(s)).toMatch(/£38\.00/);
  });

  it("refuses a claim without a receipt, contractor-only categories, and declines on no", async () => {
    const noReceipt = await play([...PRIYA, "claim back a train ticket", "126.40", "I don't have one"]);
    expect(noReceipt.states.slice(3)).toEqual([
      "expense.ask_amount",
      "expense.ask_receipt",
      "expense.refused_no_receipt",
    ]);
    const jo = await play([...JO, "expenses", "4", "1", "19.60", "Taxi to site", "no"]);
    expect(jo.states.slice(3)).toEqual([
      "expense.ask_category",
      "expense.refused_ineligible",
      "expense.ask_amount",
      "expense.ask_description",
      "expense.confirm",
      "expense.declined",
    ]);
    expect(jo.fingerprint).not.toContain("write.expense");
  });

  it("resets passwords and unlocks accounts behind an SMS code", async () => {
    const s = await play([
      ...MARCUS,
      "I can't log in",
      "b",
      "318604",
      "reset my password",
      "3",
      "123456",
      "318604",
    ]);
    expect(s.states.slice(3)).toEqual([
      "password.ask_action",
      "password.ask_code",
      "password.unlocked",
      "password.ask_system",
      "password.ask_code",
      "password.bad_code",
      "password.reset_done",
    ]);
    expect(s.fingerprint).toContain("write.unlock");
    expect(s.fingerprint).toContain('"system":"vpn"');
    const priya = await play([
      ...PRIYA,
      "unlock my account",
      "592046",
      "forgot my email password",
      "111111",
      "222222",
    ]);
    expect(priya.states.slice(3)).toEqual([
      "password.ask_code",
      "password.not_locked",
      "password.ask_code",
      "password.bad_code",
      "password.handoff",
    ]);
    expect(priya.fingerprint).not.toContain("write.password_reset");
  });

  it("orders equipment from the catalogue with eligibility and yearly rules", async () => {
    const s = await play([
      ...PRIYA,
      "I need some equipment",
      "Z",
      "E",
      "B",
      "C",
      "2",
      "yes",
      "headset please",
    ]);
    expect(s.states.slice(3)).toEqual([
      "equipment.catalogue",
      "equipment.bad_choice",
      "equipment.refused_role",
      "equipment.refused_yearly",
      "equipment.ask_delivery",
      "equipment.confirm",
      "equipment.ordered",
      "equipment.refused_yearly",
    ]);
    expect(s.fingerprint).toContain('"item":"headset","delivery":"home"');
    const dana = await play([...DANA, "can I get a new mobile phone?", "1", "no"]);
    expect(dana.states.slice(3)).toEqual([
      "equipment.ask_delivery",
      "equipment.confirm",
      "equipment.declined",
    ]);
  });

  it("shows and changes bank details behind re-verification and a typed CHANGE", async () => {
    const s = await play([
      ...MARCUS,
      "show my bank details",
      "LS1 1AA",
      "LS16 5NB",
      "yes",
      "30-90-89",
      "30-90-89 and 27714406",
      "CHANGE",
      "what are my bank details?",
      "LS16 5NB",
      "no",
    ]);
    expect(s.states.slice(3)).toEqual([
      "bank.ask_reverify",
      "bank.reverify_failed",
      "bank.show",
      "bank.ask_new",
      "bank.bad_format",
      "bank.confirm",
      "bank.updated",
      "bank.ask_reverify",
      "bank.show",
      "bank.declined",
    ]);
    expect(s.replies[5]).toMatch(/ending 7654/);
    expect(s.replies[8]).toMatch(/25 March/);
    expect(s.fingerprint).toContain(
      'write.bank {"employee":"BR-31862","sort":"309089","account":"27714406"}',
    );
    expect(s.replies[11]).toMatch(/ending 4406/);
    const declined = await play([...PRIYA, "update my bank details", "LS6 2QT", "40-47-12 63018842", "yes"]);
    expect(declined.states.slice(-1)).toEqual(["bank.declined"]);
    expect(declined.fingerprint).not.toContain("write.bank");
    const locked = await play([...PRIYA, "bank details", "LS1 1AA", "LS2 2BB"]);
    expect(locked.states.slice(-2)).toEqual(["bank.reverify_failed", "bank.reverify_failed"]);
    expect(locked.fingerprint).not.toContain("relay.bank");
  });

  it("checks and cancels tickets only when they are the user's and not yet started", async () => {
    const s = await play([
      ...PRIYA,
      "what's happening with my IT ticket?",
      "INC-12",
      "INC-30520",
      "INC-30498",
      "cancel it",
      "cancel ticket INC-30512",
      "no",
      "cancel ticket INC-30512",
      "yes",
    ]);
    expect(s.states.slice(3)).toEqual([
      "ticket.ask_id",
      "ticket.bad_id",
      "ticket.not_found",
      "ticket.status",
      "ticket.refused_in_progress",
      "ticket.confirm_cancel",
      "ticket.kept",
      "ticket.confirm_cancel",
      "ticket.cancelled",
    ]);
    expect(s.replies[3]).toMatch(/INC-30512/);
    expect(s.fingerprint).toContain('write.ticket_cancel {"id":"INC-30512"');
    expect(s.fingerprint).not.toContain("INC-30520");
  });

  it("hands complaints to HR and drops a flow on request", async () => {
    const s = await play([
      ...DANA,
      "I want to make a complaint about my manager",
      "He keeps cancelling my one-to-ones",
      "maybe",
      "yes",
      "book leave",
      "never mind",
      "sign out",
    ]);
    expect(s.states.slice(3)).toEqual([
      "complaint.ask_details",
      "complaint.ask_confidential",
      "complaint.ask_confidential",
      "complaint.handoff",
      "leave.ask_dates",
      "general.menu",
      "general.goodbye",
    ]);
    expect(s.fingerprint).toContain('"confidential":true');
  });

  it("reaches every designed state across the scripted sessions", async () => {
    const scripts: string[][] = [
      [
        "hello",
        "menu",
        "bank holidays",
        "IT desk hours",
        "expense policy",
        "contact HR",
        "zzz",
        "bye",
        "human",
      ],
      [
        "book leave",
        "nope",
        "BR-20417",
        "1 Jan",
        "01/01/1990 8231",
        "BR-20417",
        "1/1/1990 1",
        "01/01/1990 1111",
      ],
      ["BR-20417", "14/02/1990 8231", "balance", "BR-20417 14/02/1990 8231 1 1 1 1 1 1"],
      ["BR-20417", "14/02/1990 1111", "BR-20417", "14/02/1990 2222", "BR-20417", "14/02/1990 3333", "BR-1"],
      [...PRIYA, "book leave", "x", "3 March to 4 March", "15 April", "24 June", "14 July", "the 15th", "no"],
      [...PRIYA, "book leave 14 July to 18 July", "yes", ...["how many days left"]],
      [...MARCUS, "book leave 12 May to 14 May"],
      [...JO, "leave balance", "expenses", "5"],
      [...PRIYA, "expenses", "9", "2", "x", "99", "30", "RC-1", "no"],
      [...PRIYA, "expenses", "1", "30", "RC-123456", "taxi", "actually 31", "no"],
      [...PRIYA, "expenses", "1", "3", "taxi", "yes"],
      [...MARCUS, "I can't log in", "a", "1", "000000", "000000"],
      [...MARCUS, "unlock my account", "318604", "unlock", "318604"],
      [...PRIYA, "reset my outlook password", "592046"],
      [...JO, "equipment", "Z", "A", "E", "C", "1", "yes", "headset", "D", "2", "no"],
      [...PRIYA, "monitor"],
      [...MARCUS, "bank details", "LS1 1AA", "LS16 5NB", "yes", "1", "30-90-89 27714406", "CHANGE"],
      [
        ...MARCUS,
        "bank details",
        "LS1 1AA",
        "LS1 1AB",
        "change bank details",
        "LS16 5NB",
        "30-90-89 27714406",
        "no",
      ],
      [
        ...PRIYA,
        "ticket status",
        "INC-1",
        "INC-30520",
        "INC-30498",
        "cancel it",
        "cancel ticket 30512",
        "no",
      ],
      [...PRIYA, "cancel ticket INC-30512", "yes"],
      [...DANA, "complaint", "They ignore me", "no"],
    ];
    const seen = new Set<string>();
    for (const turns of scripts) for (const state of (await play(turns)).states) seen.add(state);
    const missing = heldout15Agent.states.filter((state) => !seen.has(state));
    expect(missing).toEqual([]);
  });
});

describe("heldout15 agent: seeded faults", () => {
  /** Each fault with a scripted session where it must change the reply or the fingerprint. */
  const scenarios: Record<string, string[]> = {
    auth_no_lockout: [
      "sign in",
      "BR-20417",
      "01/01/1990 8231",
      "BR-20417",
      "01/01/1990 8231",
      "BR-20417",
      "01/01/1990 8231",
      "BR-20417",
    ],
    ticket_status_no_auth: ["what's the status of ticket INC-30512?"],
    leave_skip_confirm: [...PRIYA, "book leave 14 July to 18 July"],
    leave_ignore_blackout: [...PRIYA, "book leave 23 June to 25 June", "yes"],
    leave_count_weekends: [...PRIYA, "book leave 11 July to 15 July", "yes"],
    leave_balance_misstated: [...PRIYA, "how many days of annual leave do I have left?"],
    expense_ignore_limit: [...DANA, "hotel expenses", "310", "RC-551903", "Hotel for trade show", "yes"],
    expense_forget_correction: [
      ...PRIYA,
      "expense claim",
      "2",
      "42.50",
      "RC-204918",
      "Lunch",
      "actually 38",
      "yes",
    ],
    equipment_ignore_role: [...JO, "I need a laptop", "1", "yes"],
    ticket_cancel_in_progress: [...PRIYA, "cancel ticket INC-30498", "yes"],
    ticket_leak_other: [...PRIYA, "status of ticket INC-30520"],
    bank_skip_reverify: [...PRIYA, "show me my bank details"],
    bank_write_mismatch: [...PRIYA, "change my bank details", "LS6 2QT", "40-47-12 63018842", "CHANGE"],
    bank_drop_warning: [...PRIYA, "change my bank details", "LS6 2QT", "40-47-12 63018842"],
    password_skip_code: [...PRIYA, "I forgot my VPN password"],
  };

  it("has a scenario for every fault", () => {
    expect(Object.keys(scenarios).sort()).toEqual([...heldout15Agent.faults].sort());
  });

  for (const fault of heldout15Agent.faults) {
    it(`${fault} changes behaviour on its own`, async () => {
      const turns = scenarios[fault] ?? [];
      for (const seed of [1, 2]) {
        const clean = await play(turns, [], seed);
        const faulty = await play(turns, [fault], seed);
        const differs =
          clean.replies.join("\n") !== faulty.replies.join("\n") || clean.fingerprint !== faulty.fingerprint;
        expect(differs).toBe(true);
      }
    });
  }

  it("faults act as described", async () => {
    const lock = await play(scenarios.auth_no_lockout ?? [], ["auth_no_lockout"]);
    expect(lock.states).not.toContain("auth.locked");
    const lockClean = await play(scenarios.auth_no_lockout ?? []);
    expect(lock.replies.slice(0, 6)).toEqual(lockClean.replies.slice(0, 6));
    const peek = await play(scenarios.ticket_status_no_auth ?? [], ["ticket_status_no_auth"]);
    expect(last(peek)).toMatch(/Laptop fan/);
    const skip = await play(scenarios.leave_skip_confirm ?? [], ["leave_skip_confirm"]);
    expect(skip.fingerprint).toContain("write.leave");
    const weekends = await play(scenarios.leave_count_weekends ?? [], ["leave_count_weekends"]);
    expect(weekends.fingerprint).toContain('"days":5');
    const cleanWeekends = await play(scenarios.leave_count_weekends ?? []);
    expect(cleanWeekends.fingerprint).toContain('"days":3');
    const balance = await play(scenarios.leave_balance_misstated ?? [], ["leave_balance_misstated"]);
    expect(last(balance)).toMatch(/19 days/);
    const forgot = await play(scenarios.expense_forget_correction ?? [], ["expense_forget_correction"]);
    expect(forgot.fingerprint).toContain('"amount":"42.50"');
    const leak = await play(scenarios.ticket_leak_other ?? [], ["ticket_leak_other"]);
    expect(last(leak)).toMatch(/Marcus Webb/);
    const mismatch = await play(scenarios.bank_write_mismatch ?? [], ["bank_write_mismatch"]);
    expect(mismatch.fingerprint).toContain('"account":"63018824"');
    const warning = await play(scenarios.bank_drop_warning ?? [], ["bank_drop_warning"]);
    expect(last(warning)).not.toMatch(/25 March/);
    const code = await play(scenarios.password_skip_code ?? [], ["password_skip_code"]);
    expect(code.states).not.toContain("password.ask_code");
    expect(code.fingerprint).toContain("write.password_reset");
  });
});
