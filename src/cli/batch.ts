// `t4a batch`: many requests over one connection, for shell loops (`coproc t4a batch`, a pipe):
// each stdin line is a wire request (a JSON object) or a CLI line (`send t1 "ls\n"`), and each
// gets one JSON reply line on stdout, in order. Requests are pipelined: the next is sent before
// the last is answered. A screenshot answers inline as base64, so every reply is one line.
import type { DaemonConnection, Reply } from "../client/connection.ts";
import { displayable } from "../protocol/program-text.ts";
import { FLEET_COMMANDS } from "./fleet-commands.ts";
import { requestFor } from "./parse.ts";

/** Requests sent ahead of their replies; bounds memory for a fast writer and a slow daemon. */
const AHEAD = 64;

/** `remote`: another machine answers (--host): its replies go through the one stripping function. */
export async function runBatch(connect: () => Promise<DaemonConnection>, remote = false): Promise<number> {
  const connection = await connect();
  let failures = 0;
  let waiting = 0;
  // Each reply goes out as soon as it and every reply before it are ready, whether or not more
  // input follows: a coproc writes a line and reads its answer before it writes the next.
  let printed: Promise<void> = Promise.resolve();
  // Requests go out in input order (a CLI line takes a moment to parse, a JSON line none), while
  // their replies are awaited together.
  let sending: Promise<unknown> = Promise.resolve();
  for await (const line of console) {
    const text = line.trim();
    if (!text || text.startsWith("#")) continue;
    const turn = sending.then(() => send(connection, text));
    sending = turn.then((sent) => sent.sent);
    const reply = turn.then((sent) => sent.reply);
    waiting++;
    printed = printed.then(async () => {
      const answer = remote ? displayable(await reply) : await reply;
      if (answer.ok !== true) failures++;
      process.stdout.write(`${JSON.stringify(answer)}\n`);
      waiting--;
    });
    if (waiting > AHEAD) await printed;
  }
  await printed;
  connection.close();
  return failures ? 1 : 0;
}

/** Builds and sends one request; `sent` settles once it is on the wire, `reply` with its answer. */
async function send(
  connection: DaemonConnection,
  line: string,
): Promise<{ sent: Promise<void>; reply: Promise<Reply> }> {
  const done = Promise.resolve();
  let request: Reply;
  let words: string[] = [];
  try {
    request = line.startsWith("{") ? (JSON.parse(line) as Reply) : await requestFor((words = splitWords(line)));
  } catch (error) {
    return { sent: done, reply: Promise.resolve({ ok: false, error: (error as Error).message, code: "bad_request" }) };
  }
  // One connection is one daemon: the fleet's `HOST:ID` and `--all` are the command line's (fleet.ts).
  const id = request.id ?? request.terminal;
  const remote = typeof id === "string" && id.includes(":");
  if (remote || (words.includes("--all") && FLEET_COMMANDS.has(String(request.cmd)))) {
    return {
      sent: done,
      reply: Promise.resolve({
        ok: false,
        error:
          `batch talks to one daemon: ${remote ? `"${id}" names a host` : "--all asks every host"}; ` +
          "run a batch per host (t4a --host TARGET batch)",
        code: "unsupported",
      }),
    };
  }
  if (request.cmd === "screenshot") request.encoding = "base64";
  if (request.cmd === "events" || request.cmd === "attach") {
    return {
      sent: done,
      reply: Promise.resolve({
        ok: false,
        error: `${request.cmd} streams: it needs a connection of its own`,
        code: "unsupported",
      }),
    };
  }
  const reply = connection.request(request).then(
    (response) => response.reply,
    (error: Error) => ({ ok: false, error: error.message, code: "internal" }),
  );
  return { sent: done, reply };
}

/** Shell-like words: spaces split, '…' literal, "…" with \" and \\, a backslash escapes one character. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      started = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started || word) words.push(word);
      word = "";
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote`);
  if (started || word) words.push(word);
  return words;
}
