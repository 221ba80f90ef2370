/**
 * Printing the figures of the reliability suite. Tables go straight to stdout (not through
 * console.log, which jest decorates), so `npm test` and `npm run test:faults` show them as is.
 */
import type { Cell } from "./matrix";

export function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Rows (operation) by columns (fault), each cell its outcome. */
export function matrixTable(cells: readonly Cell[], faults: readonly string[]): string {
  const rows = [...new Set(cells.map((c) => c.row))];
  const at = new Map(cells.map((c) => [`${c.row}\n${c.fault}`, c.outcome]));
  const table = rows.map((row) => [row, ...faults.map((f) => at.get(`${row}\n${f}`) ?? "-")]);
  const header = ["operation \\ fault", ...faults];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((v, i) => v.padEnd(widths[i])).join(" | ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("-|-"), ...table.map(line)].join("\n");
}

export function summary(cells: readonly Cell[], ms: number): string {
  const counts = new Map<string, number>();
  for (const c of cells) {
    const key = c.outcome.startsWith("partial(") ? "partial" : c.outcome;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`);
  const requests = cells.reduce((n, c) => n + c.requests, 0);
  const bad = cells.filter((c) => c.bad).length;
  return `${cells.length} cells in ${(ms / 1000).toFixed(1)} s, ${requests} API requests by the operations; ${parts.join(", ")}; bad ${bad}`;
}

/** Details of the cells that failed, and one sample error message per outcome kind. */
export function details(cells: readonly Cell[]): string {
  const lines = cells.filter((c) => c.bad).map((c) => `  BAD ${c.row} x ${c.fault}: ${c.detail ?? c.outcome}`);
  return lines.join("\n");
}
