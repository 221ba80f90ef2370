/** Input rules shared by the cluster and overlay resources. */
import { z } from "zod";

const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** An IPv4 subnet in CIDR form. */
export const subnetRule = z.string({ error: "must be a string such as 10.0.0.0/24" }).superRefine((v, ctx) => {
  const m = CIDR.exec(v);
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) > 32) ctx.addIssue({ code: "custom", message: "must be an IPv4 subnet in CIDR form such as 10.0.0.0/24" });
});

/** A service id: a positive whole number. */
export const idRule = (what: string) => z.number({ error: `must be a number (${what})` }).int(`must be a whole number (${what})`).positive(`must be greater than 0 (${what})`);

/** A numeric Pulumi id, or a clear error. */
export function numericId(type: string, id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${type} id "${id}" is not a numeric id`);
  return n;
}
