/**
 * Holds the simulator state and knows when it changed. Route handlers mutate `data` and call
 * `changed()`; the server persists after the response is built when a state file is set.
 */
import type { ApiKeyRecord, SimData, UserRecord } from "./types";

export class Store {
  /** Bumped on every change; persistence compares it with what it last wrote. */
  version = 0;

  constructor(
    public data: SimData,
    readonly now: () => number,
  ) {}

  changed(): void {
    this.version++;
  }

  replace(data: SimData): void {
    this.data = data;
    this.changed();
  }

  nextId(kind: keyof SimData["nextIds"]): number {
    const id = this.data.nextIds[kind];
    this.data.nextIds[kind] = id + 1;
    return id;
  }

  user(id: number): UserRecord | undefined {
    return this.data.users.find((u) => u.id === id);
  }

  /** A key that still works: not deleted, not replaced by a reset. */
  activeKey(value: string): ApiKeyRecord | undefined {
    return this.data.apiKeys.find((k) => k.key === value && k.deletedAt === null);
  }

  primaryKeyOf(userId: number): ApiKeyRecord | undefined {
    return this.data.apiKeys.find((k) => k.userId === userId && k.primary && k.deletedAt === null);
  }
}
