// A sandbox's only way out when it has an allow-list: an HTTP proxy (CONNECT for HTTPS, absolute
// URLs for plain HTTP) and SOCKS5, both on one unix socket the daemon listens on for this session
// (sandbox-exec bridges a TCP port inside to it). A connection goes through only to a name the
// list allows (`api.example.com`, `*.example.com`) or an address it names exactly (`10.0.0.5`, or
// with a port, `127.0.0.1:8080`: a *_BASE_URL's local server is that port only, whether asked as
// 127.0.0.1 or localhost); an IP the list does not name, or an allowed name that resolves to this
// machine (loopback or any of its own addresses) or to cloud metadata, is refused. Plain HTTP's
// Host header must name the URL's host (no virtual-host fronting past the list). At most
// MAX_CONNECTIONS at once per session: what the proxy is asked is tainted, and each connection
// costs the daemon two descriptors. The model of Anthropic's sandbox-runtime, per session.
import { lookup } from "node:dns/promises";
import { isIP, createConnection, createServer, type Server, type Socket } from "node:net";
import { networkInterfaces } from "node:os";
import { rmSync } from "node:fs";

/** How long a client has to say where it goes. */
const HANDSHAKE_MS = 10_000;
const MAX_HEADER_BYTES = 64 * 1024;
/** Connections one session's proxy holds at once (each is two of the daemon's descriptors). */
export const MAX_CONNECTIONS = 256;

export interface Proxy {
  close(): void;
}

export interface ProxyOptions {
  /** Names and patterns allowed: `host`, `*.domain` (its subdomains), an exact IP. */
  allow: string[];
  /** Test only (T4A_TEST_PROXY_HOSTS): names resolved here, not by DNS. */
  hosts?: Record<string, string>;
  /** Each refusal, for the daemon's log. */
  onRefused?: (target: string, why: string) => void;
  /** Connections at once (MAX_CONNECTIONS unless a test says otherwise). */
  maxConnections?: number;
}

const HOST_NAME = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** An entry's host and, when it names one, its port (`127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`). */
function splitEntry(entry: string): { host: string; port?: number } {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^:]+)):(\d{1,5})$/i.exec(entry);
  return match ? { host: (match[1] ?? match[2])!, port: Number(match[3]) } : { host: entry };
}

/** A valid allow-list entry: a host name, `*.` and a domain, or an IP; any of them but a pattern with `:port`. */
export function allowEntryProblem(entry: string): string | undefined {
  const { host, port } = splitEntry(entry);
  if (port !== undefined && (port < 1 || port > 65535 || host.startsWith("*."))) return `"${entry}" has no valid port`;
  if (isIP(host)) return undefined;
  if (HOST_NAME.test(host)) return undefined;
  return `"${entry}" is not a host name, *.domain or IP address (with :port or without)`;
}

export function allowed(host: string, allow: string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return allow.some((entry) => {
    const pattern = entry.toLowerCase();
    if (pattern.startsWith("*.")) return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
    return name === pattern;
  });
}

/** This machine's own loopback, by every name a client may use for it: one, for the list. */
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);
const loopback = (host: string) => LOOPBACK_NAMES.has(host.toLowerCase().replace(/\.$/, ""));

/**
 * What a *_BASE_URL adds to the list: its host name; for a local server (127.0.0.1, localhost,
 * ::1) its port too (the URL's, or the scheme's), never every port of the machine.
 */
export function baseUrlEntry(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!host) return undefined;
  if (!loopback(host)) return host;
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * Whether host:port is on the list: by name or pattern, or by exact address; with the entry's port when it names one.
 */
function listed(host: string, port: number, allow: string[]): boolean {
  return allow.some((entry) => {
    const { host: entryHost, port: entryPort } = splitEntry(entry);
    if (entryPort !== undefined && entryPort !== port) return false;
    if (entryPort !== undefined && loopback(entryHost)) return loopback(host);
    return isIP(host) ? entryHost === host : allowed(host, [entryHost]);
  });
}

/** A port-bound loopback entry lets host:port through (the one local server a session names). */
function loopbackListed(host: string, port: number, allow: string[]): boolean {
  return (
    loopback(host) &&
    allow.some((entry) => {
      const split = splitEntry(entry);
      return split.port === port && loopback(split.host);
    })
  );
}

