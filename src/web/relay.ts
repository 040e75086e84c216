// The page's other machines: what names a host (HOST:ID, create's `host`, `all`) is relayed by
// this daemon over ssh to that host's own daemon (one DaemonLink per host), lists and events
// merged, a terminal's WebSocket bridged to an attach there. A host's answers are tainted
// (schema-checked, controls out, ids qualified here); the relay never widens a login. No listener.
import { parseReply, type Command, type Reply } from "../commands/command.ts";
import { connectDaemon } from "../client/connect.ts";
import type { DaemonConnection } from "../client/connection.ts";
import { followEvents } from "../client/event-follow.ts";
import { FleetLinks, listWait, qualify } from "../client/fleet-links.ts";
import { resolveHost } from "../client/hosts.ts";
import { displayable, shownLine } from "../protocol/program-text.ts";
import { ErrorCodes, T4aError, type ErrorCode } from "../protocol/errors.ts";
import { encodeFrame, Frame, FrameReader } from "../protocol/frames.ts";
import { MAX_DIMENSION } from "../protocol/limits.ts";
import { VIEWER_QUEUE_BYTES } from "../stream/attachment.ts";
import { HttpRefusal } from "./responses.ts";

/** What a page may send a remote terminal before the attach there is made. */
const EARLY_INPUT_BYTES = 64 * 1024;

export type RelaySink = (event: Reply) => void;

