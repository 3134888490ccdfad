import { describe, expect, it } from "vitest";
import { PARCEL_FAULTS, parcelAgent } from "../bench/agents/parcel.ts";
import { PARCEL_FACTS, PARCEL_STATES, RESPONSES } from "../bench/agents/parcel-data.ts";
import { seededRandom } from "../src/score/calibrate/prng.ts";

/** Send `turns` to a fresh session of the parcel-carrier agent; replies, states and fingerprint. */
async function talk(turns: readonly string[], faults: readonly string[] = [], seed = 1) {
  const target = parcelAgent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

type Print = { writes: Record<string, unknown>[]; shown: { what: string; value: unknown }[] };
const writes = (fp: string) => (JSON.parse(fp) as Print).writes;
const shown = (fp: string, what: string) =>
  (JSON.parse(fp) as Print).shown.filter((s) => s.what === what).map((s) => s.value);

const LENA = ["SW20481137", "3511 KT", "482913"];
const MARCO = ["SW31550862", "1017 CT", "305174"];
const SOFIA = ["SW47002318", "2513 AA", "771206"];
const TOM = ["SW58839904", "5611 AZ", "619058"];
const ANNA = ["SW69127745", "9711 LM", "240687"];

/** Scripted conversations: every flow, its refusals, corrections, the lock-outs and the hand-off. */
const SCRIPTS: Record<string, readonly string[]> = {
  reschedule: [
    "hi",
    "I need to change my delivery date",
    "SW20481137",
    "3511 KT",
    "111111",
    "482913",
    "21 December",
    "25 December",
    "3 January",
    "19 December",
    "actually the 23rd",
    "yes",
    "no thanks",
    "hello?",
  ],
  sunday: ["I need to change my delivery date", ...LENA, "21 December", "yes"],
  holiday: ["can you reschedule my delivery?", ...LENA, "25 December", "yes"],
  window: ["I'd like a different delivery day", ...LENA, "3 January", "yes"],
  trackPublic: ["where is my parcel?", "SW1234", "SW99999999", "SW20481137", "thanks"],
  trackDetail: ["please leave SW20481137 on the porch", "3511 KT", "482913", "no", "where is my parcel?"],
  postcodeRefused: [
    "where is my parcel?",
    "SW47002318",
    "I need to change my delivery date",
    "1234 AB",
    "2513 AB",
    "reschedule please",
    "no",
    "talk to a human",
    "hello?",
  ],
  lock: [
    "please leave my parcel with the neighbour",
    "SW1234",
    "SW99999999",
    "SW69127790",
    "9711 LM",
    "12345",
    "000000",
    "111111",
    "222222",
    "yes",
    "240687",
  ],
  redirect: [
    "can you send my parcel to a different address?",
    ...ANNA,
    "8861 KP",
    "9712 CP",
    "parcel locker",
    "Vismarkt 9",
    "actually 9712 AB",
    "yes",
  ],
  annaLocker: ["send SW69127745 to a parcel locker", "9711 LM", "240687", "9712 CP", "yes"],
  redirectVolunteered: ["redirect SW20481137 to Biltstraat 41, 3581 CS", "3511 KT", "482913", "confirm"],
  outArea: ["send it to another address", ...LENA, "8861 KP", "Harlingerweg 3", "yes"],
  marco: [
    "I'd like my parcel redirected to 1071 XX please",
    ...MARCO,
    "then I want to reschedule",
    "garage",
    "yes",
  ],
  duty: [
    "I have to pay import duty on a parcel",
    ...TOM,
    "€50",
    "€3",
    "€20",
    "4",
    "card ending 4821",
    "actually pay in full",
    "yes",
    "where is my parcel now?",
  ],
  dutyLow: ["I need to pay customs on SW58839904", "5611 AZ", "619058", "€3", "4821", "yes"],
  dutyPart: ["pay the import duty for SW58839904, €20 with card ending 4821", "5611 AZ", "619058", "yes"],
  claim: [
    "my parcel arrived damaged, I want to make a claim",
    ...SOFIA,
    "the box was crushed and the lamp inside is broken",
    "€150",
    "€80",
    "yes",
    "leave it in the shed next time",
  ],
  claimOver: [
    "I want compensation for SW47002318",
    "2513 AA",
    "771206",
    "the lamp is smashed",
    "€150",
    "yes",
  ],
  safePlace: ["can I set a safe place for my parcel?", ...LENA, "the mailbox", "garage", "yes"],
  loss: [
    "I want to claim for SW20481137",
    "3511 KT",
    "482913",
    "what about SW20481195? it never arrived, claim for that",
    "€95",
    "€60",
    "confirm",
    "claim for SW47002318",
    "pay customs",
    "no",
  ],
  annaSafe: ["can you leave SW69127745 on the porch?", "9711 LM", "240687", "yes"],
  annaValue: ["leave SW69127790 in the back garden", "9711 LM", "240687", "yes"],
  neighbour: [
    "please leave my parcel with the neighbour",
    ...LENA,
    "14",
    "no",
    "leave it at the porch",
    "hmm",
    "no",
  ],
  handoff: ["hello", "blah blah", "what can you do?", "can I talk to a real person?", "hello?"],
};

/** For each seeded fault, a conversation in which it acts. */
const WHERE: Record<(typeof PARCEL_FAULTS)[number], string> = {
  skipCode: "reschedule",
  anyCode: "reschedule",
  noLockout: "lock",
  skipRedirectConfirm: "redirect",
  acceptSunday: "sunday",
  ignoreWindow: "window",
  ignoreHoliday: "holiday",
  ignoreServiceArea: "outArea",
  lockerSignature: "annaLocker",
  acceptLowPart: "dutyLow",
  safePlaceSignature: "annaSafe",
  claimOverValue: "claimOver",
  forgetCorrection: "reschedule",
  wrongReceipt: "duty",
  wrongSummaryDate: "reschedule",
  trackingLeak: "trackPublic",
};

describe("the parcel-carrier testbed agent (bench/agents/parcel.ts)", () => {
  it("declares its faults, states and facts", () => {
    expect(parcelAgent.name).toBe("parcel");
    expect(parcelAgent.faults.length).toBeGreaterThanOrEqual(14);
    expect(parcelAgent.states.length).toBeGreaterThanOrEqual(45);
    expect(new Set(PARCEL_STATES).size).toBe(PARCEL_STATES.length);
    expect(PARCEL_FACTS.personas.length).toBeGreaterThanOrEqual(4);
    expect(PARCEL_FACTS.requests.length).toBeGreaterThanOrEqual(5);
    for (const variants of Object.values(RESPONSES)) {
      expect(variants.length).toBeGreaterThanOrEqual(2);
      expect(variants.length).toBeLessThanOrEqual(4);
    }
    expect(() => parcelAgent.create({ faults: ["nope"] })).toThrow(/unknown fault/);
    expect(() => parcelAgent.create({ faults: ["skipCode"] })).not.toThrow();
  });

  it("the scripted flows reach every designed state, and only designed states", async () => {
    const seen = new Set<string>();
    for (const turns of Object.values(SCRIPTS)) for (const s of (await talk(turns)).states) seen.add(s);
    for (const s of seen) expect(parcelAgent.states).toContain(s);
    expect(parcelAgent.states.filter((s) => !seen.has(s))).toEqual([]);
  });

  it("tracks without sign-in but shows only a coarse status", async () => {
    const pub = await talk(SCRIPTS.trackPublic as string[]);
    expect(pub.states).toEqual([
      "track.ask_number",
      "track.ask_number",
      "track.not_found",
      "track.status",
      "goodbye",
    ]);
    expect(pub.replies[3]).toMatch(/in transit/);
    expect(pub.replies[3]).not.toMatch(/Oudegracht|3511/);
    const detail = await talk(SCRIPTS.trackDetail as string[]);
    expect(detail.states.at(-1)).toBe("track.detail");
    expect(detail.replies.at(-1)).toMatch(/Oudegracht 112, 3511 KT Utrecht/);
    expect((await talk(SCRIPTS.trackPublic as string[], ["trackingLeak"])).replies[3]).toMatch(
      /Keizersgracht/,
    );
  });

  it("signs in by tracking number, postcode and texted code, and locks out", async () => {
    const clean = await talk(SCRIPTS.reschedule as string[]);
    expect(clean.states.slice(0, 6)).toEqual([
      "greet",
      "auth.ask_tracking",
      "auth.ask_postcode",
      "auth.ask_code",
      "auth.code_wrong",
      "reschedule.ask_date",
    ]);
    expect(clean.replies[3]).toMatch(/mobile (number )?ending 47/);
    expect(clean.states.slice(-2)).toEqual(["goodbye", "goodbye"]);
    const lock = await talk(SCRIPTS.lock as string[]);
    expect(lock.states).toContain("auth.unknown_tracking");
    expect(lock.states.filter((s) => s === "auth.code_wrong")).toHaveLength(2);
    expect(lock.states.slice(-3)).toEqual(["auth.locked", "handoff", "handoff"]);
    expect(shown(lock.fingerprint, "signin")).toEqual([]);
    const pc = await talk(SCRIPTS.postcodeRefused as string[]);
    expect(pc.states.slice(2)).toEqual([
      "auth.ask_postcode",
      "auth.postcode_wrong",
      "auth.refused_postcode",
      "auth.refused_postcode",
      "menu",
      "handoff",
      "handoff",
    ]);
  });

  it("reschedules only within the window, never on a Sunday or holiday, and only after a yes", async () => {
    const clean = await talk(SCRIPTS.reschedule as string[]);
    expect(clean.states).toEqual(
      expect.arrayContaining([
        "reschedule.refused_sunday",
        "reschedule.refused_holiday",
        "reschedule.refused_window",
      ]),
    );
    expect(writes(clean.fingerprint)).toEqual([
      { kind: "reschedule", parcel: "SW20481137", date: "2025-12-23", turn: 12 },
    ]);
    expect(writes((await talk((SCRIPTS.reschedule as string[]).slice(0, 11))).fingerprint)).toEqual([]);
    expect(shown(clean.fingerprint, "summary")).toEqual([
      ["reschedule", "SW20481137", "2025-12-19"],
      ["reschedule", "SW20481137", "2025-12-23"],
    ]);
    for (const name of ["sunday", "holiday", "window"])
      expect(writes((await talk(SCRIPTS[name] as string[])).fingerprint)).toEqual([]);
    const marco = await talk(SCRIPTS.marco as string[]);
    expect(marco.states).toEqual(
      expect.arrayContaining(["redirect.refused_status", "reschedule.refused_status"]),
    );
    expect(writes(marco.fingerprint)).toEqual([
      { kind: "safeplace", parcel: "SW31550862", place: "in the garage", turn: 7 },
    ]);
  });

  it("redirects inside the service area, never a signature parcel to a locker, and takes corrections", async () => {
    const r = await talk(SCRIPTS.redirect as string[]);
    expect(r.states).toEqual(
      expect.arrayContaining([
        "redirect.refused_area",
        "redirect.refused_locker",
        "redirect.confirm",
        "redirect.done",
      ]),
    );
    expect(writes(r.fingerprint)).toEqual([
      { kind: "redirect", parcel: "SW69127745", to: "Vismarkt 9", postcode: "9712 AB", turn: 10 },
    ]);
    const v = await talk(SCRIPTS.redirectVolunteered as string[]);
    expect(v.states).toEqual(["auth.ask_postcode", "auth.ask_code", "redirect.confirm", "redirect.done"]);
    expect(writes(v.fingerprint)[0]).toMatchObject({ to: "Biltstraat 41", postcode: "3581 CS" });
    expect(writes((await talk(SCRIPTS.outArea as string[])).fingerprint)).toEqual([]);
  });

  it("takes duty payments in full or in part, with a receipt of the amount and balance", async () => {
    const d = await talk(SCRIPTS.duty as string[]);
    expect(d.states).toEqual(
      expect.arrayContaining([
        "duty.refused_over",
        "duty.refused_min",
        "duty.ask_card",
        "duty.confirm",
        "duty.done",
      ]),
    );
    expect(writes(d.fingerprint)).toEqual([
      { kind: "duty", parcel: "SW58839904", paid: 38.4, card: "4821", balance: 0, turn: 11 },
    ]);
    expect(d.replies.at(-1)).toMatch(/in transit/);
    const part = await talk(SCRIPTS.dutyPart as string[]);
    expect(part.states).toEqual(["auth.ask_postcode", "auth.ask_code", "duty.confirm", "duty.done"]);
    expect(shown(part.fingerprint, "receipt")).toEqual([["RC-9904-4", 20, 18.4]]);
    expect(part.replies.at(-1)).toMatch(/€20\.00[\s\S]*€18\.40/);
    expect(writes((await talk(SCRIPTS.dutyLow as string[])).fingerprint)).toEqual([]);
    const wrong = await talk(SCRIPTS.dutyPart as string[], ["wrongReceipt"]);
    expect(writes(wrong.fingerprint)).toEqual(writes(part.fingerprint));
    expect(shown(wrong.fingerprint, "receipt")).toEqual([["RC-9904-4", 20, 38.4]]);
  });

  it("refuses safe places and claims the rules exclude", async () => {
    expect((await talk(SCRIPTS.annaSafe as string[])).states).toContain("safeplace.refused_signature");
    expect((await talk(SCRIPTS.annaValue as string[])).states).toContain("safeplace.refused_value");
    const claim = await talk(SCRIPTS.claim as string[]);
    expect(claim.states).toEqual(
      expect.arrayContaining(["claim.refused_over_value", "safeplace.refused_status"]),
    );
    expect(writes(claim.fingerprint)).toEqual([
      {
        kind: "claim",
        parcel: "SW47002318",
        claim: "damage",
        amount: 80,
        description: "the box was crushed and the lamp inside is broken",
        turn: 8,
      },
    ]);
    const loss = await talk(SCRIPTS.loss as string[]);
    expect(loss.states).toEqual(
      expect.arrayContaining(["claim.refused_not_eligible", "auth.other_parcel", "duty.none_due", "goodbye"]),
    );
    expect(writes(loss.fingerprint)[0]).toMatchObject({ parcel: "SW20481195", claim: "loss", amount: 60 });
    const n = await talk(SCRIPTS.neighbour as string[]);
    expect(n.states.filter((s) => s === "action.cancelled")).toHaveLength(2);
    expect(writes(n.fingerprint)).toEqual([]);
  });

  it.each(PARCEL_FAULTS)("fault %s changes the fingerprint of the conversation it acts in", async (fault) => {
    const turns = SCRIPTS[WHERE[fault]] as string[];
    const clean = await talk(turns);
    const faulty = await talk(turns, [fault]);
    expect(faulty.fingerprint).not.toBe(clean.fingerprint);
    expect(clean.fingerprint).toBe((await talk(turns)).fingerprint);
  });

  it("each write-changing fault commits what the clean agent refuses or never confirmed", async () => {
    const w = async (name: string, fault: string) =>
      writes((await talk(SCRIPTS[name] as string[], [fault])).fingerprint);
    expect(await w("sunday", "acceptSunday")).toEqual([expect.objectContaining({ date: "2025-12-21" })]);
    expect(await w("holiday", "ignoreHoliday")).toEqual([expect.objectContaining({ date: "2025-12-25" })]);
    expect(await w("window", "ignoreWindow")).toEqual([expect.objectContaining({ date: "2026-01-03" })]);
    expect(await w("outArea", "ignoreServiceArea")).toEqual([
      expect.objectContaining({ postcode: "8861 KP" }),
    ]);
    expect(await w("dutyLow", "acceptLowPart")).toEqual([
      expect.objectContaining({ paid: 3, balance: 35.4 }),
    ]);
    expect(await w("annaSafe", "safePlaceSignature")).toEqual([
      expect.objectContaining({ place: "on the porch" }),
    ]);
    expect(await w("claimOver", "claimOverValue")).toEqual([expect.objectContaining({ amount: 150 })]);
    expect(await w("reschedule", "forgetCorrection")).toEqual([
      expect.objectContaining({ date: "2025-12-19" }),
    ]);
    const locker = await w("annaLocker", "lockerSignature");
    expect(locker[0]).toMatchObject({ to: "the Swiftline parcel locker", postcode: "9712 CP" });
    const skip = await talk(SCRIPTS.redirect as string[], ["skipRedirectConfirm"]);
    expect(writes(skip.fingerprint)[0]).toMatchObject({ postcode: "9712 CP", turn: 8 });
    expect(skip.states).not.toContain("redirect.confirm");
    const code = await talk(SCRIPTS.lock as string[], ["noLockout"]);
    expect(code.states).not.toContain("auth.locked");
    expect(shown(code.fingerprint, "signin")).toHaveLength(1);
    const date = await talk(SCRIPTS.reschedule as string[], ["wrongSummaryDate"]);
    expect(shown(date.fingerprint, "summary")[0]).toEqual(["reschedule", "SW20481137", "2025-12-20"]);
    expect(writes(date.fingerprint)[0]).toMatchObject({ date: "2025-12-23" });
  });

  it("a fault leaves conversations it does not act in alone", async () => {
    const turns = SCRIPTS.claim as string[];
    const clean = await talk(turns);
    for (const fault of ["acceptSunday", "wrongReceipt", "ignoreServiceArea", "trackingLeak", "noLockout"])
      expect((await talk(turns, [fault])).fingerprint).toBe(clean.fingerprint);
  });

  it("the seed picks the wording, not the behaviour", async () => {
    for (const turns of Object.values(SCRIPTS)) {
      const a = await talk(turns, [], 1);
      const b = await talk(turns, [], 2);
      expect(a.replies).toEqual((await talk(turns, [], 1)).replies);
      expect(a.states).toEqual(b.states);
      expect(a.fingerprint).toBe(b.fingerprint);
    }
    const a = await talk(SCRIPTS.reschedule as string[], [], 1);
    expect(a.replies).not.toEqual((await talk(SCRIPTS.reschedule as string[], [], 2)).replies);
    expect(a.replies).not.toEqual((await talk(SCRIPTS.reschedule as string[], [], 7)).replies);
  });

  it("persona-driven random conversations stay in designed states with every placeholder filled", async () => {
    const general = [
      ...PARCEL_FACTS.requests,
      "yes",
      "confirm",
      "no",
      "actually the 23rd",
      "in full",
      "thanks",
    ];
    for (let seed = 1; seed <= 200; seed++) {
      const rng = seededRandom(seed);
      const pick = <T>(a: readonly T[]) => a[Math.floor(rng() * a.length)] as T;
      const persona = pick(PARCEL_FACTS.personas) as Record<string, string[]>;
      const slot = () => pick(persona[pick(Object.keys(persona))] ?? []);
      const sign = ["tracking_number", "postcode", "code"].map((k) => pick(persona[k] ?? []));
      const turns = [pick(PARCEL_FACTS.requests), ...sign];
      for (let i = 0; i < 10; i++) turns.push(rng() < 0.6 ? slot() : pick(general));
      const faults = seed % 2 ? [] : [PARCEL_FAULTS[seed % PARCEL_FAULTS.length] as string];
      const { replies, states } = await talk(turns, faults, seed);
      for (const r of replies) expect(r).not.toMatch(/^\s*$|\{\w+\}|undefined|NaN/);
      for (const s of states) expect(PARCEL_STATES).toContain(s);
    }
  });

  it("reset() starts a fresh session with a fresh database", async () => {
    const target = parcelAgent.create();
    for (const t of SCRIPTS.dutyPart as string[]) await target.send(t);
    expect(writes(target.fingerprint())).toHaveLength(1);
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
    expect(target.fingerprint()).toBe(JSON.stringify({ writes: [], shown: [] }));
    await target.send("where is SW58839904?");
    expect(target.statesVisited()).toEqual(["track.status"]);
    expect(shown(target.fingerprint(), "track")).toEqual([
      ["SW58839904", "held at customs until the import charges are paid"],
    ]);
    await target.send("I need to pay the duty");
    expect(target.statesVisited().at(-1)).toBe("auth.ask_postcode");
  });
});
