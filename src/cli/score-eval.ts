import { existsSync, writeFileSync } from "node:fs";
import { type Command, Option } from "commander";
import { InputError } from "../core/errors.ts";
import { textTable } from "../report/tables.ts";
import { DEFECTS } from "../score/defects.ts";
import {
  agreementStats,
  type Confusion,
  type EvalSummary,
  evaluateFile,
  type FileEvaluation,
  labelledPath,
  readTrajectoryLabels,
  summarise,
} from "../score/eval.ts";
import { importTrajectories } from "../score/import/index.ts";

/**
 * `gauntlet score eval --labels L`: the detectors against hand labels, per defect and overall, on the dev
 * and held-out splits (src/score/eval.ts), with the imported event counts against the labelled ones.
 */

const f2 = (x: number | null) => (x === null ? "–" : x.toFixed(2));

function confusionCells(c: Confusion): string[] {
  const s = agreementStats(c);
  return [`${c.tp}/${c.fp}/${c.fn}/${c.tn}`, f2(s.precision), f2(s.recall), f2(s.kappa)];
}

function citing(c: { yes: number; checked: number }): string {
  return c.checked ? `${c.yes}/${c.checked}` : "–";
}

function renderSummary(title: string, s: EvalSummary): string {
  const rows = [
    [
      "defect",
      "labelled",
      "warning TP/FP/FN/TN",
      "P",
      "R",
      "κ",
      "any TP/FP/FN/TN",
      "P",
      "R",
      "κ",
      "warning TP citing labels",
      "any TP citing labels",
    ],
    ...s.perDefect.map((r) => [
      DEFECTS[r.defect].name,
      String(r.labelled),
      ...confusionCells(r.warning),
      ...confusionCells(r.any),
      citing(r.citedAtWarning),
      citing(r.cited),
    ]),
    [
      "overall",
      String(s.perDefect.reduce((a, r) => a + r.labelled, 0)),
      ...confusionCells(s.overall.warning),
      ...confusionCells(s.overall.any),
      citing(s.overall.citedAtWarning),
      citing(s.overall.cited),
    ],
  ];
  const counts = s.counts.map((c) => `${c.key} ${c.exact}/${c.files}`).join(", ");
  return `${title} (${s.files} files)\n${textTable(rows)}\ncounts exact: ${counts}\n`;
}

/** Add `score eval` to the `score` command. */
export function registerScoreEval(score: Command): void {
  score
    .command("eval")
    .description(
      "measure the detectors against hand labels: per defect TP/FP/FN/TN, precision, recall and κ at the warning band and at any instance, whether true positives cite the labelled events, and the event counts",
    )
    .requiredOption(
      "--labels <file>",
      "hand labels (JSONL: file, defects {name: {label, evidence}}, counts), e.g. data/trajectories/labels.jsonl",
    )
    .option(
      "--root <dir>",
      "folder the labelled file paths are relative to (default: the labels file's folder)",
    )
    .addOption(
      new Option(
        "--split <split>",
        "files evaluated: all, dev, or heldout (sha256(file) first byte % 4 == 0)",
      )
        .choices(["all", "dev", "heldout"])
        .default("all"),
    )
    .option("--verbose", "list every disagreement and count mismatch")
    .option("--json <file>", "also write every file's judgements as JSON")
    .action(async (flags) => {
      const labels = readTrajectoryLabels(flags.labels);
      const evals: FileEvaluation[] = [];
      const missing: string[] = [];
      for (const [i, l] of labels.entries()) {
        const file = labelledPath(flags.labels, l, flags.root);
        if (!existsSync(file)) {
          missing.push(`${l.file} (looked for ${file})`);
          continue;
        }
        process.stderr.write(`[${i + 1}/${labels.length}] ${l.file}\n`);
        try {
          evals.push(evaluateFile(l, await importTrajectories(file)));
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          evals.push({
            file: l.file,
            split: "dev",
            error: error.message,
            trajectories: 0,
            judgements: [],
            counts: [],
          });
        }
      }
      if (!labels.length)
        throw new InputError(
          { file: flags.labels },
          "holds no labels",
          "give a labels file with one line per labelled trajectory file",
        );
      if (!evals.some((e) => !e.error))
        throw new InputError(
          { file: flags.labels },
          `none of its ${labels.length} labelled files could be evaluated (${missing.length} not found, e.g. ${labelledPath(flags.labels, labels[0]!, flags.root)})`,
          "the `file` paths are relative to the labels file's folder; give --root when the logs are elsewhere",
        );
      const out = process.stdout;
      const chosen = evals.filter((e) => flags.split === "all" || e.split === flags.split);
      if (flags.verbose)
        for (const e of chosen) {
          for (const j of e.judgements) {
            const wrong =
              (j.label === "present") !== j.atWarning || (j.label === "present") !== j.anyInstance;
            if (wrong || j.citesLabelled === false)
              out.write(
                `${e.file} ${DEFECTS[j.defect].name}: labelled ${j.label}, band ${j.band}, ${j.instances} instances (+${j.exempted} exempt)${j.citesLabelled === false ? ", cites none of the labelled events" : ""}${j.foundRefs.length ? ` [found ${j.foundRefs.join(" ")}]` : ""}${j.label === "present" ? ` [label: ${j.evidence.slice(0, 140)}]` : ""}\n`,
              );
          }
          for (const c of e.counts.filter((x) => x.labelled !== x.imported))
            out.write(`${e.file} count ${c.key}: labelled ${c.labelled}, imported ${c.imported}\n`);
        }
      for (const e of evals.filter((x) => x.error)) out.write(`not imported: ${e.file}: ${e.error}\n`);
      for (const m of missing)
        out.write(
          `not found: ${m} (looked for ${labelledPath(flags.labels, { file: m } as never, flags.root)})\n`,
        );
      if (flags.split === "all") {
        out.write(`\n${renderSummary("all", summarise(evals))}`);
        out.write(`\n${renderSummary("dev", summarise(evals.filter((e) => e.split === "dev")))}`);
        out.write(`\n${renderSummary("held out", summarise(evals.filter((e) => e.split === "heldout")))}`);
      } else out.write(`\n${renderSummary(flags.split, summarise(chosen))}`);
      if (flags.json) writeFileSync(flags.json, `${JSON.stringify(evals, null, 2)}\n`);
      if (missing.length || evals.some((e) => e.error)) process.exitCode = 1;
    });
}
