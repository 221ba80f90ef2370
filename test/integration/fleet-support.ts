/**
 * The preamble every Fleet provider test shares: the simulator with fast instance settings, the
 * Fleet provider driven in-process, claims reset before each test, and `checked` (the inputs of
 * a check that must pass, as the engine would send them for `proj/dev/Fleet/workers`).
 */
import { drive } from "./account-resources-support";
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import type { SimulatorOptions } from "pulumi-vastai/simulator";

type Props = Record<string, unknown>;

/** The offer and image most Fleet tests start from. */
export const FLEET_BASE = { offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch" };

export function useFleetProvider(simulator?: SimulatorOptions) {
  const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, ...(simulator ? { simulator } : {}) });
  const fleet = drive(providers.fleet);
  beforeEach(() => resetClaims());
  async function checked(news: Props, olds: Props = {}): Promise<Props> {
    const { inputs, failures } = await fleet.check(olds, { __provider: "p", __identity: "proj/dev/Fleet/workers", ...news });
    expect(failures).toEqual([]);
    return inputs as Props;
  }
  return { h, fleet, checked };
}
