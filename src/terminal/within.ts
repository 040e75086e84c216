// The one wait-or-timeout of the daemon: listen for something, settle on the first of it or the
// timeout, and never leave a timer or a listener behind. Every bounded wait goes through it.

/** Settles a wait: with a value, or (fail) with an error. Later calls are ignored. */
export interface Settle<T> {
  (value: T): void;
  fail(error: Error): void;
}

/**
 * `listen` gets the settle function and answers how to stop listening (or nothing). After
 * `timeoutMs`, `timedOut` decides: its value settles the wait, an error it throws rejects it.
 */
export function within<T>(
  timeoutMs: number,
  // biome-ignore lint/suspicious/noConfusingVoidType: a listener with nothing to stop returns nothing
  listen: (settle: Settle<T>) => (() => void) | void,
  timedOut: () => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    // biome-ignore lint/suspicious/noConfusingVoidType: what listen returned
    let stop: (() => void) | void;
    const finish = (outcome: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop?.();
      outcome();
    };
    const settle = ((value: T) => finish(() => resolve(value))) as Settle<T>;
    settle.fail = (error) => finish(() => reject(error));
    const timer = setTimeout(() => {
      try {
        const value = timedOut();
        finish(() => resolve(value));
      } catch (error) {
        finish(() => reject(error));
      }
    }, timeoutMs);
    stop = listen(settle);
    // Settled while listen() ran: stop listening now that the stopper exists.
    if (done) stop?.();
  });
}
