/** Waits that end early when the simulator closes, so close() never hangs on a delayed reply. */
export class Sleeper {
  private pending = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const item = {
        timer: setTimeout(() => {
          this.pending.delete(item);
          resolve();
        }, ms),
        resolve,
      };
      this.pending.add(item);
    });
  }

  cancelAll(): void {
    for (const item of this.pending) {
      clearTimeout(item.timer);
      item.resolve();
    }
    this.pending.clear();
  }
}
