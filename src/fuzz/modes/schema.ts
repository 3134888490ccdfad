import { z } from "zod";
import { Misbehaviour, StepIntent } from "../../agents/coding/intent.ts";
import { CASE_FIELDS, CaseRule, GitSetup, intentIssues, policyIssues } from "../case.ts";
import { ORACLES } from "../oracles/index.ts";
import { PHASES } from "../step-kinds.ts";
import { placeholdersIn, unknownPlaceholder } from "./bindings.ts";

/**
 * A failure mode as data (ABTest §3.1–3.3 made declarative): how failure reports are recognised as this
 * mode, where in a workflow its stressed operation fits, one or more case templates (multi-step, the trap
 * set up before the stressed step), and the oracles that observe it. One YAML file per mode; the shipped
 * library is `data/modes/`, users add their own with `--modes <dir>`. `gauntlet schema failure-mode` prints
 * the JSON Schema.
 *
 * Template strings may use `{{name}}` placeholders bound from the repository when a case is instantiated
 * (see bindings.ts for the list, e.g. `{{test_command}}`, `{{source_file}}`, `{{dir:out}}`); a template whose
 * placeholders a repository cannot bind is rejected for it with the reason.
 */

/** Report fields a signal may look at (the corpus's snake_case names). */
export const REPORT_FIELDS = [
  "title",
  "summary",
  "user_intent",
  "observed_behaviour",
  "expected_behaviour",
  "interaction_pattern",
  "action_type",
  "stressed_operation",
  "observable_signal",
] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];

const regexString = z
  .string()
  .min(1)
  .max(600)
  .superRefine((source, ctx) => {
    try {
      new RegExp(source, "i");
    } catch (error) {
      ctx.addIssue({
        code: "custom",
        message: `not a valid regular expression: ${(error as Error).message}`,
      });
    }
  });

export const Signal = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{2,60}$/, "kebab-case id"),
    in: z.array(z.enum(REPORT_FIELDS)).min(1).describe("Report fields the pattern is matched against."),
    match: regexString.describe("JavaScript regular expression, matched case-insensitively."),
    weight: z
      .number()
      .int()
      .min(-10)
      .max(10)
      .default(1)
      .describe("Score added when it matches (negative: counter-evidence)."),
  })
  .strict()
  .describe("One piece of evidence that a report shows this failure mode.");
export type Signal = z.infer<typeof Signal>;

export const Recogniser = z
  .object({
    threshold: z
      .number()
      .int()
      .positive()
      .max(50)
      .describe("Least total weight for a report to be placed here."),
    signals: z.array(Signal).min(1).max(30),
  })
  .strict()
  .describe("How reports are recognised: the weights of the matching signals are summed.");

export const TemplateStep = z
  .object({
    instruction: z.string().min(1).max(1000).describe("The prompt, with placeholders."),
    intent: StepIntent.default(StepIntent.parse({})),
    timeoutSec: z.number().positive().max(86_400).optional(),
    misbehaviour: Misbehaviour.optional().describe(
      "Marks the stressed step: what scripted:reckless does here (each tied to real report ids).",
    ),
  })
  .strict();
export type TemplateStep = z.infer<typeof TemplateStep>;

export const CaseTemplate = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{2,60}$/, "kebab-case id"),
    description: z.string().max(400).optional(),
    steps: z.array(TemplateStep).min(1).max(7),
    setup: z
      .object({
        files: z
          .array(
            z
              .object({
                path: z.string().min(1).max(240),
                content: z.string().max(16_384),
                executable: z.boolean().default(false),
              })
              .strict(),
          )
          .max(8)
          .default([]),
        git: GitSetup.optional(),
      })
      .strict()
      .default({ files: [] }),
    env: CASE_FIELDS.env,
    plantedSecrets: CASE_FIELDS.plantedSecrets,
    rules: z
      .array(CaseRule)
      .max(4)
      .default([])
      .describe("Standing rules; `fromStep` names a step of the template (`S02`: its second step)."),
    protectedPaths: z.array(z.string().min(1).max(240)).max(8).default([]),
    protectedRegions: CASE_FIELDS.protectedRegions,
    testFiles: CASE_FIELDS.testFiles,
    checks: CASE_FIELDS.checks,
    rollbackSteps: z.array(z.number().int().min(1).max(7)).default([]).describe("1-based step numbers."),
    postRollbackVerificationSteps: z.array(z.number().int().min(1).max(7)).default([]),
    rollbackFailurePatterns: z.array(z.string().max(100)).max(8).default([]),
  })
  .strict()
  .describe("A multi-step case template of the mode; its variants should differ in more than file names.");
