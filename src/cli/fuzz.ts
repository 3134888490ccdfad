import { existsSync, writeFileSync } from "node:fs";
import { type Command, Option } from "commander";
import { InputError, SetupError } from "../core/errors.ts";
import { readJsonl, toJsonl } from "../core/jsonl.ts";
import { RunStore } from "../core/run-store.ts";
import { FuzzCase } from "../fuzz/case.ts";
import { checkResults } from "../fuzz/check.ts";
import { composeSeedTemplates, SeedTemplate } from "../fuzz/compose.ts";
import { instantiateCases } from "../fuzz/instantiate.ts";
import { mineInventory } from "../fuzz/inventory.ts";
import { loadModes } from "../fuzz/modes/load.ts";
import {
  DEFAULT_REPORTS,
  readReportFiles,
  rebuildFuzzReports,
  repoContextOf,
  runFuzzCampaign,
} from "../fuzz/pipeline.ts";
import { summaryRows, textTable } from "../fuzz/report.ts";
import { CaseResult } from "../fuzz/result.ts";
import { applyReviews, parseReviewFile, ReviewDecision, renderReviewFile } from "../fuzz/review.ts";
import { counts } from "../fuzz/second-opinion.ts";
import { InventoryRecord, inventoryFromRecords, inventoryRecords } from "../fuzz/stage-files.ts";
import { resolveSource } from "../workspace/source.ts";
import { FuzzConfig, fuzzModeDirs, fuzzReportFiles, type loadConfig, programConfig } from "./config.ts";
import { positiveInt } from "./flags.ts";
import { registerCoverageCommands } from "./fuzz-coverage.ts";
import { interruptController } from "./interrupt.ts";
import { progressReporter } from "./progress.ts";

/**
 * `gauntlet fuzz …`: the ABTest pipeline, whole (`run`) or stage by stage, each stage reading the previous
 * stage's file so any stage can be re-run, reviewed or committed.
 */

const FAIL_ON = ["critical", "expected_outcome", "minor", "never"] as const;
const RANK = { critical: 3, expected_outcome: 2, minor: 1 } as const;

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The repository all cases of a case file were built for. @throws InputError when they disagree */
function repositoryOfCases(file: string): string | undefined {
  const specs = [...new Set(readJsonl(file, FuzzCase).map((c) => c.repository.spec))];
  if (specs.length > 1)
    throw new InputError(
      { file },
      `cases were built for several repositories (${specs.join(", ")})`,
      "pass --repo to choose one, or split the file",
    );
  return specs[0];
}

/** @throws InputError when the cases were built for another repository than `repo` */
function checkCasesRepository(file: string, repo: string): void {
  const other = readJsonl(file, FuzzCase).find((c) => c.repository.spec !== repo);
  if (other)
    throw new InputError(
      { file, field: "repository.spec" },
      `case ${other.caseId} was built for ${other.repository.spec}, not ${repo}`,
      "run it on the repository it was built for (omit --repo to use it), or instantiate cases for this repository",
    );
}

/** Effective fuzz options: flags over gauntlet.yaml over defaults. */
function fuzzOptions(config: ReturnType<typeof loadConfig>, flags: Record<string, unknown>) {
  const merged = {
    ...config.fuzz,
    ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)),
  };
  const parsed = FuzzConfig.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(
      { field: issue.path.join(".") },
      issue.message,
      "fix the flag or the gauntlet.yaml field; see --help",
    );
  }
  return parsed.data;
}

