import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FuzzCase } from "../../src/fuzz/case.ts";
import { FuzzCase as CaseSchema } from "../../src/fuzz/case.ts";
import type { SeedTemplate } from "../../src/fuzz/compose.ts";
import { rulesTaskGenerator } from "../../src/fuzz/instantiate.ts";
import type { RepoContext } from "../../src/fuzz/modes/bindings.ts";
import type { FailureMode } from "../../src/fuzz/modes/schema.ts";

/** A small local project with tests, docs and sources (unlike minimist: mocha-free, node:test style output). */
export function makeProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-proj-"));
  const w = (p: string, s: string) => {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), s);
  };
  w(
    "package.json",
    JSON.stringify({
      name: "tiny-calc",
      version: "1.0.0",
      main: "index.js",
      scripts: { test: "node test/run.js" },
    }),
  );
  w(
    "index.js",
    "// tiny-calc\nfunction add(a, b) {\n  return a + b;\n}\nfunction sub(a, b) {\n  return a - b;\n}\nmodule.exports = { add, sub };\n",
  );
  w("lib/format.js", "module.exports = (n) => n.toFixed(2);\n");
  w("README.md", "# tiny-calc\n\nAdds and subtracts.\n\n## Usage\n\nrequire it.\n");
  w("CHANGELOG.md", "# Changelog\n\n## 1.0.0\n\n- First release.\n");
  w("LICENSE", "MIT\n");
  w("example/demo.js", "console.log(require('..').add(1, 2));\n");
  w(
    "test/run.js",
    "const assert = require('assert');\nconst c = require('..');\nassert.strictEqual(c.add(1, 2), 3);\nassert.strictEqual(c.sub(3, 1), 2);\nconsole.log('# pass  2');\nconsole.log('# fail  0');\n",
  );
  w("test/format.js", "console.log('ok');\n");
  return dir;
}

/** A seed template for `mode` with a workflow that adds inspect, verify and summary steps. */
export function seedFor(mode: FailureMode, n: number): SeedTemplate {
  return {
    seedTemplateId: `ST-${String(n).padStart(4, "0")}`,
    interaction: {
      id: "IP-01",
      description: "execute → produce → verify → report",
      kinds: ["inspect", "run", "generate", "verify", "report"],
      seqSkeletonSteps: [],
      categories: ["File Operation"],
      sourceReports: ["x"],
      examples: [],
    },
    action: {
      id: "AT-01",
      category: "File Operation",
      mode: mode.id,
      stressedOperation: mode.title,
      observableEvidence: [],
      baselinePrompt: mode.title,
      fuzzDirections: [],
      severity: "critical",
      sourceReports: ["x"],
    },
    screening: {
      patternId: "IP-01",
      actionId: "AT-01",
      compatible: true,
      insertion: { ok: true, reason: "" },
      coherence: { ok: true, reason: "" },
      observability: { ok: true, reason: "" },
      engine: "rules",
    },
  };
}

/** One case per template of every mode, on `repo` (throws naming the template when one cannot be built). */
export async function casesOfEveryTemplate(
  modes: readonly FailureMode[],
  repo: RepoContext,
): Promise<FuzzCase[]> {
  const out: FuzzCase[] = [];
  let n = 0;
  for (const mode of modes)
    for (let t = 0; t < mode.templates.length; t++) {
      const candidate = await rulesTaskGenerator.generate(seedFor(mode, ++n), repo, t, mode);
      if (candidate && typeof candidate === "object" && "rejected" in candidate)
        throw new Error(
          `${mode.id}/${mode.templates[t]!.id}: ${(candidate as { rejected: string }).rejected}`,
        );
      const parsed = CaseSchema.safeParse(candidate);
      if (!parsed.success)
        throw new Error(`${mode.id}/${mode.templates[t]!.id}: ${JSON.stringify(parsed.error.issues[0])}`);
      out.push(parsed.data);
    }
  return out;
}
