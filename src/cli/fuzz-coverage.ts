import { writeFileSync } from "node:fs";
import { type Command, Option } from "commander";
import type { ModeLabel } from "../fuzz/coverage.ts";
import {
  agrees,
  labelAgreement,
  measureCoverage,
  readModeLabels,
  reviewerAgreement,
} from "../fuzz/coverage.ts";
import { loadModes } from "../fuzz/modes/load.ts";
import { DEFAULT_REPORTS, readReportFiles, repoContextOf } from "../fuzz/pipeline.ts";
import { textTable } from "../report/tables.ts";
import { resolveSource } from "../workspace/source.ts";
import { fuzzModeDirs, fuzzReportFiles, programConfig } from "./config.ts";
import { positiveInt } from "./flags.ts";

/**
 * `gauntlet fuzz coverage` (how much of a failure-report corpus the mode library turns into cases on a
 * repository, per report and in total, on the held-out split too) and `gauntlet fuzz modes` (the library).
 */

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "–");
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Add `fuzz coverage` and `fuzz modes` to the `fuzz` command. */
export function registerCoverageCommands(fuzz: Command, program: Command): void {
  fuzz
    .command("coverage")
    .description(
      "per failure report: the failure mode it is placed in, the matched signals and the generated cases (or why none); totals and case diversity",
    )
    .option("--reports <file>", "failure-report corpus (JSONL), repeatable", collect)
    .requiredOption(
      "--repo <spec>",
      "repository to ground the cases in: a local path or npm:<name>@<version>",
    )
    .option("--modes <dir>", "folder of your own failure-mode YAML files, repeatable", collect)
    .addOption(
      new Option("--split <split>", "reports listed: all, dev, or heldout (sha256(id) first byte % 4 == 0)")
        .choices(["all", "dev", "heldout"])
        .default("all"),
    )
    .option(
      "--sample <n>",
      "cases in the diversity sample (a campaign's --max-cases)",
      positiveInt("sample"),
      50,
    )
    .option(
      "--labels <file>",
      "a reviewer's judgements (JSONL: id, mode, also, kind) to measure the placements against, e.g. data/mode-labels.jsonl; repeatable (one file per reviewer: their agreement with each other is printed too)",
      collect,
    )
    .option("--json <file>", "also write the whole result as JSON")
    .action(async (flags) => {
      const config = programConfig(program);
      const reports = readReportFiles(fuzzReportFiles(config, flags.reports, DEFAULT_REPORTS));
      const modes = loadModes(fuzzModeDirs(config, flags.modes)).map((m) => m.mode);
      const source = await resolveSource(flags.repo, {
        onProgress: (m: string) => process.stderr.write(`${m}\n`),
      });
      const cov = await measureCoverage(reports, modes, repoContextOf(flags.repo, source), {
        sampleSize: flags.sample,
      });
      const rows = cov.rows.filter((r) => flags.split === "all" || r.split === flags.split);
      const out = process.stdout;
      out.write(
        `${textTable([
          ["report", "split", "mode", "signals", "cases"],
          ...rows.map((r) => [
            r.reportId,
            r.split,
            r.placement.mode ?? "(unplaced)",
            cut(
              r.placement.signals
                .filter((s) => s.weight > 0)
                .map((s) => s.signal)
                .join(", ") || "-",
              48,
            ),
            r.caseIds.length ? `${r.caseIds.length}: ${cut(r.caseIds.slice(0, 2).join(", "), 40)}` : "0",
          ]),
        ])}\n\n`,
      );
      const gaps = rows.filter((r) => !r.covered);
      if (gaps.length) {
        out.write(`not covered (${gaps.length}):\n`);
        for (const r of gaps) out.write(`  ${r.reportId}: ${r.gap}\n`);
        out.write("\n");
      }
      for (const split of ["all", "dev", "heldout"] as const) {
        const t = cov.totals[split];
        out.write(
          `${split.padEnd(8)} ${t.reports} reports: ${t.placed} placed (${pct(t.placed, t.reports)}), ${t.covered} placed and covered by a case that stresses their mode (${pct(t.covered, t.reports)})\n`,
        );
      }
      const reviewers: { file: string; labels: ModeLabel[] }[] = (flags.labels ?? []).map((file: string) => ({
        file,
        labels: readModeLabels(file),
      }));
      for (const { file, labels } of reviewers) {
        const byId = new Map(labels.map((l) => [l.id, l]));
        const off = rows.filter((r) => byId.has(r.reportId) && !agrees(r, byId.get(r.reportId)!));
        if (off.length) {
          out.write(`\nplacements that disagree with ${file} (${off.length}):\n`);
          for (const r of off) {
            const l = byId.get(r.reportId)!;
            out.write(
              `  ${r.reportId}: placed ${r.placement.mode ?? "nowhere"}; labelled ${l.kind === "mode" ? [l.mode, ...l.also].join(" or ") : l.kind}${l.note ? ` (${cut(l.note, 90)})` : ""}\n`,
            );
          }
        }
        out.write(`\nagainst ${file}:\n`);
        for (const split of ["all", "dev", "heldout"] as const) {
          const a = labelAgreement(
            cov.rows.filter((r) => split === "all" || r.split === split),
            labels,
          );
          out.write(
            `${split.padEnd(8)} ${a.agree}/${a.labelled} placements agree (${pct(a.agree, a.labelled)}); ${a.stressed}/${a.labelled} reports placed in their labelled mode and covered by a case that stresses it (${pct(a.stressed, a.labelled)}; ${pct(a.stressed, a.testable)} of the ${a.testable} a mode can test)\n`,
          );
        }
      }
      for (let i = 0; i < reviewers.length; i++)
        for (let j = i + 1; j < reviewers.length; j++) {
          const { both, agree } = reviewerAgreement(reviewers[i]!.labels, reviewers[j]!.labels);
          out.write(
            `reviewers ${reviewers[i]!.file} and ${reviewers[j]!.file} agree on ${agree}/${both} reports (${pct(agree, both)}): the ceiling for a placer\n`,
          );
        }
      const d = cov.sample;
      out.write(
        `diversity: the first ${d.cases} cases of a campaign hold ${d.distinctSequences} distinct instruction sequences over ${d.modes} modes, median ${d.medianSteps} steps; all ${cov.allCases.cases} cases: ${cov.allCases.distinctSequences} distinct, median ${cov.allCases.medianSteps} steps\n`,
      );
      if (flags.json) writeFileSync(flags.json, `${JSON.stringify(cov, null, 2)}\n`);
    });

  fuzz
    .command("modes")
    .description("list the failure-mode library (shipped data/modes plus --modes folders)")
    .option("--modes <dir>", "folder of your own failure-mode YAML files, repeatable", collect)
    .action((flags) => {
      const loaded = loadModes(fuzzModeDirs(programConfig(program), flags.modes));
      process.stdout.write(
        `${textTable([
          ["mode", "title", "templates", "oracles", "from"],
          ...loaded.map((l) => [
            l.mode.id,
            cut(l.mode.title, 50),
            String(l.mode.templates.length),
            l.mode.oracles.join(", "),
            l.user ? l.file : "shipped",
          ]),
        ])}\n${loaded.length} failure modes\n`,
      );
    });
}
