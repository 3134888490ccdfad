import path from "node:path";
import { describe, expect, it } from "vitest";
import { Instances, KeyedInstances, MAX_INSTANCES_HELD, makeFinding } from "../src/score/detect/finding.ts";
import { LaterUse, MAX_PENDING_PROBES } from "../src/score/detect/later-use.ts";
import { importTrajectories, streamTrajectory } from "../src/score/import/index.ts";
import { collectLogFiles } from "../src/score/pipeline.ts";
import { scoreWithFindings, TrajectoryScorer } from "../src/score/scorecard.ts";

// Real trajectories in 10 formats (data/trajectories, copied from ../shared/data) and Gauntlet's own held-out sets.
const SETS = [
  path.resolve(import.meta.dirname, "../data/trajectories"),
  path.resolve(import.meta.dirname, "../data/trajectories-heldout"),
  path.resolve(import.meta.dirname, "../data/trajectories-heldout-b"),
  path.resolve(import.meta.dirname, "fixtures"),
];

describe("scoring a log as a stream", () => {
  it("gives the scorecard of the whole-trajectory import, excerpts included, on every streamable real log", async () => {
    const { files } = collectLogFiles(SETS);
    let streamed = 0;
    for (const file of files) {
      const scorer = new TrajectoryScorer();
      const t = await streamTrajectory(file, undefined, (e) => scorer.push(e));
      if (!t) continue;
      streamed++;
      const card = scorer.finish(t).card;
      const [whole] = await importTrajectories(file);
      expect(JSON.parse(JSON.stringify(card)), file).toEqual(
        JSON.parse(JSON.stringify(scoreWithFindings(whole as NonNullable<typeof whole>).card)),
      );
    }
    expect(streamed).toBeGreaterThan(10);
  }, 120_000);

  it("keeps an excerpt of every event a finding cites (no event is looked up afterwards)", async () => {
    const { files } = collectLogFiles(SETS);
    let cited = 0;
    for (const file of files)
      for (const t of await importTrajectories(file)) {
        for (const f of scoreWithFindings(t).card.findings)
          for (const i of [...f.instances, ...f.exempted])
            for (const x of i.excerpts) {
              cited++;
              expect(x.text, `${file} ${f.defect} ${x.event}`).not.toBe("(event not found)");
            }
      }
    expect(cited).toBeGreaterThan(100);
  }, 120_000);
});

describe("bounded instance lists", () => {
  it("hold the strongest instances (ties: the first found) while counting and summing all of them", () => {
    const weights = Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 13) / 4);
    const all = weights.map((weight, i) => ({ events: [`e${i}`], note: `n${i}`, weight }));
    const held = new Instances<(typeof all)[number]>(100);
    for (const x of all) held.push(x);
    const f = makeFinding("duplicate-step", held);
    const whole = makeFinding("duplicate-step", all);
    expect(f.instances).toEqual(whole.instances.slice(0, 100));
    expect(f.instances).toHaveLength(100);
    expect(f.instanceCount).toBe(5000);
    expect(f.score).toBe(whole.score);
    expect(whole.instanceCount).toBeUndefined();
  });

  it("keep a long log's raw findings bounded: no detector holds more than MAX_INSTANCES_HELD of a kind", () => {
    const scorer = new TrajectoryScorer();
    // 3,000 reads of distinct files in one batch: every one an exempted near-duplicate (another target).
    for (let i = 1; i <= 3000; i++) {
      const call = `c${i}`;
      scorer.push({
        id: `a${i}`,
        type: "tool_call",
        callId: call,
        name: "Read",
        input: { file_path: `src/f${i}.ts` },
      });
      scorer.push({
        id: `b${i}`,
        type: "tool_result",
        callId: call,
        output: `contents ${i}`,
        isError: false,
        parent: [`a${i}`],
      });
    }
    const { raw, card } = scorer.finish({
      id: "t",
      file: "t.jsonl",
      format: "claude-code-jsonl",
      events: [],
      skipped: [],
      models: [],
    } as never);
    const dup = raw.find((r) => r.defect === "duplicate-step");
    expect(dup?.exemptedCount).toBeGreaterThan(MAX_INSTANCES_HELD);
    for (const r of raw) {
      expect(r.instances.length).toBeLessThanOrEqual(MAX_INSTANCES_HELD);
      expect(r.exempted.length).toBeLessThanOrEqual(MAX_INSTANCES_HELD);
    }
    expect(card.findings.find((x) => x.defect === "duplicate-step")?.exemptedCount).toBe(dup?.exemptedCount);
  });
});

describe("bounded pending probes", () => {
  it("decide the oldest probe on its use so far once more than MAX_PENDING_PROBES wait", () => {
    const decided: [number, string][] = [];
    const use = new LaterUse<number>({
      untilCompaction: false,
      decide: (p, why) => decided.push([p.data, why]),
    });
    for (let i = 0; i < MAX_PENDING_PROBES + 3; i++) use.add([i + 1], i);
    expect(decided).toEqual([
      [0, "limit"],
      [1, "limit"],
      [2, "limit"],
    ]);
    use.finish();
    expect(decided).toHaveLength(MAX_PENDING_PROBES + 3);
    expect(decided.at(-1)).toEqual([MAX_PENDING_PROBES + 2, "end"]);
  });
});

describe("instances reported in an order of their own", () => {
  it("hand on what holding them all would: the strongest in key order, the rest counted", () => {
    const n = 5000;
    const all = Array.from({ length: n }, (_, i) => ({
      key: (i * 7907) % n,
      x: { events: [`e${i}`], note: `n${i}`, weight: ((i * 31) % 17) / 2 },
    }));
    const keyed = new KeyedInstances<(typeof all)[number]["x"]>(100);
    for (const y of all) keyed.add(y.key, y.x);
    const bounded = new Instances<(typeof all)[number]["x"]>(100);
    keyed.drainInto(bounded);
    const whole = makeFinding(
      "ghost-context",
      [...all].sort((a, b) => a.key - b.key).map((y) => y.x),
    );
    const f = makeFinding("ghost-context", bounded);
    expect(f.instances).toEqual(whole.instances.slice(0, 100));
    expect(f.instanceCount).toBe(n);
    expect(f.score).toBe(whole.score);
  });
});
