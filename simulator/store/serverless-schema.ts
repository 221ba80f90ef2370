/** The state-file shape of the serverless objects (serverless-types.ts); older files without them load empty. */
import { z } from "zod";
import { emptyServerless } from "./serverless-types";

const id = z.number().int();
const num = z.number();

const endpoint = z.object({
  id,
  userId: id,
  name: z.string(),
  minLoad: num,
  minColdLoad: num,
  targetUtil: num,
  coldMult: num,
  coldWorkers: id,
  maxWorkers: id,
  maxQueueTime: num.nullable(),
  targetQueueTime: num.nullable(),
  inactivityTimeout: id.nullable(),
  apiKey: z.string().min(1),
  state: z.string(),
  createdAt: num,
});

const workerGroup = z.object({
  id,
  userId: id,
  endpointId: id,
  templateHash: z.string().nullable(),
  templateId: id.nullable(),
  searchParams: z.string(),
  launchArgs: z.string().nullable(),
  gpuRam: num.nullable(),
  testWorkers: id,
  coldWorkers: id.nullable(),
  minLoad: num.nullable(),
  targetUtil: num.nullable(),
  coldMult: num.nullable(),
  apiKey: z.string().min(1),
  workerIds: z.array(id),
  createdAt: num,
});

export const serverlessSchema = z
  .object({
    endpoints: z.array(endpoint),
    workerGroups: z.array(workerGroup),
    nextEndpointId: z.number().int().positive(),
    nextWorkerGroupId: z.number().int().positive(),
    undeletableWorkers: z.array(id),
  })
  .default(emptyServerless);