export async function startProxy(path: string, options: ProxyOptions): Promise<Proxy> {
  rmSync(path, { force: true });
  const clients = new Set<Socket>();
  const max = options.maxConnections ?? MAX_CONNECTIONS;
  const server: Server = createServer((client) => {
    client.on("error", () => client.destroy());
    client.setTimeout(HANDSHAKE_MS, () => client.destroy());
    if (clients.size >= max) {
      // Told why, in its own protocol, then closed: never an upstream connection.
      client.once("data", (chunk: Buffer) => {
        options.onRefused?.("(connection)", `more than ${max} connections at once`);
        if (chunk[0] === 0x05) client.end(Buffer.from([0x05, 0xff]));
        else
          client.end(
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n" +
              `t4a sandbox: more than ${max} connections at once through this sandbox's proxy\n`,
          );
      });
      return;
    }
    clients.add(client);
    client.on("close", () => clients.delete(client));
    let buffered = Buffer.alloc(0);
    const greeting = { answered: false };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const handled =
        buffered[0] === 0x05 ? socks(client, buffered, options, greeting) : http(client, buffered, options);
      if (handled) {
        // What comes while it connects upstream (a request body's tail) must wait in the socket
        // for the pipe: a flowing socket without a listener drops it (claude's first request hung).
        client.off("data", onData);
        client.pause();
      } else if (buffered.length > MAX_HEADER_BYTES) client.destroy();
    };
    client.on("data", onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  return {
    close() {
      server.close();
      for (const client of clients) client.destroy();
      rmSync(path, { force: true });
    },
  };
}

/** HTTP: CONNECT host:port, or a request with an absolute URL. False until the head is whole. */
function http(client: Socket, buffered: Buffer, options: ProxyOptions): boolean {
  const end = buffered.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const head = buffered.subarray(0, end).toString("latin1");
  const rest = buffered.subarray(end + 4);
  const [requestLine = "", ...headers] = head.split("\r\n");
  const [method = "", target = "", version = "HTTP/1.1"] = requestLine.split(" ");
  const refuse = (status: string, why: string) => {
    options.onRefused?.(target, why);
    client.end(`HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nt4a sandbox: ${why}\n`);
  };
  if (method === "CONNECT") {
    const match = /^(\[[0-9a-f:.]+\]|[^:]+):(\d{1,5})$/i.exec(target);
    if (!match) return (refuse("400 Bad Request", "CONNECT needs host:port"), true);
    void open(match[1]!.replace(/^\[|\]$/g, ""), Number(match[2]), options).then(
      (upstream) => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        join(client, upstream, rest);
      },
      (error: Error) => refuse("403 Forbidden", error.message),
    );
    return true;
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return (refuse("400 Bad Request", "a proxy request needs an absolute http:// URL"), true);
  }
  if (url.protocol !== "http:")
    return (refuse("400 Bad Request", `${url.protocol} is not proxied (use CONNECT)`), true);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // The server picks the site by Host: it must be the host the list was asked about.
  const hostHeaders = headers.filter((line) => /^host:/i.test(line)).map((line) => line.slice(5).trim());
  if (hostHeaders.length > 1) return (refuse("403 Forbidden", "more than one Host header"), true);
  const named = hostHeaders[0];
  if (named !== undefined && !sameHost(named, url))
    return (refuse("403 Forbidden", `the Host header names ${named}, not ${url.hostname}`), true);
  void open(host, Number(url.port || 80), options).then(
    (upstream) => {
      // Origin form for the server; one request per connection, so no later one picks another host.
      const kept = headers.filter((line) => !/^(proxy-connection|connection|keep-alive):/i.test(line));
      if (named === undefined) kept.unshift(`host: ${url.host}`);
      upstream.write(
        `${method} ${url.pathname}${url.search} ${version}\r\n${[...kept, "connection: close"].join("\r\n")}\r\n\r\n`,
      );
      join(client, upstream, rest, true);
    },
    (error: Error) => refuse("403 Forbidden", error.message),
  );
  return true;
}

/** Whether a Host header's value names the URL's host and port (the scheme's default port may be left out). */
function sameHost(value: string, url: URL): boolean {
  const match = /^(\[[0-9a-f:.]+\]|[^:]+)(?::(\d{1,5}))?$/i.exec(value);
  if (!match) return false;
  const port = match[2] ?? "80";
  return match[1]!.toLowerCase().replace(/\.$/, "") === url.hostname.toLowerCase() && port === (url.port || "80");
}

/** SOCKS5, no authentication, CONNECT only. False until the request is whole. */
function socks(client: Socket, buffered: Buffer, options: ProxyOptions, greeting: { answered: boolean }): boolean {
  const methods = buffered[1];
  if (methods === undefined || buffered.length < 2 + methods) return false;
  if (!greeting.answered) {
    if (!buffered.subarray(2, 2 + methods).includes(0x00)) return (client.end(Buffer.from([0x05, 0xff])), true);
    client.write(Buffer.from([0x05, 0x00])); // no authentication
    greeting.answered = true;
  }
  const request = buffered.subarray(2 + methods);
  if (request.length < 5) return false;
  const [, command, , type] = request;
  let host: string;
  let at: number;
  if (type === 0x03) {
    const length = request[4]!;
    if (request.length < 5 + length + 2) return false;
    host = request.subarray(5, 5 + length).toString("latin1");
    at = 5 + length;
  } else if (type === 0x01) {
    if (request.length < 10) return false;
    host = [...request.subarray(4, 8)].join(".");
    at = 8;
  } else if (type === 0x04) {
    if (request.length < 22) return false;
    host = [...Array(8).keys()].map((i) => request.readUInt16BE(4 + i * 2).toString(16)).join(":");
    at = 20;
  } else {
    client.end(Buffer.from([0x05, 0x08, 0x00, 0x01, 0, 0, 0, 0, 0, 0])); // address type not supported
    return true;
  }
  const port = request.readUInt16BE(at);
  const rest = request.subarray(at + 2);
  const reply = (code: number) => Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
  if (command !== 0x01) {
    client.end(reply(0x07));
    return true;
  }
  void open(host, port, options).then(
    (upstream) => {
      client.write(reply(0x00));
      join(client, upstream, rest);
    },
    (error: Error) => {
      options.onRefused?.(`${host}:${port}`, error.message);
      client.end(reply(0x02)); // connection not allowed by ruleset
    },
  );
  return true;
}

/** Connects to host:port if the list allows it; fails with the reason otherwise. */
async function open(host: string, port: number, options: ProxyOptions): Promise<Socket> {
  if (!listed(host, port, options.allow)) {
    throw new Error(`${host} is not in this sandbox's allow-list (--sandbox-allow-domain)`);
  }
  let address = host;
  if (loopbackListed(host, port, options.allow)) {
    // The one local port the list names: localhost is 127.0.0.1 here, never asked of DNS.
    address = host.toLowerCase() === "localhost" ? "127.0.0.1" : host;
  } else if (!isIP(host)) {
    const mapped = options.hosts?.[host.toLowerCase()];
    address = mapped ?? (await lookup(host)).address;
    // An allowed name may not lead back to this machine or to cloud metadata. The tests' own
    // names (T4A_TEST_PROXY_HOSTS) may lead to loopback, where their servers are; nothing else.
    if (isLocal(address) && !(mapped && /^127\./.test(mapped)))
      throw new Error(`${host} resolves to ${address}, a local address`);
  }
  return new Promise((resolve, reject) => {
    const upstream = createConnection({ host: address, port });
    upstream.once("connect", () => resolve(upstream));
    upstream.once("error", (error) => reject(new Error(`cannot reach ${host}:${port}: ${error.message}`)));
  });
}

/** The response's head, its connection headers replaced by `connection: close`; then the rest piped as it comes. */
function closingHead(upstream: Socket, client: Socket): void {
  let buffered = Buffer.alloc(0);
  let relayed = false;
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) {
      if (buffered.length > MAX_HEADER_BYTES) client.destroy();
      return;
    }
    relayed = true;
    upstream.off("data", onData);
    upstream.pause();
    const head = buffered
      .subarray(0, end)
      .toString("latin1")
      .split("\r\n")
      .filter((line) => !/^(connection|keep-alive|proxy-connection):/i.test(line));
    client.write(`${[...head, "connection: close"].join("\r\n")}\r\n\r\n`);
    const body = buffered.subarray(end + 4);
    if (body.length) client.write(body);
    upstream.pipe(client);
  };
  upstream.on("data", onData);
  upstream.on("end", () => {
    // Ended before its head was whole: what came goes on as it is.
    if (!relayed) client.end(buffered);
  });
}

