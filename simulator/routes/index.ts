/** Every route module of the simulator, one per API area. */
import type { FastifyInstance } from "fastify";
import type { SimContext } from "../context";
import { registerControl } from "./control";
import { registerInstanceCreate } from "./instance-create";
import { registerInstances } from "./instances";
import { registerOffers } from "./offers";
import { registerSshKeys } from "./ssh-keys";

export function registerRoutes(app: FastifyInstance, ctx: SimContext): void {
  registerControl(app, ctx);
  registerInstanceCreate(app, ctx);
  registerInstances(app, ctx);
  registerOffers(app, ctx);
  registerSshKeys(app, ctx);
}