export type CaseTemplate = z.infer<typeof CaseTemplate>;

export const FailureMode = z
  .object({
    id: z.string().regex(/^[a-z0-9-]{3,60}$/, "kebab-case id"),
    title: z.string().min(3).max(120),
    description: z.string().min(10).max(1200),
    priority: z
      .number()
      .int()
      .min(-10)
      .max(10)
      .default(0)
      .describe("Breaks ties between modes with the same score (higher wins)."),
    recognise: Recogniser,
    untestable: z
      .string()
      .min(10)
      .max(400)
      .optional()
      .describe(
        "Set for a class of reports no workspace run can observe (UI, an app or service bug, the CLI's own output): " +
          "why. Reports recognised here are listed as unplaced with this reason (ABTest §3.1 keeps only reports " +
          "that map to repository-grounded task execution). Such a mode has no phases, oracles or templates.",
      ),
    phases: z
      .array(z.enum(PHASES))
      .default([])
      .describe(
        "Workflow phases that give the stressed operation a natural insertion point (ABTest §3.2 criterion 1).",
      ),
    oracles: z.array(z.string().min(1)).default([]).describe("Oracles that observe this mode (their names)."),
    templates: z.array(CaseTemplate).max(8).default([]),
  })
  .strict()
  .superRefine((mode, ctx) => {
    if (mode.untestable) {
      for (const key of ["phases", "oracles", "templates"] as const)
        if (mode[key].length)
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: "an untestable mode has none: remove it, or remove `untestable`",
          });
      return;
    }
    for (const key of ["phases", "oracles", "templates"] as const)
      if (!mode[key].length)
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "needs at least one (or set `untestable` with the reason)",
        });
    const oracles = new Set(ORACLES.map((o) => o.name));
    const known = [...oracles].join(", ");
    mode.oracles.forEach((name, i) => {
      if (!oracles.has(name))
        ctx.addIssue({
          code: "custom",
          path: ["oracles", i],
          message: `no oracle "${name}" (known: ${known})`,
        });
    });
    mode.templates.forEach((t, ti) => {
      for (const name of placeholdersIn(t)) {
        const problem = unknownPlaceholder(name);
        if (problem) ctx.addIssue({ code: "custom", path: ["templates", ti], message: problem });
      }
      // Paths and the test command are alike across many packages; the package name or the marker is not.
      const grounded = t.steps.some((s) =>
        [...placeholdersIn(s.instruction)].some((p) => p === "package_name" || p === "marker"),
      );
      if (!grounded)
        ctx.addIssue({
          code: "custom",
          path: ["templates", ti, "steps"],
          message:
            "no instruction names {{package_name}} or {{marker}}, so two packages with the same layout would get identical cases",
        });
      const stressed = t.steps.flatMap((s, si) => (s.misbehaviour ? [si] : []));
      if (stressed.length !== 1)
        ctx.addIssue({
          code: "custom",
          path: ["templates", ti, "steps"],
          message: `exactly one step must carry a misbehaviour (the stressed step); found ${stressed.length}`,
        });
      t.rules.forEach((r, ri) => {
        for (const issue of policyIssues(r.commands, r.forbidTools))
          ctx.addIssue({
            code: "custom",
            path: ["templates", ti, "rules", ri, ...issue.path],
            message: issue.message,
          });
      });
      t.steps.forEach((s, si) => {
        for (const issue of intentIssues(s.intent))
          ctx.addIssue({
            code: "custom",
            path: ["templates", ti, "steps", si, "intent", ...issue.path],
            message: issue.message,
          });
        if (s.misbehaviour && !oracles.has(s.misbehaviour.oracle))
          ctx.addIssue({
            code: "custom",
            path: ["templates", ti, "steps", si, "misbehaviour", "oracle"],
            message: `no oracle "${s.misbehaviour.oracle}" (known: ${known})`,
          });
        if (s.misbehaviour && !mode.oracles.includes(s.misbehaviour.oracle))
          ctx.addIssue({
            code: "custom",
            path: ["templates", ti, "steps", si, "misbehaviour", "oracle"],
            message: `"${s.misbehaviour.oracle}" is not among the mode's oracles (${mode.oracles.join(", ")})`,
          });
      });
      for (const key of ["rollbackSteps", "postRollbackVerificationSteps"] as const)
        t[key].forEach((n, i) => {
          if (n > t.steps.length)
            ctx.addIssue({ code: "custom", path: ["templates", ti, key, i], message: `no step ${n}` });
        });
    });
  })
  .describe("A failure mode of coding agents, as data: recognisers, case templates, oracles.");
export type FailureMode = z.infer<typeof FailureMode>;
