/** Wire schemas of a host's volume listing calls (vendor client: list/unlist volume, list/unlist network volume). */
import { z } from "zod";

/** The list answers: `{success, msg}` (the vendor's client prints `msg`, or the whole answer). */
export const volumeListingAnswer: z.ZodType<{ message: string | null }> = z
  .looseObject({ success: z.boolean().optional(), msg: z.string().optional() })
  .transform((r) => ({ message: r.msg ?? null }));
