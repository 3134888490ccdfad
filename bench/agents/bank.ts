import type { ChatReply } from "../../src/agents/chat/target.ts";
import { BANK_BUGS, BANK_FACTS, type BankBug, bankTarget } from "../../test/fixtures/bank-bot.ts";
import type { TestbedAgent, TestbedTarget } from "./testbed.ts";

/**
 * The Northwind bank bot (`test/fixtures/bank-bot.ts`) as a testbed agent. The bot keeps its state private, so
 * this adapter — which, unlike the tester, knows the bot's exact wordings in both variants — reads the designed
 * state off each reply. Seeds: odd seeds use the standard wording, even seeds the alternative one. The
 * fingerprint lists the effects the bot reported (transfers with amounts and recipients, frozen cards, balances
 * shown).
 */
const STATES: readonly (readonly [string, RegExp])[] = [
  ["auth.locked", /locked/i],
  ["handoff", /human advisors/i],
  ["transfer.done", /has been sent to|was transferred to/i],
  ["freeze.done", /has been frozen|is now frozen/i],
  ["transfer.declined", /won't make the transfer|cancelled the transfer/i],
  ["freeze.declined", /won't freeze the card|card stays active/i],
  ["confirm.unclear", /need a clear yes or no/i],
  ["transfer.confirm", /about to send|confirm: send/i],
  ["freeze.confirm", /going to freeze|Freezing the card/i],
  ["balance.leaked", /current balance is .* PIN/i],
  ["balance.shown", /balance of your current account|in your current account/i],
  ["auth.unknown_customer", /couldn't find customer number/i],
  ["auth.wrong_pin", /PIN doesn't match/i],
  ["auth.ask_pin", /(enter|type) your (4-digit|four-digit) PIN/i],
  ["auth.ask_customer", /customer number/i],
  ["transfer.bad_recipient", /is not a valid account number/i],
  ["transfer.unknown_recipient", /couldn't find the account/i],
  ["transfer.same_account", /same account/i],
  ["transfer.zero_amount", /more than €0/i],
  ["transfer.over_limit", /can't be made in chat/i],
  ["transfer.over_balance", /your balance is only/i],
  ["transfer.ask_recipient", /send money to\?|Where should the money go/i],
  ["transfer.ask_amount", /How much would you like to send|what amount should I send/i],
  ["freeze.unknown_card", /couldn't find a card ending/i],
  ["freeze.ask_card", /Which card/i],
  ["bye", /Have a nice day/i],
  ["anything_else", /anything else I can help/i],
  ["greet", /Northwind Bank('s)? assistant/i],
];

export const bankAgent: TestbedAgent = {
  name: "bank",
  description: "bank: customer number + PIN (3 tries), transfers (limit, balance, yes/no), card freeze",
  faults: BANK_BUGS,
  states: [...STATES.map(([id]) => id), "other"],
  facts: BANK_FACTS,
  create(options = {}): TestbedTarget {
    const wording = (options.seed ?? 1) % 2 === 0 ? "alt" : "std";
    const target = bankTarget({ bugs: (options.faults ?? []) as BankBug[], wording });
    let visited: string[] = [];
    let effects: string[] = [];
    return {
      name: target.name,
      async reset() {
        visited = [];
        effects = [];
        await target.reset();
      },
      async send(text): Promise<ChatReply> {
        const reply = await target.send(text);
        const state = STATES.find(([, re]) => re.test(reply.text))?.[0] ?? "other";
        visited.push(state);
        if (/done|shown|leaked/.test(state))
          effects.push(`${state}:${reply.text.match(/€[\d,.]+|NW-\d+|ending in \d{4}/g)}`);
        return reply;
      },
      close: () => target.close(),
      statesVisited: () => visited,
      fingerprint: () => effects.join(";"),
    };
  },
};