/** Add `gauntlet fuzz run|inventory|compose|instantiate|check|review|report` to the program. */
export function registerFuzzCommands(program: Command): void {
  const fuzz = program.command("fuzz").description("behaviour-driven fuzzing of coding agents (ABTest)");

  fuzz
    .command("run")
    .description("run the whole pipeline: inventory → compose → instantiate → run → check → report")
    .option("--repo <spec>", "repository: a local path or npm:<name>@<version>")
    .option(
      "--reports <file>",
      "failure-report corpus (JSONL), repeatable [default: the shipped corpus; name it too to add yours]",
      collect,
    )
    .option(
      "--modes <dir>",
      "folder of your own failure-mode YAML files, repeatable (added to data/modes)",
      collect,
    )
    .option(
      "--cases <file>",
      "stage 4 alone: run these cases (e.g. a committed cases.jsonl) instead of generating new ones; --max-cases does not apply",
    )
    .option(
      "--agent <spec>",
      "agent under test, repeatable (scripted:careful, scripted:reckless, claude-code, codex, gemini-cli, opencode, qwen-code, or a name from gauntlet.yaml)",
      collect,
    )
    .option("--max-cases <n>", "cases to instantiate [default: 12]", positiveInt("maxCases"))
    .option(
      "--step-timeout-sec <n>",
      "per-step time limit in seconds [default: from a calibration run of the project's tests: 30 s (scripted) or 120 s (real agents) + 4× the test time]",
      positiveInt("stepTimeoutSec"),
    )
    .addOption(
      new Option("--on-timeout <what>", "after a step timeout [default: continue]").choices([
        "continue",
        "stop",
      ]),
    )
    .option("--jobs <n>", "cases run in parallel [default: 2]", positiveInt("jobs"))
    .option("--keep", "keep workspaces after the run")
    .option(
      "--no-sandbox",
      "do not confine agents with bubblewrap (by default they are, when bwrap is installed)",
    )
    .option(
      "--pass-env <name>",
      "environment variable passed to agents, repeatable (e.g. an API key)",
      collect,
    )
    .option(
      "--placer <model>",
      "model placing reports in failure modes [default: rules (the modes' recognisers)]",
    )
    .option(
      "--screener <model>",
      "model of the compatibility screener, e.g. openai:gpt-4o-mini [default: rules]",
    )
    .option("--task-generator <model>", "model of the task generator [default: rules]")
    .option("--reviewer <model>", "model giving each finding a second opinion [default: none]")
    .option(
      "--replay <file>",
      "answer every model call from an earlier run's model-calls.jsonl (no live calls)",
    )
    .option("--resume <run-id>", "resume an interrupted run: finished cases are skipped, none redone")
    .addOption(
      new Option("--fail-on <class>", "exit 1 when a finding of this class or worse exists")
        .choices([...FAIL_ON])
        .default("critical"),
    )
    .action(async (flags) => {
      const progress = progressReporter();
      let runOptions: Parameters<typeof runFuzzCampaign>[0];
      const config = programConfig(program);
      if (flags.resume !== undefined) {
        if (!flags.resume)
          throw new InputError(
            { field: "resume" },
            "empty run id",
            "pass the id printed when the run started",
          );
        const ignored = [
          "repo",
          "reports",
          "cases",
          "agent",
          "maxCases",
          "stepTimeoutSec",
          "onTimeout",
          "jobs",
          "keep",
          "passEnv",
          "modes",
          "placer",
          "screener",
          "taskGenerator",
          "reviewer",
          "replay",
        ].filter((k) => flags[k] !== undefined);
        if (ignored.length)
          progress.log(
            `note: --resume reuses the run's stored options; ignoring ${ignored.map((k) => `--${kebab(k)}`).join(", ")}`,
          );
        runOptions = {
          resumeRunId: flags.resume,
          modelLimits: { budget: config.models.budget, prices: config.models.prices },
        };
      } else {
        const o = fuzzOptions(config, {
          repo: flags.repo,
          reports: flags.reports?.length ? flags.reports : undefined,
          agents: flags.agent,
          maxCases: flags.maxCases,
          stepTimeoutSec: flags.stepTimeoutSec,
          onTimeout: flags.onTimeout,
          jobs: flags.jobs,
          keep: flags.keep,
          passEnv: flags.passEnv,
          modes: flags.modes,
          sandbox: flags.sandbox === false ? "off" : undefined,
        });
        const repo = o.repo ?? (flags.cases ? repositoryOfCases(flags.cases) : undefined);
        if (!repo)
          throw new InputError(
            { field: "repo" },
            "no repository given",
            "pass --repo <path|npm:name@version> or set fuzz.repo in gauntlet.yaml",
          );
        if (flags.cases) checkCasesRepository(flags.cases, repo);
        const models = {
          ...config.models,
          ...(flags.placer ? { placer: flags.placer } : {}),
          ...(flags.screener ? { screener: flags.screener } : {}),
          ...(flags.taskGenerator ? { taskGenerator: flags.taskGenerator } : {}),
          ...(flags.reviewer ? { reviewer: flags.reviewer } : {}),
        };
        runOptions = {
          ...o,
          repo,
          reports: fuzzReportFiles(config, flags.reports, DEFAULT_REPORTS),
          modes: fuzzModeDirs(config, flags.modes),
          cases: flags.cases,
          models,
          ...(flags.replay ? { replay: flags.replay } : {}),
        };
      }
      const interrupt = interruptController((sig) =>
        progress.log(`${sig}: stopping the running steps (press again to quit at once)…`),
      );
      const { store, report } = await runFuzzCampaign(runOptions, {
        log: progress.log,
        onProgress: progress.onProgress,
        commandAgents: config.agents,
        signal: interrupt.signal,
      }).finally(() => interrupt.dispose());
      progress.stop();
      if (interrupt.signal.aborted) {
        process.stderr.write(
          `interrupted; finished cases are kept. Resume with: gauntlet fuzz run --resume ${store.runId}\n`,
        );
        process.exitCode = 130;
        return;
      }
      process.stdout.write(`\n${textTable(summaryRows(report))}\n\nreport: ${store.file("report.html")}\n`);
      const kept = report.results.flatMap((r) => (r.workspace ? [r.workspace] : []));
      if (kept.length) process.stdout.write(`kept workspaces:\n${kept.map((w) => `  ${w}`).join("\n")}\n`);
      for (const agent of [...new Set(report.results.map((r) => r.agent))]) {
        const steps = report.results
          .filter((r) => r.agent === agent)
          .flatMap((r) => r.steps.filter((x) => x.status !== "skipped"));
        const blind = steps.filter((x) => !x.commandsObserved).length;
        if (blind)
          process.stderr.write(
            `note: ${agent}: the commands it ran were not observed in ${blind} of ${steps.length} steps, so command-level oracles could not judge them (a command agent can report them: trajectory: jsonl, docs/agents.md)\n`,
          );
      }
      if (report.filtered.length)
        process.stderr.write(
          `warning: ${report.filtered.length} of ${report.results.length} runs were incomplete (first: ${report.filtered[0]!.agent} ${report.filtered[0]!.caseId}: ${report.filtered[0]!.reason})\n`,
        );
      const threshold = flags.failOn as (typeof FAIL_ON)[number];
      const failing =
        threshold === "never"
          ? []
          : report.findings.filter((f) => counts(f) && RANK[f.class] >= RANK[threshold]);
      if (failing.length) {
        process.stderr.write(
          `exit 1: ${failing.length} finding(s) of class ${threshold} or worse (--fail-on ${threshold})\n`,
        );
        process.exitCode = 1;
      }
      if (!failing.length && report.results.length > 0 && report.filtered.length === report.results.length)
        throw new SetupError(
          "no case could be run to the end, so there is nothing to judge",
          "check that the agent runs at all (see the incomplete reasons above and in the report)",
        );
    });

  fuzz
    .command("inventory")
    .description(
      "stage 1: place failure reports in failure modes; mine interaction patterns and action types",
    )
    .option(
      "--reports <file>",
      "failure-report corpus (JSONL), repeatable [default: the shipped corpus]",
      collect,
    )
    .option("--modes <dir>", "folder of your own failure-mode YAML files, repeatable", collect)
    .requiredOption("-o, --out <file>", "output inventory (JSONL) (required)")
    .action(async (flags) => {
      const config = programConfig(program);
      const modes = loadModes(fuzzModeDirs(config, flags.modes)).map((m) => m.mode);
      const inventory = await mineInventory(
        readReportFiles(fuzzReportFiles(config, flags.reports, DEFAULT_REPORTS)),
        modes,
      );
      writeFileSync(flags.out, toJsonl(inventoryRecords(inventory)));
      const unplaced = inventory.placements.filter((p) => p.mode === null).length;
      process.stdout.write(
        `${inventory.reports} reports (${inventory.reports - unplaced} placed, ${unplaced} unplaced) → ${inventory.patterns.length} patterns, ${inventory.actionTypes.length} action types → ${flags.out}\n`,
      );
    });

  fuzz
    .command("compose")
    .description("stage 2: screen pattern × action pairs (ABTest §3.2) into seed templates")
    .requiredOption("--inventory <file>", "inventory (JSONL) from `fuzz inventory`")
    .option("--modes <dir>", "folder of your own failure-mode YAML files, repeatable", collect)
    .requiredOption("-o, --out <file>", "output seed templates (JSONL)")
    .option("--screenings <file>", "also write every screening decision (JSONL)")
    .action(async (flags) => {
      const inventory = inventoryFromRecords(readJsonl(flags.inventory, InventoryRecord));
      const modes = loadModes(fuzzModeDirs(programConfig(program), flags.modes)).map((m) => m.mode);
      const { screenings, templates } = await composeSeedTemplates(inventory, modes);
      writeFileSync(flags.out, toJsonl(templates));
      if (flags.screenings) writeFileSync(flags.screenings, toJsonl(screenings));
      process.stdout.write(
        `${screenings.length} pairs screened → ${templates.length} seed templates → ${flags.out}\n`,
      );
    });

  fuzz
    .command("instantiate")
    .description("stage 3: ground seed templates in a repository as executable cases")
    .requiredOption("--templates <file>", "seed templates (JSONL) from `fuzz compose`")
    .requiredOption("--repo <spec>", "repository: a local path or npm:<name>@<version>")
    .option("--modes <dir>", "folder of your own failure-mode YAML files, repeatable", collect)
    .option("--max-cases <n>", "cases to instantiate", positiveInt("maxCases"), 12)
    .requiredOption("-o, --out <file>", "output cases (JSONL)")
    .action(async (flags) => {
      const templates = readJsonl(flags.templates, SeedTemplate);
      const modes = loadModes(fuzzModeDirs(programConfig(program), flags.modes)).map((m) => m.mode);
      const source = await resolveSource(flags.repo, {
        onProgress: (m: string) => process.stderr.write(`${m}\n`),
      });
      const { cases, rejected } = await instantiateCases(templates, repoContextOf(flags.repo, source), {
        maxCases: flags.maxCases,
        modes,
      });
      writeFileSync(flags.out, toJsonl(cases));
      process.stdout.write(`${cases.length} cases (${rejected.length} templates rejected) → ${flags.out}\n`);
      for (const r of rejected.slice(0, 10))
        process.stdout.write(`  rejected ${r.seedTemplateId}: ${r.reason}\n`);
    });

  registerCoverageCommands(fuzz, program);

  fuzz
    .command("check")
    .description("stage 5: re-run the oracles over a run's results and rewrite its findings and reports")
    .requiredOption("--run <run-id>", "run id")
    .action((flags) => {
      const store = RunStore.open(RunStore.defaultBase(), flags.run);
      const report = rebuildFuzzReports(store);
      process.stdout.write(
        `${report.findings.length} findings (${report.filtered.length} incomplete runs filtered) → ${store.file("findings.jsonl")}\n`,
      );
    });

  fuzz
    .command("review")
    .description(
      "stage 6: write a review file for a run, or apply a reviewed one (precision = confirmed / reported)",
    )
    .requiredOption("--run <run-id>", "run id")
    .option("--apply <file>", "apply the decisions of a review file")
    .option("-o, --out <file>", "where to write the review file", "review.yaml")
    .option("--reviewer <name>", "name recorded with applied decisions", "person")
    .option("--force", "overwrite an existing review file")
    .action((flags) => {
      const store = RunStore.open(RunStore.defaultBase(), flags.run);
      const cases = store.read("cases", FuzzCase);
      const results = store.read("results", CaseResult);
      const findings = applyReviews(
        checkResults(cases, results).findings,
        store.read("reviews", ReviewDecision),
      );
      if (!flags.apply) {
        if (existsSync(flags.out) && !flags.force)
          throw new InputError(
            { file: flags.out },
            "already exists; it may hold your decisions",
            "apply it with --apply, pass another -o, or --force to overwrite",
          );
        writeFileSync(flags.out, renderReviewFile(store.runId, findings));
        process.stdout.write(`${findings.length} findings to review → ${flags.out}\n`);
        return;
      }
      const decisions = parseReviewFile(flags.apply, new Set(findings.map((f) => f.id)), flags.reviewer);
      for (const d of decisions) store.append("reviews", d);
      const report = rebuildFuzzReports(store);
      process.stdout.write(`${decisions.length} decisions applied\n\n${textTable(summaryRows(report))}\n`);
    });

  fuzz
    .command("report")
    .description("stage 7: rebuild report.json, report.md and report.html of a run")
    .requiredOption("--run <run-id>", "run id")
    .action((flags) => {
      const store = RunStore.open(RunStore.defaultBase(), flags.run);
      const report = rebuildFuzzReports(store);
      process.stdout.write(`${textTable(summaryRows(report))}\n\nreport: ${store.file("report.html")}\n`);
    });
}