/** A size a terminal may have (the page's xterm.js draws what it is told: a host's 100 000 columns would hang it). */
const sized = (size: Reply): boolean =>
  [size.cols, size.rows].every((n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_DIMENSION);
const oversized = (host: string, size: Reply): string => {
  const [cols, rows] = [shownLine(String(size.cols)), shownLine(String(size.rows))];
  return `${host}: a terminal of ${cols}x${rows}, not a size a terminal may have`.slice(0, 120);
};

/** What a remote terminal's viewer (the page's WebSocket) is sent; answers the bytes it has not read yet. */
export interface RelayViewer {
  send(data: string | Uint8Array): number;
  close(code: number, reason: string): void;
}

export class WebRelay {
  readonly #socketPath: string;
  readonly #fleet: FleetLinks;
  readonly #sinks = new Set<RelaySink>();
  /** The follower of each host's events while a page listens: stop closes its connection. */
  readonly #following = new Map<string, () => void>();

  constructor(socketPath: string) {
    this.#socketPath = socketPath;
    this.#fleet = new FleetLinks(socketPath);
  }

  /**
   * One request to a host's daemon; its reply checked and qualified; a refusal or no answer as an error naming the
   * host.
   */
  async call(host: string, command: Command, fields: Reply): Promise<{ reply: Reply; bytes?: Uint8Array }> {
    let answer: { reply: Reply; bytes?: Uint8Array };
    try {
      answer = await this.#fleet.link(host).request({ ...fields, cmd: command.name });
    } catch (error) {
      if (error instanceof T4aError) throw error;
      throw new HttpRefusal(502, "internal", `${host}: unreachable: ${shownLine((error as Error).message)}`);
    }
    const { reply } = answer;
    if (reply.ok !== true) {
      const code = (ErrorCodes as readonly string[]).includes(String(reply.code))
        ? (reply.code as ErrorCode)
        : "internal";
      throw new T4aError(code, `${host}: ${shownLine(String(reply.error))}`);
    }
    let parsed: Reply;
    try {
      parsed = displayable(parseReply(command, reply) as Reply);
    } catch (error) {
      throw new HttpRefusal(
        502,
        "internal",
        `${host} answered something that is not a ${command.name} reply: ${(error as Error).message}`,
      );
    }
    for (const field of ["id", "terminal"])
      if (typeof parsed[field] === "string") parsed[field] = qualify(host, parsed[field]);
    if (Array.isArray(parsed.terminals))
      parsed.terminals = (parsed.terminals as Reply[]).map((t) => ({ ...t, id: qualify(host, t.id), host }));
    return { reply: parsed, bytes: answer.bytes };
  }

  /** Every host's list at once; a host that does not answer is named with why, the others still show. */
  async lists(
    command: Command,
    fields: Reply,
  ): Promise<{ terminals: Reply[]; hosts: Array<{ name: string; error?: string }> }> {
    const { names, problems } = this.#fleet.hosts();
    // A host added to hosts.json while pages listen is followed from now on; one removed, no longer.
    if (this.#sinks.size) this.#follow(names);
    const answers = await Promise.all(
      names.map(async (name) => {
        try {
          const { reply } = await listWait(this.call(name, command, fields));
          return { name, terminals: reply.terminals as Reply[] };
        } catch (error) {
          return { name, error: (error as Error).message.replace(new RegExp(`^${name}: `), "") };
        }
      }),
    );
    return {
      terminals: answers.flatMap((answer) => answer.terminals ?? []),
      hosts: [
        ...answers.map(({ name, error }) => (error === undefined ? { name } : { name, error })),
        ...problems.map((problem) => ({ name: "hosts.json", error: problem })),
      ],
    };
  }

  /**
   * Every host's events to sink, each with its host and its terminal as HOST:ID, plus
   * `{"event":"host","host":…,"state":"up"|"down"}` when a host's link comes and goes. One
   * follower per host for all pages, joined again after a drop and resumed (no loss, no double).
   */
  events(sink: RelaySink): () => void {
    this.#sinks.add(sink);
    if (this.#sinks.size === 1) this.#follow(this.#fleet.hosts().names);
    return () => {
      this.#sinks.delete(sink);
      if (this.#sinks.size === 0) this.#stopFollowing();
    };
  }

  #fan(event: Reply): void {
    for (const sink of this.#sinks) sink(event);
  }

  #follow(names: string[]): void {
    for (const [name, stop] of this.#following) {
      if (names.includes(name)) continue;
      stop();
      this.#following.delete(name);
    }
    for (const name of names) {
      if (this.#following.has(name)) continue;
      let stopped = false;
      let current: DaemonConnection | undefined;
      this.#following.set(name, () => ((stopped = true), current?.close()));
      void followEvents({
        open: async () => connectDaemon(this.#socketPath, false, resolveHost(name)),
        request: { cmd: "events" },
        tries: Number.POSITIVE_INFINITY,
        retryStart: true,
        maxDelayMs: 5000,
        stopped: () => stopped,
        current: (connection) => (current = connection),
        joined: () => this.#fan({ event: "host", host: name, state: "up" }),
        dropped: (why) => this.#fan({ event: "host", host: name, state: "down", error: shownLine(why) }),
        event: (line) => {
          const event = displayable(line);
          this.#fan({
            ...event,
            ...(event.terminal === undefined ? {} : { terminal: qualify(name, event.terminal) }),
            host: name,
          });
        },
      });
    }
  }

  #stopFollowing(): void {
    for (const stop of this.#following.values()) stop();
    this.#following.clear();
  }

  /**
   * A remote terminal on the page's WebSocket, as a local one is shown: its size first, then its
   * screen and output bytes, its events as JSON text; keys and resizes go back unless read-only.
   */
  attach(
    host: string,
    id: string,
    readOnly: boolean,
    scrollback: number,
    viewer: RelayViewer,
  ): { input(bytes: Uint8Array | string): void; resize(cols: number, rows: number): void; close(): void } {
    let link: { write(bytes: Uint8Array): void } | undefined;
    // Keys and resizes the page sends before the attach there is made: kept (64 KiB at most), then sent in order.
    let early: Uint8Array[] = [];
    let earlyBytes = 0;
    const toHost = (frame: Uint8Array) => {
      if (readOnly || closed) return;
      if (link) return link.write(frame);
      if (earlyBytes + frame.length > EARLY_INPUT_BYTES)
        return close(1008, `${host}: typed too much before the terminal there was ready`);
      early.push(frame);
      earlyBytes += frame.length;
    };
    let connection: DaemonConnection | undefined;
    let closed = false;
    const close = (code: number, reason: string) => {
      if (closed) return;
      closed = true;
      connection?.close();
      viewer.close(code, reason);
    };
    void (async () => {
      try {
        connection = await connectDaemon(this.#socketPath, false, resolveHost(host));
        if (closed) return connection.close();
        const { reply } = await connection.request({ cmd: "attach", id, read_only: readOnly, scrollback });
        if (reply.ok !== true) return close(4404, `${host}: ${shownLine(String(reply.error))}`.slice(0, 120));
        if (!sized(reply)) return close(1011, oversized(host, reply));
        viewer.send(JSON.stringify({ event: "resize", cols: reply.cols, rows: reply.rows }));
        const reader = new FrameReader();
        link = connection.takeRaw(
          (bytes) => {
            try {
              for (const frame of reader.push(bytes)) {
                let queued = 0;
                if (frame.type === Frame.screen || frame.type === Frame.output) queued = viewer.send(frame.payload);
                else if (frame.type === Frame.event) {
                  const event = displayable(JSON.parse(new TextDecoder().decode(frame.payload)));
                  if (event.event === "resize" && !sized(event)) return close(1011, oversized(host, event));
                  queued = viewer.send(JSON.stringify(event));
                }
                if (queued > VIEWER_QUEUE_BYTES) {
                  viewer.send(JSON.stringify({ event: "lagged" }));
                  return close(1000, "lagged");
                }
              }
            } catch {
              close(1011, `${host}: a broken stream`);
            }
          },
          () => close(1000, `${host}: the link ended`),
        );
        for (const frame of early) link.write(frame);
        early = [];
      } catch (error) {
        close(1011, `${host}: ${shownLine((error as Error).message)}`.slice(0, 120));
      }
    })();
    return {
      input: (bytes) => toHost(encodeFrame(Frame.input, bytes)),
      resize: (cols, rows) => toHost(encodeFrame(Frame.resize, JSON.stringify({ cols, rows }))),
      close: () => close(1000, "closed"),
    };
  }

  close(): void {
    this.#stopFollowing();
    this.#fleet.close();
  }
}
