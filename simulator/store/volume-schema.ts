/** The state file's `volumes` (volume-types.ts); a file written before volumes existed reads as none. */
import { z } from "zod";
import { emptyVolumeData } from "./volume-types";

const id = z.number().int();

const volume = z.object({
  id,
  userId: id,
  kind: z.enum(["local", "network"]),
  offerId: id,
  machineId: id.nullable(),
  clusterId: id.nullable(),
  name: z.string(),
  sizeGb: z.number().int().positive(),
  createdAt: z.number(),
});

const listing = z.object({
  id,
  userId: id,
  kind: z.enum(["local", "network"]),
  machineId: id.nullable(),
  diskId: id.nullable(),
  clusterId: id.nullable(),
  sizeGb: z.number().int().positive(),
  priceDisk: z.number().nonnegative(),
  endDate: z.number(),
});

export const volumeDataSchema = z
  .object({
    listings: z.array(listing).optional(),
    items: z.array(volume),
    nextId: z.number().int().positive(),
    offerStates: z.record(z.string(), z.enum(["available", "gone"])),
  })
  .default(emptyVolumeData);
