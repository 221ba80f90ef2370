/** The state file's `teams` (team-types.ts); a file written before teams existed reads as none. */
import { z } from "zod";
import { emptyTeamData } from "./team-types";

const id = z.number().int();
const time = z.number();

export const teamDataSchema = z
  .object({
    teams: z.array(z.object({ id, name: z.string(), ownerUserId: id, keyId: id, transferredCredit: z.number(), createdAt: time, deletedAt: time.nullable() })),
    roles: z.array(z.object({ id, teamId: id, name: z.string(), permissions: z.record(z.string(), z.unknown()), builtIn: z.boolean(), deletedAt: time.nullable() })),
    invitations: z.array(z.object({ id, teamId: id, email: z.string(), role: z.string(), sentAt: time, acceptedAt: time.nullable() })),
    memberships: z.array(z.object({ teamId: id, userId: id, role: z.string(), removedAt: time.nullable() })),
    audit: z.array(z.object({ userId: id, keyId: id, ip: z.string(), route: z.string(), args: z.record(z.string(), z.unknown()), createdAt: time })),
    nextId: z.number().int().positive(),
  })
  .default(emptyTeamData);
