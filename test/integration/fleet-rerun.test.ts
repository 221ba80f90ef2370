/**
 * Issue 23 item 10: a rerun after a plugin killed mid scale-up. The killed run rented a member
 * (its marker is the operation's) that is still booting when the next `pulumi up` runs; the
 * rerun adopts it and waits for it with the members it rents, instead of failing at once with
 * "not running after 10 minutes". Boots take a minute of the simulator's clock, which is the
 * kit's stepped clock (each poll's sleep moves both), so nothing sleeps real time.
 */
import { FLEET_BASE, useFleetProvider } from "./fleet-support";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { operationPrefix } from "../../provider/resources/fleet/members";
import { useSteppedClock } from "../support/readiness";
import { CREATE_PATH, count } from "./instance-support";

type Props = Record<string, unknown>;
type Member = { id: number; offerId: number; status: string };

const time = useSteppedClock();
const { h, fleet, checked } = useFleetProvider({ bootMs: 60_000, now: () => time.now });
const base = FLEET_BASE;

const membersOf = (outs: Props) => outs.members as Member[];

it("23.10 a rerun after a plugin killed mid scale-up adopts the member still booting and waits for it with the new one", async () => {
  const { id, outs } = await fleet.create(await checked({ ...base, count: 1 }));
  expect(membersOf(outs as Props).map((m) => m.status)).toEqual(["running"]);
  const news = await checked({ ...base, count: 3 }, outs as Props);
  // The killed run (scale 1 -> 3) had rented one member on 700001, which is still booting; it
  // carries the fleet's marker and label (the fleet's key: the fleet has no label of its own).
  const marker = `${operationPrefix(id, news)}700001`;
  const left = await h.client.instances.create(700001, { image: "pytorch/pytorch", label: id, env: { [MARKER_ENV]: marker } });
  expect((await h.client.instances.get(left.id))?.actualStatus ?? null).toBeNull();
  await h.clearRequests();
  const started = time.now;
  const { outs: grown } = await fleet.update(id, outs as Props, news);
  const members = membersOf(grown as Props);
  expect(members).toHaveLength(3);
  expect(members.map((m) => m.id)).toContain(left.id);
  expect(members.every((m) => m.status === "running")).toBe(true);
  expect((grown as Props).healthy).toBe(3);
  // One rental (the member the killed run had not rented yet), and no 10-minute wait.
  expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(1);
  expect(time.now - started).toBeLessThan(10 * 60_000);
});
