import { describe, expect, it } from "vitest";
import { airlineAgent } from "../bench/agents/airline.ts";
import { bankAgent } from "../bench/agents/bank.ts";
import type { TestbedAgent } from "../bench/agents/testbed.ts";

/** Send `turns` to a fresh session of `agent` with `faults` on; the states it entered and its fingerprint. */
async function talk(agent: TestbedAgent, turns: readonly string[], faults: readonly string[] = []) {
  const target = agent.create({ faults });
  await target.reset();
  const replies: string[] = [];
  for (const t of turns) replies.push((await target.send(t)).text);
  return { replies, states: [...target.statesVisited()], fingerprint: target.fingerprint() };
}

describe("testbed adapters of the built-in agents (bench/boundary-agents.ts)", () => {
  it("the bank adapter reads designed states off replies, and a fault that acts changes the fingerprint", async () => {
    const transfer = ["I want to send money", "40112233", "4821", "NW-20000002", "1500", "yes"];
    const clean = await talk(bankAgent, transfer);
    expect(clean.states).toContain("auth.ask_customer");
    expect(clean.states).toContain("auth.ask_pin");
    expect(clean.states).toContain("transfer.over_limit");
    for (const s of clean.states) expect(bankAgent.states).toContain(s);
    const faulty = await talk(bankAgent, transfer, ["nolimit"]);
    expect(faulty.states).toContain("transfer.done");
    expect(faulty.fingerprint).not.toBe(clean.fingerprint);
    const alt = bankAgent.create({ seed: 2 });
    await alt.reset();
    await alt.send("I want to send money");
    expect(alt.statesVisited()).toEqual(["auth.ask_customer"]);
  });

  it("the airline adapter reports reply kinds as states, reset clears them, faults change the fingerprint", async () => {
    const cancel = [
      "I want to cancel my reservation",
      "My user id is mia_li_3668",
      "HAT1A1",
      "change of plans",
      "yes",
    ];
    const clean = await talk(airlineAgent, cancel);
    expect(clean.states[0]).toBe("airline.ask_user_id");
    for (const s of clean.states) expect(airlineAgent.states).toContain(s);
    const faulty = await talk(airlineAgent, cancel, ["skipEligibility"]);
    expect(faulty.fingerprint === clean.fingerprint && faulty.replies.join() === clean.replies.join()).toBe(
      false,
    );
    const target = airlineAgent.create();
    await target.send("hello");
    expect(target.statesVisited().length).toBeGreaterThan(0);
    await target.reset();
    expect(target.statesVisited()).toEqual([]);
  });
});
