/** The state file's `networks` (network-types.ts); a file written before clusters existed reads as none. */
import { z } from "zod";
import { emptyNetworkData } from "./network-types";

const id = z.number().int();

export const networkDataSchema = z
  .object({
    clusters: z.array(z.object({ id, userId: id, subnet: z.string(), machineIds: z.array(id), managerId: id })),
    overlays: z.array(z.object({ id, userId: id, clusterId: id, name: z.string(), internalSubnet: z.string(), instanceIds: z.array(id) })),
    nextClusterId: z.number().int().positive(),
    nextOverlayId: z.number().int().positive(),
  })
  .default(emptyNetworkData);
