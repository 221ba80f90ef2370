/** The `importId` input (adopt.ts), apart so that inputs.ts can load it without a cycle. */
import { z } from "zod";

export const IMPORT_INPUTS = {
  importId: z
    .string({ error: "must be a string: the service's id of an existing instance" })
    .regex(/^\d+$/, "must be digits only (the service's instance id, as `vastai show instances` lists it)")
    .optional(),
};

