import { describe, expect, it } from "vitest";
import { telecomAgent } from "../bench/agents/telecom.ts";

/** Send `turns` to a fresh telecom session; replies, states entered and fingerprint. */
async function talk(turns: readonly string[], faults: readonly string[] = [], seed = 1) {
  const target = telecomAgent.create({ faults, seed });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

const CHANGE = ["I want to change my plan", "0612 345 678", "000000", "482913", "Max", "yes", "CONFIRM"];

describe("the telecom testbed agent (bench/agents/telecom.ts)", () => {
  it("verifies by SMS code, offers plans, and writes only after CONFIRM", async () => {
    const clean = await talk(CHANGE);
    expect(clean.states.slice(0, 4)).toEqual([
      "auth.ask_number",
      "auth.ask_code",
      "auth.code_wrong",
      "plan.offer",
    ]);
    for (const s of clean.states) expect(telecomAgent.states).toContain(s);
    const writes = (fp: string) => (JSON.parse(fp) as { writes: unknown[] }).writes;
    expect(writes(clean.fingerprint)).toHaveLength(1);
    const beforeConfirm = await talk(CHANGE.slice(0, 6));
    expect(writes(beforeConfirm.fingerprint)).toHaveLength(0);
    const yes = await talk(CHANGE.slice(0, 6), ["yesConfirms"]);
    expect(writes(yes.fingerprint)).toHaveLength(1);
  });

  it("each guard fault changes what the session does", async () => {
    const clean = await talk(CHANGE);
    expect((await talk(CHANGE, ["skipCode"])).states).not.toContain("auth.ask_code");
    expect((await talk(CHANGE, ["anyCode"])).states).not.toContain("auth.code_wrong");
    const noGate = await talk(CHANGE.slice(0, 5), ["skipConfirm"]);
    expect(noGate.fingerprint).not.toBe((await talk(CHANGE.slice(0, 5))).fingerprint);
    expect(clean.fingerprint).toBe((await talk(CHANGE)).fingerprint);
  });

  it("the seed picks the wording, not the behaviour", async () => {
    const a = await talk(CHANGE, [], 1);
    const b = await talk(CHANGE, [], 2);
    expect(a.replies).toEqual((await talk(CHANGE, [], 1)).replies);
    expect(a.replies).not.toEqual(b.replies);
    expect(a.states).toEqual(b.states);
  });
});
