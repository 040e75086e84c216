// One daemon's event stream followed through dropped links (events --all, the web relay): joined
// again with `since`, the last seq handed on, so what the daemon made meanwhile comes once and
// nothing twice; a daemon that restarted (another instance) is followed from its first event.
// A `lagged` (this reader fell behind) is a drop too: the daemon's ring sends what it dropped.
import type { DaemonConnection, Reply } from "./connection.ts";

export interface Follow {
  /** A connection to the daemon; undefined: no daemon there (a local one that is not running). */
  open(): Promise<DaemonConnection | undefined>;
  /** The events request (`cmd`, a terminal); since and instance are added on a rejoin. */
  request: Reply;
  /** Each event once, in order (a `gap` says what the daemon no longer held). */
  event(event: Reply): void;
  /** Joined (again: after a drop). */
  joined?(again: boolean, since: number): void;
  /** The link dropped or could not be made again; the next try is in delayMs. */
  dropped?(why: string, delayMs: number): void;
  /** Tries in a row before giving up (events --all: 10, at the start too; the web relay: for as long as it runs). */
  tries: number;
  /** A daemon unreachable at the start is tried again too (a host may come up later). */
  retryStart?: boolean;
  /** The longest wait between tries (default 30 s; the web relay's 5 s: a page shows a host back soon). */
  maxDelayMs?: number;
  /** Stop following (checked between tries); the caller closes the current connection through `current`. */
  stopped?(): boolean;
  /** The connection now followed, for the caller to close. */
  current?(connection: DaemonConnection | undefined): void;
}

/**
 * A link that stayed up this long was a working one: its drop starts the count of tries again
 * (at once). One dropped sooner counts on, so a host that drops every link as soon as it is
 * joined (what it sends is tainted) is joined again more and more slowly, not in a tight loop.
 */
export const STEADY_MS = 10_000;

/** Waits before the n-th try in a row: at once, then 0.5 s doubling to maxMs. */
export const rejoinDelayMs = (failures: number, maxMs = 30_000) =>
  failures <= 1 ? 0 : Math.min(maxMs, 500 * 2 ** (failures - 2));

/**
 * Follows until stopped, or given up: answers why it ended. A daemon that cannot be reached at
 * the very start is not tried again ("unreachable: …") unless retryStart says so.
 */
export async function followEvents(follow: Follow): Promise<string> {
  let resume: { since: number; instance: string } | undefined;
  let failures = 0;
  for (;;) {
    let connection: DaemonConnection | undefined;
    let why: string;
    let joinedAt: number | undefined;
    try {
      connection = await follow.open();
      follow.current?.(connection);
      if (follow.stopped?.()) return "stopped";
      if (!connection) {
        if (!resume) return "no daemon";
        throw new Error("the daemon is gone");
      }
      const { reply } = await connection.request(
        resume ? { ...follow.request, since: resume.since, instance: resume.instance } : follow.request,
      );
      if (reply.ok !== true) throw new Error(String(reply.error));
      const instance = String(reply.instance);
      follow.joined?.(resume !== undefined, resume?.since ?? 0);
      // Another instance (the daemon restarted): its own count, from its first event.
      if (!resume || resume.instance !== instance) resume = { since: resume ? 0 : Number(reply.seq) || 0, instance };
      joinedAt = performance.now();
      why = "the event stream ended";
      for (;;) {
        const line = await connection.readLine();
        if (line === undefined) break;
        if (typeof line !== "object" || line === null || Array.isArray(line)) continue;
        if (line.event === "lagged") {
          why = `this reader fell ${Number(line.dropped)} events behind`;
          break;
        }
        if (typeof line.seq === "number") {
          if (line.seq <= resume.since) continue; // handed on already
          resume.since = line.seq;
        }
        follow.event(line);
      }
    } catch (error) {
      if (!resume && !follow.retryStart)
        return `unreachable: ${error instanceof Error ? error.message : String(error)}`;
      why = error instanceof Error ? error.message : String(error);
    } finally {
      connection?.close();
      follow.current?.(undefined);
    }
    if (follow.stopped?.()) return "stopped";
    if (joinedAt !== undefined && performance.now() - joinedAt >= STEADY_MS) failures = 0;
    if (++failures > follow.tries) return `${why}; gave up after ${follow.tries} tries to join again`;
    const delayMs = rejoinDelayMs(failures, follow.maxDelayMs);
    follow.dropped?.(why, delayMs);
    await Bun.sleep(delayMs);
  }
}
