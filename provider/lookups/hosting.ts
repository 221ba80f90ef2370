/** Lookups for hosts: one machine's details and the earnings chart. */
import * as pulumi from "@pulumi/pulumi";
import type { EarningsChart, Machine } from "../client/types-account";
import { LookupOptions, clientOf, outputVariant, positiveInt } from "./common";

/** Details of one machine the account hosts. Throws when the account hosts no machine with this id. */
export async function getMachine(machineId: number, options?: LookupOptions): Promise<Machine> {
  const id = positiveInt("getMachine", "machineId", machineId);
  const machine = await clientOf(options).machines.get(id);
  if (!machine) throw new Error(`getMachine: machine ${id} is not a machine this account hosts (the service found none with that id)`);
  return machine;
}
/** `getMachine` with Pulumi inputs, as an Output. */
export const getMachineOutput = outputVariant(getMachine);

/** Every machine the account hosts (`GET /api/v0/machines/`; the caller's user id is looked up once). */
export function getMachines(options?: LookupOptions): Promise<Machine[]> {
  return clientOf(options).machines.list();
}
/** `getMachines` as an Output. */
export function getMachinesOutput(options?: LookupOptions): pulumi.Output<Machine[]> {
  return pulumi.output(getMachines(options));
}

/**
 * Query parameters of the earnings chart. The service does not document them; they are sent
 * as given (the simulator reads `start` and `end` in Unix seconds and `bucket`: hour, day or week).
 */
export type EarningsChartParams = Record<string, string | number | boolean | undefined>;

/** The bucketed earnings series of the account's machines. `raw` holds the whole response. */
export function getEarningsChart(params: EarningsChartParams = {}, options?: LookupOptions): Promise<EarningsChart> {
  const query: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query[k] = v;
  return clientOf(options).earnings.chart(query);
}
/** `getEarningsChart` with Pulumi inputs, as an Output. */
export const getEarningsChartOutput = outputVariant(getEarningsChart);
