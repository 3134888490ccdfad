/**
 * Helpers for self-contained HTML reports (DESIGN.md "Configuration and outputs": no server, data
 * embedded, opens from disk). Every piece of text passes through {@link esc}.
 */

/** Escape text for HTML element content and attribute values. */
export function esc(text: unknown): string {
  return String(text ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** An HTML table from rows of already-escaped cell HTML (first row is the header). */
export function table(rows: string[][], className = ""): string {
  const [head, ...body] = rows;
  return `<table class="${className}"><thead><tr>${head!.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${body
    .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`)
    .join("")}</tbody></table>`;
}

const CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#5b636e;--line:#d8dee4;--crit:#b42318;--exp:#b54708;--minor:#475467;--ok:#067647;--code:#f6f8fa}
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1200px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:16px 0 6px}
.muted{color:var(--muted)}table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}th{background:var(--code)}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--code)}pre{padding:8px;overflow:auto;max-height:360px;white-space:pre-wrap;word-break:break-word;border:1px solid var(--line)}
.badge{display:inline-block;padding:0 6px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}.critical{background:var(--crit)}.expected_outcome{background:var(--exp)}.minor{background:var(--minor)}.ok{background:var(--ok)}.no{background:var(--crit)}
details{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 10px}summary{cursor:pointer;font-weight:600}
.finding{border-left:4px solid var(--line);padding:4px 0 4px 10px;margin:10px 0}.finding.critical-b{border-color:var(--crit)}.finding.expected_outcome-b{border-color:var(--exp)}.finding.minor-b{border-color:var(--minor)}
.diff-add{color:#067647}.diff-del{color:#b42318}.kv{display:grid;grid-template-columns:160px 1fr;gap:2px 12px}
`;

/** Opens the collapsed sections around a linked element (e.g. an event cited as evidence) and highlights it. */
const SCRIPT = `function gOpen(){var el=document.getElementById(decodeURIComponent(location.hash.slice(1)));if(!el)return;for(var d=el;d;d=d.parentElement)if(d.tagName==="DETAILS")d.open=true;el.scrollIntoView({block:"center"});el.style.background="#fff3c4";}window.addEventListener("hashchange",gOpen);window.addEventListener("load",gOpen);`;

/** A complete HTML document with the shared stylesheet (and a tiny inline script for evidence links). */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body>${body}<script>${SCRIPT}</script></body></html>\n`;
}

/** A unified diff as HTML with added / removed lines coloured. */
export function diffHtml(diff: string): string {
  return `<pre>${diff
    .split("\n")
    .map((l) =>
      l.startsWith("+") && !l.startsWith("+++")
        ? `<span class="diff-add">${esc(l)}</span>`
        : l.startsWith("-") && !l.startsWith("---")
          ? `<span class="diff-del">${esc(l)}</span>`
          : esc(l),
    )
    .join("\n")}</pre>`;
}
