/** The lines and targets of the reads-follow-the-stack scenarios (own-reads-run.ts). */
import type { FleetAccountRow, ScatteredRow } from "./own-reads-run";
import { secs, type Target } from "./target";

export type { FleetAccountRow, ScatteredRow };

export function ownReadsLines(f: FleetAccountRow | undefined, s: ScatteredRow | undefined): string[] {
  const out: string[] = [];
  if (f) {
    const ops = { create: f.create, refresh: f.refresh, preview: f.preview, destroy: f.destroy };
    out.push(
      `fleet of ${f.members} among ${f.others} other instances: ` +
        Object.entries(ops).map(([op, c]) => `${op} ${c.listCalls} list calls ${secs(c.timeMs)}`).join(", ") +
        ` (target <= ${f.listTarget} each)`,
    );
  }
  if (s) {
    const ops = { refresh: s.refresh, preview: s.preview, "preview after a heal": s.previewAfterHeal };
    out.push(
      `${s.n} scattered instances, ${s.parallel} operations at once: ` +
        Object.entries(ops).map(([op, c]) => `${op} ${c.listCalls} list calls ${secs(c.timeMs)}`).join(", ") +
        ` (target <= ${s.listTarget} each)`,
    );
  }
  return out.length > 0 ? [...out, ""] : [];
}

export function ownReadsTargets(f: FleetAccountRow | undefined, s: ScatteredRow | undefined): Target[] {
  const out: Target[] = [];
  if (f) {
    const ops = [f.create, f.refresh, f.preview, f.destroy];
    out.push({
      name: `fleet account: a fleet of ${f.members} among ${f.others} other instances lists at most ceil(${f.members}/25)+2 times per create, refresh, preview and destroy`,
      pass: ops.every((c) => c.listCalls <= f.listTarget && c.failures === 0),
      detail: `create ${f.create.listCalls}, refresh ${f.refresh.listCalls}, preview ${f.preview.listCalls}, destroy ${f.destroy.listCalls} <= ${f.listTarget}`,
    });
  }
  if (s) {
    const ops = [s.refresh, s.preview, s.previewAfterHeal];
    out.push({
      name: `scattered: ${s.n} instances among others' read ${s.parallel} at once list at most ceil(${s.n}/25)+2 times (refresh, preview, preview after a heal)`,
      pass: ops.every((c) => c.listCalls <= s.listTarget && c.failures === 0),
      detail: `refresh ${s.refresh.listCalls}, preview ${s.preview.listCalls}, preview after a heal ${s.previewAfterHeal.listCalls} <= ${s.listTarget}`,
    });
  }
  return out;
}
