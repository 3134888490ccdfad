/** Plain-text and Markdown tables shared by every suite's reports. */

/** A plain-text table with aligned columns (first row is the header). */
export function textTable(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** A Markdown table (first row is the header); pipes and newlines in cells are escaped. */
export function mdTable(rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const [head = [], ...body] = rows;
  return [
    `| ${head.map(esc).join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...body.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}