/** Cloud metadata services at addresses no other rule covers: AWS IMDSv6, Alibaba Cloud, Azure's wire server. */
const METADATA = new Set(["fd00:ec2::254", "100.100.100.200", "168.63.129.16"]);

/** This machine (loopback, unspecified, any address of its own interfaces), link-local, or cloud metadata. */
function isLocal(raw: string): boolean {
  let address = raw.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) address = mapped[1]!;
  if (/^(127\.|0\.|169\.254\.)/.test(address) || /^(::1?|fe[89ab][0-9a-f]:)/i.test(address) || address === "::")
    return true;
  if (METADATA.has(address)) return true;
  // Read each time: addresses come and go (DHCP, VPNs, containers).
  return Object.values(networkInterfaces()).some((list) => list?.some((own) => own.address.toLowerCase() === address));
}

/**
 * Both ways, with backpressure, until either side ends. `oneRequest`: the response's head says
 * `connection: close` to the client (the server's own answer may not, HTTP/1.1 keeps connections
 * by default): else a client reuses the connection for its next request, which goes nowhere.
 */
function join(client: Socket, upstream: Socket, early: Buffer, oneRequest = false): void {
  client.setTimeout(0);
  if (early.length) upstream.write(early);
  client.pipe(upstream);
  if (oneRequest) closingHead(upstream, client);
  else upstream.pipe(client);
  upstream.on("error", () => client.destroy());
  client.on("close", () => upstream.destroy());
  upstream.on("close", () => client.destroy());
}
