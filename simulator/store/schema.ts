/**
 * The shape a state file must have before the simulator serves from it: a file that parses
 * as JSON but holds, say, a string where a list belongs would otherwise start a server that
 * answers 500 to every call. Mirrors types.ts; the compile-time check below keeps them in step.
 */
import { z } from "zod";
import { networkDataSchema } from "./network-schema";
import type { SimData } from "./types";
import { volumeDataSchema } from "./volume-schema";
import { serverlessSchema } from "./serverless-schema";
import { teamDataSchema } from "./team-schema";

const id = z.number().int();
const time = z.number();

const user = z.object({
  id,
  email: z.string(),
  username: z.string(),
  approvedForSubaccounts: z.boolean(),
  parentId: id.nullable(),
});

const apiKey = z.object({
  id,
  userId: id,
  name: z.string(),
  key: z.string().min(1),
  permissions: z.record(z.string(), z.unknown()).nullable(),
  primary: z.boolean(),
  createdAt: time,
  deletedAt: time.nullable(),
});

const sshKey = z.object({ id, userId: id, publicKey: z.string(), createdAt: time, deletedAt: time.nullable().optional() });

const secret = z.object({ userId: id, name: z.string(), value: z.string() });

const template = z.object({
  id,
  hashId: z.string(),
  creatorId: id,
  createdAt: time,
  countCreated: z.number().int().nonnegative(),
  recentCreateDate: time.nullable(),
  recommended: z.boolean(),
  fields: z.record(z.string(), z.unknown()),
});

const instance = z.object({
  id,
  userId: id,
  offerId: id,
  machineId: id,
  createdAt: time,
  bootStartedAt: time,
  finalStatus: z.string(),
  finalStatusMsg: z.string().optional(),
  statusOverride: z.object({ value: z.string().nullable() }).nullable(),
  intendedStatus: z.string(),
  startQueued: z.boolean(),
  label: z.string().nullable(),
  imageUuid: z.string(),
  templateHashId: z.string().nullable(),
  templateId: id.nullable(),
  env: z.array(z.tuple([z.string(), z.string()])),
  onstart: z.string().nullable(),
  runtype: z.string(),
  argsStr: z.string().nullable(),
  diskSpace: z.number(),
  vm: z.boolean(),
  sshPort: id,
  sshKeyIds: z.array(id),
  extraFilters: z.record(z.string(), z.unknown()),
  volumeInfo: z.record(z.string(), z.unknown()).nullable(),
  volumeId: id.optional(),
  bidPrice: z.number().nullable(),
  dphTotal: z.number().nonnegative().optional(),
  outbid: z.boolean().optional(),
  stoppedMs: z.number().nonnegative().optional(),
  stoppedSince: z.number().optional(),
  prepaid: z.number().nonnegative().optional(),
  reboots: z.number().int().nonnegative().optional(),
  recycles: z.number().int().nonnegative().optional(),
  templateUpdates: z.number().int().nonnegative().optional(),
});

const maintenance = z.object({
  id,
  machineId: id,
  userId: id,
  startTime: time,
  durationHours: z.number(),
  category: z.string(),
  reason: z.string(),
  createdAt: time,
  cancelledAt: time.nullable(),
});

const nextId = z.number().int().positive();

const webhook = z.object({
  id,
  userId: id,
  name: z.string().nullable(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  secret: z.string().min(1),
  createdAt: time,
  updatedAt: time,
});

const scheduledJob = z.object({
  id,
  userId: id,
  instanceId: id,
  apiEndpoint: z.string(),
  requestMethod: z.enum(["GET", "POST", "PUT", "DELETE"]),
  requestBody: z.record(z.string(), z.unknown()),
  frequency: z.enum(["HOURLY", "DAILY", "WEEKLY"]),
  dayOfTheWeek: z.number().int().min(0).max(6).nullable(),
  hourOfTheDay: z.number().int().min(0).max(23).nullable(),
  minOfTheHour: z.number().int().min(0).max(59),
  startTime: z.number(),
  endTime: z.number(),
  createdAt: z.number(),
  lastRunAt: z.number().nullable(),
  lastStatus: z.number().int().nullable(),
  runs: z.number().int().nonnegative(),
});

export const simDataSchema = z.object({
  users: z.array(user),
  apiKeys: z.array(apiKey),
  sshKeys: z.array(sshKey),
  secrets: z.array(secret),
  templates: z.array(template),
  instances: z.array(instance),
  maintenances: z.array(maintenance),
  offerStates: z.record(z.string(), z.enum(["available", "unavailable", "gone"])),
  nextBoot: z.object({ actualStatus: z.string(), remaining: z.number().int().nonnegative(), statusMsg: z.string().optional() }).nullable(),
  marketPrices: z.record(z.string(), z.number().positive()).optional(),
  offerPrices: z.record(z.string(), z.number().positive()).optional(),
  ignoreBids: z.number().int().nonnegative().optional(),
  refuseUpdates: z.record(z.string(), z.string()).optional(),
  machineListings: z
    .record(
      z.string(),
      z.object({
        listed: z.boolean(),
        listed_gpu_cost: z.number(),
        listed_storage_cost: z.number(),
        listed_inet_up_cost: z.number(),
        listed_inet_down_cost: z.number(),
        min_bid_price: z.number(),
        min_chunk: z.number().int(),
        end_date: z.number().nullable(),
        credit_discount_max: z.number(),
        vol_size: z.number().int().nonnegative().optional(),
        vol_price: z.number().nullable().optional(),
        duration: z.string().nullable().optional(),
        defjob: z
          .object({ price_gpu: z.number(), price_inetu: z.number(), price_inetd: z.number(), image: z.string(), args: z.array(z.string()) })
          .nullable(),
      }),
    )
    .optional(),
  machinePorts: z.record(z.string(), z.record(z.string(), z.number().int().min(1).max(65535))).optional(),
  volumes: volumeDataSchema,
  serverless: serverlessSchema,
  nextIds: z.object({ apiKey: nextId, sshKey: nextId, template: nextId, instance: nextId, maintenance: nextId, webhook: nextId.default(1) }),
  webhooks: z.array(webhook).default([]),
  networks: networkDataSchema,
  scheduledJobs: z.object({ nextId: nextId, jobs: z.array(scheduledJob) }).optional(),
  endedContracts: z
    .array(z.object({ userId: id, instanceId: id, offerId: id, label: z.string().nullable(), templateId: id.nullable(), diskGb: z.number(), start: time, end: time, stoppedS: z.number().nonnegative().optional() }))
    .default([]),
  endedVolumes: z.array(z.object({ userId: id, volumeId: id, offerId: id, sizeGb: z.number(), start: time, end: time })).default([]),
  teams: teamDataSchema,
});

export const stateFileSchema = z.object({
  format: z.literal("pulumi-vastai-simulator-state"),
  version: z.literal(1),
  data: simDataSchema,
});

// Fails to compile when types.ts and this schema drift apart, in either direction.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inStep: Same<z.infer<typeof simDataSchema>, SimData> = true;
void inStep;

/** `data.apiKeys[0].id` from zod's path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out || "(the whole file)";
}
