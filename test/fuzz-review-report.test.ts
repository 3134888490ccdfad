import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Finding } from "../src/core/finding.ts";
import { buildFuzzReport, renderFuzzMarkdown } from "../src/fuzz/report.ts";
import { renderFuzzHtml } from "../src/fuzz/report-html.ts";
import { applyReviews, parseReviewFile, precision, renderReviewFile } from "../src/fuzz/review.ts";
import { makeCase, makeResult, makeStep, step } from "./helpers/fuzz-fixtures.ts";

const finding = (id: string, cls: Finding["class"] = "critical"): Finding => ({
  id,
  agent: "a",
  caseId: "T-1",
  stepId: "S01",
  oracle: "unexpected-deletion",
  class: cls,
  title: "deleted `<LICENSE>` without being asked",
  evidence: { events: ["S01-e1"], paths: ["LICENSE"], quotes: ["<script>alert(1)</script>"] },
  review: { status: "unreviewed" },
});

describe("fuzz review (ABTest §4.4)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "gauntlet-review-"));
  const findings = [finding("f1"), finding("f2", "minor"), finding("f3", "expected_outcome")];

  it("round-trips a review file and computes precision = confirmed / reported", () => {
    const file = path.join(dir, "review.yaml");
    const text = renderReviewFile("run-1", findings)
      .replace(/(id: f1[\s\S]*?status: )unreviewed/, "$1confirmed")
      .replace(/(id: f2[\s\S]*?status: )unreviewed/, "$1rejected");
    writeFileSync(file, text);
    const decisions = parseReviewFile(file, new Set(findings.map((f) => f.id)), "alice");
    const reviewed = applyReviews(findings, decisions);
    expect(reviewed.map((f) => f.review.status)).toEqual(["confirmed", "rejected", "unreviewed"]);
    expect(reviewed[0]!.review.reviewer).toBe("alice");
    expect(reviewed[0]!.evidence).toEqual(findings[0]!.evidence);
    expect(precision(reviewed)).toEqual({ reported: 3, reviewed: 2, confirmed: 1, precision: 1 / 3 });
  });

  it("names the line of a bad status and of an unknown finding id", () => {
    const bad = path.join(dir, "bad.yaml");
    writeFileSync(bad, "findings:\n  - id: f1\n    status: maybe\n");
    expect(() => parseReviewFile(bad, new Set(["f1"]))).toThrow(/bad\.yaml:3: field "findings\.0\.status"/);
    writeFileSync(bad, "findings:\n  - id: nope\n    status: confirmed\n");
    expect(() => parseReviewFile(bad, new Set(["f1"]))).toThrow(
      /bad\.yaml:2: field "findings\.0\.id": no finding with id "nope"/,
    );
  });
});

describe("fuzz report", () => {
  const c = makeCase([step(1, "Delete <x>", {})]);
  const r = makeResult(
    [
      makeStep("S01", {
        seeded: [
          { id: "moves-unrequested-file", oracle: "unexpected-deletion", class: "critical", stepId: "S01" },
        ],
      }),
    ],
    { agent: "a" },
  );

  it("matches seeded misbehaviours with findings for recall", () => {
    const found = buildFuzzReport({
      runId: "r",
      repository: { spec: "x" },
      cases: [c],
      results: [r],
      findings: [finding("f1")],
      filtered: [],
    });
    expect(found.expectedVsFound).toEqual([
      {
        agent: "a",
        caseId: "T-1",
        stepId: "S01",
        misbehaviour: "moves-unrequested-file",
        oracle: "unexpected-deletion",
        class: "critical",
        found: true,
        findingId: "f1",
      },
    ]);
    expect(found.agents[0]!.recall).toBe(1);
    const missed = buildFuzzReport({
      runId: "r",
      repository: { spec: "x" },
      cases: [c],
      results: [r],
      findings: [finding("f9", "minor")],
      filtered: [],
    });
    expect(missed.agents[0]!.recall).toBe(0);
    expect(renderFuzzMarkdown(missed)).toContain("**NO**");
  });

  it("escapes every piece of agent-controlled text in the HTML page", () => {
    const report = buildFuzzReport({
      runId: "r",
      repository: { spec: "x" },
      cases: [c],
      results: [r],
      findings: [finding("f1")],
      filtered: [],
    });
    const html = renderFuzzHtml(report);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<link|<script src/);
  });
});
