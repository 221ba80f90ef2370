/**
 * Issue 23 item 13: an Instance with an explicit `offerId` and a Fleet in one process (one
 * `pulumi up`) never both rent that offer: the Instance claims it as filter-based rentals do
 * (kit/claims.ts). Against the simulator over HTTP, which refuses a taken offer as the service
 * does (404 no_such_ask).
 */
import { drive } from "./account-resources-support";
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { checked as instanceChecked, instance, rejection } from "./instance-support";

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number };

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });
const fleet = drive(providers.fleet);

beforeEach(() => resetClaims());

const base = { offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch" };

async function fleetChecked(news: Props): Promise<Props> {
  const { inputs, failures } = await fleet.check({}, { __provider: "p", __identity: "proj/dev/Fleet/workers", ...news });
  expect(failures).toEqual([]);
  return inputs as Props;
}

const rentsOf = async (offerId: number) => (await h.requests()).filter((r) => r.method === "PUT" && r.path.replace(/\/$/, "") === `/api/v0/asks/${offerId}`);

describe("issue 23 item 13: claims cover explicit offerId rentals", () => {
  it("23.13 an Instance with offerId and a Fleet created at once rent that offer once, and nothing is refused", async () => {
    // 700005 is the fleet's cheapest match; the Instance's rental of it is slow to answer, so the
    // Fleet searches (and still sees it) while the Instance is renting it.
    await h.fault({ method: "PUT", path: "/api/v0/asks/700005", delayMs: 300 });
    const [made, grown] = await Promise.all([
      instanceChecked({ offerId: 700005, image: "pytorch/pytorch" }).then((i) => instance.create(i)),
      fleetChecked({ ...base, count: 2 }).then((f) => fleet.create(f)),
    ]);
    const offers = [(made.outs as Props).offerId, ...((grown.outs as Props).members as Member[]).map((m) => m.offerId)];
    expect(offers[0]).toBe(700005);
    expect(new Set(offers).size).toBe(3);
    const rents = await rentsOf(700005);
    expect(rents.map((r) => r.status)).toEqual([200]);
  });

  it("23.13 an Instance given the offer a Fleet member of this run holds fails at once, naming it, without asking the service", async () => {
    const grown = await fleet.create(await fleetChecked({ ...base, count: 1 }));
    const [member] = (grown.outs as Props).members as Member[];
    await h.clearRequests();
    const error = await rejection(instance.create(await instanceChecked({ offerId: member.offerId, image: "pytorch/pytorch" })));
    expect(error.message).toBe(
      `Instance: offerId ${member.offerId} is being rented by another resource of this run (an Instance or a Fleet member); ` +
        "an offer can be rented once: choose another offer or use offer filters",
    );
    expect(await rentsOf(member.offerId)).toEqual([]);
  });
});
