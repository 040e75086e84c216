// Idle/activity detection for one terminal: `idle` once output has been quiet for the timeout,
// `activity` when output resumes after that. One timer per quiet period, not one per chunk.

export class ActivityTracker {
  #lastOutputAt = performance.now();
  #idle = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly idleMs: () => number,
    private readonly onIdle: (afterMs: number) => void,
    private readonly onActivity: () => void,
  ) {
    this.#arm(idleMs());
  }

  get lastOutputAt(): number {
    return this.#lastOutputAt;
  }

  output(): void {
    this.#lastOutputAt = performance.now();
    if (this.#idle) {
      this.#idle = false;
      this.onActivity();
    }
    if (!this.#timer) this.#arm(this.idleMs());
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        const idleMs = this.idleMs();
        const quietMs = performance.now() - this.#lastOutputAt;
        if (quietMs + 1 < idleMs) return this.#arm(idleMs - quietMs);
        this.#idle = true;
        this.onIdle(idleMs);
      },
      Math.max(1, delayMs),
    );
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
