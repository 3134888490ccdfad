/**
 * Benchmark (issue 15 §2): the `rules` reply labeller (abstract.ts `labelReply`) against a hand-labelled corpus
 * of customer-service replies nobody tuning the labeller wrote (bench/data/reply-corpus.jsonl: 422 replies from
 * 14 domains, each with its kind — refuse, ask, gate, done, inform, not_found, transfer, abort, error, clarify —
 * and, for refusals, what the refusal is about). The corpus is split once by a hash of each id (decided before
 * any figure was looked at): the `dev` half may be read and tuned on, the `held-out` half is only counted.
 *
 * Prints per kind the recall on each half, the refusal cue's precision, recall and F1 on each half, and how
 * often a refusal's topic matches the corpus's (topics the labeller has a name for). `--verbose` lists the dev
 * half's misses, never the held-out half's.
 *
 * Run: `npx tsx bench/boundary-labels.ts [--verbose]`
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { labelReply } from "../src/boundary/abstract.ts";
import { CUE, cueOf } from "../src/boundary/types.ts";

interface Row {
  id: string;
  domain: string;
  text: string;
  kind: string;
  topic: string;
}

const file = path.join(import.meta.dirname, "data", "reply-corpus.jsonl");
const rows = readFileSync(file, "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Row);
/** The half a row belongs to: the parity of the first byte of sha1(id). */
const half = (id: string) => ((createHash("sha1").update(id).digest()[0] ?? 0) % 2 ? "held-out" : "dev");

/** Whether a labelled activity is the corpus kind. */
function matches(kind: string, activity: string): boolean {
  const cue = cueOf(activity);
  switch (kind) {
    case "refuse":
      return cue === CUE.refuse;
    case "ask":
      return activity.startsWith("ask_") || activity === "open_question";
    case "gate":
      return activity === CUE.gate;
    case "done":
      return activity === CUE.done;
    case "inform":
      return activity.startsWith("inform");
    case "not_found":
      return cue === CUE.notFound;
    case "transfer":
      return activity === CUE.transfer;
    case "abort":
      return activity === CUE.abort;
    case "error":
      return cue === CUE.error;
    case "clarify":
      return activity === CUE.clarify;
    default:
      return false;
  }
}

const verbose = process.argv.includes("--verbose");
const kinds = [...new Set(rows.map((r) => r.kind))];
const halves = ["dev", "held-out"] as const;
const tally = new Map<string, { n: number; hit: number }>();
const refuse = {
  tp: { dev: 0, "held-out": 0 },
  fp: { dev: 0, "held-out": 0 },
  fn: { dev: 0, "held-out": 0 },
};
const topic = { named: { dev: 0, "held-out": 0 }, right: { dev: 0, "held-out": 0 } };
/** Corpus topics the labeller has a name for (abstract.ts POLICY_TOPICS). */
const NAMED_TOPICS = new Set(["timing", "limit", "balance", "eligibility", "already", "identity", "policy"]);
const misses: string[] = [];
for (const r of rows) {
  const h = half(r.id);
  const { activity } = labelReply(r.text);
  const ok = matches(r.kind, activity);
  const key = `${r.kind}:${h}`;
  const t = tally.get(key) ?? { n: 0, hit: 0 };
  t.n++;
  if (ok) t.hit++;
  tally.set(key, t);
  const isRefuse = cueOf(activity) === CUE.refuse;
  if (r.kind === "refuse" && isRefuse) refuse.tp[h]++;
  else if (r.kind === "refuse") refuse.fn[h]++;
  else if (isRefuse) refuse.fp[h]++;
  if (r.kind === "refuse" && isRefuse && NAMED_TOPICS.has(r.topic)) {
    topic.named[h]++;
    if (activity === `${CUE.refuse}_${r.topic}`) topic.right[h]++;
  }
  if (verbose && h === "dev" && (!ok || (r.kind === "refuse" && activity !== `${CUE.refuse}_${r.topic}`)))
    misses.push(`  ${r.id} ${r.kind}${r.topic ? `/${r.topic}` : ""} → ${activity}: ${r.text}`);
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)}%` : "—");
console.log(`boundary-labels: rules labeller on ${rows.length} hand-labelled replies (${file})`);
console.log(["kind".padEnd(10), ...halves.map((h) => `${h} recall`.padEnd(18))].join(" "));
for (const k of kinds)
  console.log(
    [
      k.padEnd(10),
      ...halves.map((h) => {
        const t = tally.get(`${k}:${h}`) ?? { n: 0, hit: 0 };
        return `${pct(t.hit, t.n)} (${t.hit}/${t.n})`.padEnd(18);
      }),
    ].join(" "),
  );
for (const h of halves) {
  const { tp, fp, fn } = { tp: refuse.tp[h], fp: refuse.fp[h], fn: refuse.fn[h] };
  const p = tp / Math.max(1, tp + fp);
  const r = tp / Math.max(1, tp + fn);
  const all = [...tally].filter(([k]) => k.endsWith(`:${h}`)).map(([, v]) => v);
  const acc =
    all.reduce((s, v) => s + v.hit, 0) /
    Math.max(
      1,
      all.reduce((s, v) => s + v.n, 0),
    );
  console.log(
    `${h}: accuracy ${(100 * acc).toFixed(0)}%; refusal precision ${p.toFixed(2)}, recall ${r.toFixed(2)}, F1 ${((2 * p * r) / Math.max(1e-9, p + r)).toFixed(2)}; refusal topic right ${pct(topic.right[h], topic.named[h])} (${topic.right[h]}/${topic.named[h]} with a topic the labeller names)`,
  );
}
if (verbose) console.log(`dev misses:\n${misses.join("\n")}`);
