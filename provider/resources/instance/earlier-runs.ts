/**
 * Before renting, an Instance create with an identity looks for the instance an earlier run of
 * the same create left (its plugin killed while the request was on its way): that instance
 * carries the create's marker in its environment. The look-up used to list the whole account
 * for every create, so a stack's creates cost ceil(account/25) list calls each, whatever the
 * stack (issue 28: cost follows the stack, never the account). Now:
 * - creates that start together share one look-up (asks gathered for a few ms, and while a
 *   look-up is under way);
 * - when every create of a look-up has a label, only instances with those labels are listed
 *   (the service filters the paged list by label): ceil(matches/25) calls, usually one. An
 *   earlier run sent the same label unless the program changed it in between; an instance so
 *   left still carries the stack's marker, and `npx pulumi-vastai orphans` reports it;
 * - a create without a label keeps the whole listing, shared by the creates beside it.
 */
import type { Instance, VastClient } from "../../client";
import { INSTANCE_PAGE_SIZE } from "./live";

/** Labels per filtered list call (each up to 1024 characters, in the query string). */
const LABELS_PER_CALL = 20;
/** How long the first ask of a look-up waits for others, ms. */
const GATHER_MS = 5;

interface Ask {
  label: string | undefined;
  resolve(found: Instance[]): void;
  reject(error: unknown): void;
}

class EarlierRuns {
  private waiting: Ask[] = [];
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly client: VastClient) {}

  /** Every instance with `label`, or all of them without one, from a listing that starts after this call. */
  candidates(label: string | undefined): Promise<Instance[]> {
    return new Promise<Instance[]>((resolve, reject) => {
      this.waiting.push({ label: label === "" ? undefined : label, resolve, reject });
      if (!this.running && !this.timer) this.timer = setTimeout(() => this.start(), GATHER_MS);
    });
  }

  private start(): void {
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.running = this.serve(batch).finally(() => {
      this.running = undefined;
      // Asks that came during this look-up go together in the next one.
      if (this.waiting.length > 0) this.start();
    });
  }

  private async serve(batch: Ask[]): Promise<void> {
    try {
      const found = await this.list(batch);
      for (const ask of batch) ask.resolve(found);
    } catch (error) {
      for (const ask of batch) ask.reject(error);
    }
  }

  private async list(batch: Ask[]): Promise<Instance[]> {
    if (batch.some((ask) => ask.label === undefined)) return this.client.instances.listAll(INSTANCE_PAGE_SIZE);
    const labels = [...new Set(batch.map((ask) => ask.label as string))];
    const found: Instance[] = [];
    for (let i = 0; i < labels.length; i += LABELS_PER_CALL) {
      const some = labels.slice(i, i + LABELS_PER_CALL);
      found.push(...(await this.client.instances.listAll(INSTANCE_PAGE_SIZE, { filters: { label: { in: some } } })));
    }
    return found;
  }
}

const lookups = new WeakMap<VastClient, EarlierRuns>();

/**
 * The instances, listed afresh after this call, among which an instance carrying a create's
 * marker would be: those with the create's label, or every instance when it has none. Creates
 * that ask at about the same time share the listing.
 */
export function instancesThatMayCarry(client: VastClient, label: string | undefined): Promise<Instance[]> {
  let finder = lookups.get(client);
  if (!finder) {
    finder = new EarlierRuns(client);
    lookups.set(client, finder);
  }
  return finder.candidates(label);
}
