/** Every route module of the simulator, one per API area. */
import type { FastifyInstance } from "fastify";
import type { SimContext } from "../context";
import { registerAccounts } from "./accounts";
import { registerApiKeys } from "./api-keys";
import { registerControl } from "./control";
import { registerCopy } from "./copy";
import { registerEarnings } from "./earnings";
import { registerInstanceActions } from "./instance-actions";
import { registerInstanceCreate } from "./instance-create";
import { registerInstanceUpdate } from "./instance-update";
import { registerInstances } from "./instances";
import { registerMachines } from "./machines";
import { registerMachineListings } from "./machine-listings";
import { registerMaintenances } from "./maintenances";
import { registerOffers } from "./offers";
import { registerSecrets } from "./secrets";
import { registerServerless } from "./serverless";
import { registerServerlessObjects } from "./serverless-objects";
import { registerSshKeys } from "./ssh-keys";
import { registerTemplates } from "./templates";
import { registerVolumeListings } from "./volume-listings";
import { registerVolumes } from "./volumes";
import { registerWebhooks } from "./webhooks";
import { registerClusters } from "./clusters";
import { registerScheduledJobs } from "./scheduled-jobs";
import { registerBilling } from "./billing";
import { registerTeams } from "./teams";

export function registerRoutes(app: FastifyInstance, ctx: SimContext): void {
  for (const register of [
    registerControl,
    registerAccounts,
    registerApiKeys,
    registerSshKeys,
    registerSecrets,
    registerTemplates,
    registerInstanceCreate,
    registerInstances,
    registerInstanceActions,
    registerInstanceUpdate,
    registerOffers,
    registerCopy,
    registerMachines,
    registerMachineListings,
    registerMaintenances,
    registerServerless,
    registerServerlessObjects,
    registerEarnings,
    registerVolumes,
    registerVolumeListings,
    registerWebhooks,
    registerClusters,
    registerScheduledJobs,
    registerBilling,
    registerTeams,
  ]) {
    register(app, ctx);
  }
}
