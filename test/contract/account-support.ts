/**
 * The preamble of the account resources' contract tests: the plugin and simulator of
 * `useContract`, a client on the same simulator (no pacing), and `up` (check then create, as
 * `pulumi up` does for a new resource) with the URN and serialized provider of a kind.
 */
import { createClient, type VastClient } from "../../provider/client";
import { dynamicUrn } from "pulumi-vastai/testing";
import { useContract, type ContractOptions } from "./harness";

type Props = Record<string, unknown>;

export function useAccountContract(kind: string, options: ContractOptions = {}) {
  const fx = useContract(kind, options);
  const urn = (type: string, name: string) => dynamicUrn("dev", "proj", type, name);
  const withProvider = (k: string, props: Props): Props => ({ __provider: fx.serialized[k], ...props });
  async function up(k: string, type: string, name: string, props: Props) {
    const { inputs, failures } = await fx.plugin.check(urn(type, name), {}, withProvider(k, props));
    expect(failures).toEqual([]);
    return { inputs, ...(await fx.plugin.create(urn(type, name), inputs)) };
  }
  const ctx = { fx, urn, withProvider, up, client: undefined as unknown as VastClient };
  beforeAll(() => {
    ctx.client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
  });
  return ctx;
}
