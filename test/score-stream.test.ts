import path from "node:path";
import { describe, expect, it } from "vitest";
import { importTrajectories, streamTrajectory } from "../src/score/import/index.ts";
import { collectLogFiles } from "../src/score/pipeline.ts";
import { scoreWithFindings, TrajectoryScorer } from "../src/score/scorecard.ts";

// Real trajectories in 10 formats (../shared/data) and Gauntlet's own held-out sets.
const SETS = [
  path.resolve(import.meta.dirname, "../../shared/data/trajectories"),
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
