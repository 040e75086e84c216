// wait: block until a condition holds on a terminal — idle, text or regex in new output (never the
// echo of typed input), text gone, a command done, exit — or the timeout passes (a `timeout` error).
// With `any`, on every terminal at once: until one needs a person (an agent waiting on a question,
// a program reading its terminal, a failed exit), or until an agent reaches one of `agent`'s states.
import * as v from "valibot";
import { deferred } from "../protocol/deferred.ts";
import { T4aError } from "../protocol/errors.ts";
import { forDisplay, fromProgram } from "../protocol/program-text.ts";
import { AgentStateName, Milliseconds, TerminalId } from "../protocol/fields.ts";
import type { DaemonContext } from "./context.ts";
import { defineCommand } from "./command.ts";
import { durationOption } from "./durations.ts";
import { NEEDS } from "./needs.ts";
import { NEED_KINDS, type NeedInfo } from "../protocol/need.ts";
import { Worker } from "../protocol/fields.ts";
import { within } from "../terminal/within.ts";
import type { Resume } from "../terminal/event-bus.ts";
import type { TerminalEvent } from "../protocol/events.ts";

export const MAX_WAIT_MS = 3_600_000;
export const DEFAULT_WAIT_MS = 30_000;
/** How long a claim holds unless its worker acts: long enough for a script's next call. */
export const DEFAULT_LEASE_MS = 60_000;

const agentWaitState = () => v.picklist(["working", "waiting", "idle", "exited"]);

export const WaitParams = deferred(() =>
  v.object({
    id: v.optional(TerminalId),
    any: v.optional(
      v.pipe(v.boolean(), v.description("no id: until any terminal needs you (or an agent reaches `agent`)")),
    ),
    idle_ms: v.optional(
      v.pipe(
        Milliseconds,
        v.minValue(1),
        v.description("no output for this many ms (from the wait's start at the earliest)"),
      ),
    ),
    text: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.description("this text appears in output that arrives after the wait began"),
      ),
    ),
    regex: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.description("a line of new output matches this JavaScript regular expression"),
      ),
    ),
    screen: v.optional(
      v.pipe(
        v.boolean(),
        v.description("text, regex: match the rows on the screen now too, not only new output (never a typed echo)"),
      ),
    ),
    gone: v.optional(v.pipe(v.string(), v.minLength(1), v.description("this text is gone from the screen"))),
    command_done: v.optional(
      v.pipe(
        v.boolean(),
        v.description("the running shell command finishes; answers its exit code (needs shell integration)"),
      ),
    ),
    exit: v.optional(v.pipe(v.boolean(), v.description("the program exits; answers its exit code or signal"))),
    input: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "the program waits for typing (a password, y/n or REPL prompt, a shell's prompt), now or later (Linux)",
        ),
      ),
    ),
    agent: v.optional(
      v.pipe(
        v.union([agentWaitState(), v.array(agentWaitState())]),
        v.description("state(s): waiting (for the user), idle (turn done), working, exited"),
      ),
    ),
    timeout_ms: v.optional(
      v.pipe(Milliseconds, v.minValue(1), v.maxValue(MAX_WAIT_MS), v.description("give up after this many ms")),
      DEFAULT_WAIT_MS,
    ),
    since: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description("with any: an event after this seq (info's) that would have answered answers too (a rejoin)"),
      ),
    ),
    instance: v.optional(v.pipe(v.string(), v.maxLength(64), v.description("the daemon instance since counted in"))),
    claim: v.optional(
      v.pipe(v.boolean(), v.description("with any: yours alone until you act, disconnect or its lease ends")),
    ),
    worker: v.optional(Worker),
    lease_ms: v.optional(
      v.pipe(
        Milliseconds,
        v.minValue(1),
        v.maxValue(MAX_WAIT_MS),
        v.description("with claim: the claim lapses after this many ms unless acted on (default 60 s)"),
      ),
    ),
  }),
);

export const WaitReply = deferred(() =>
  v.object({
    condition: v.picklist(["idle", "text", "regex", "gone", "command_done", "exit", "input", "agent", "needs"]),
    elapsed_ms: v.number(),
    /** With `any`: the terminal, and (needs) why it needs a person. */
    terminal: v.optional(v.string()),
    why: v.optional(v.picklist(NEEDS)),
    line: v.optional(v.string()),
    row: v.optional(v.number()),
    match: v.optional(v.string()),
    code: v.optional(v.nullable(v.number())),
    signal: v.optional(v.nullable(v.string())),
    state: v.optional(AgentStateName),
    question_id: v.optional(v.number()),
    process: v.optional(v.string()),
    /** With `any`: the need's id (a question, an idle after a turn, input wanted, a failed exit). */
    need_id: v.optional(v.number()),
    /** idle: which of the agent's turns. */
    turn: v.optional(v.number()),
    /** With claim: who holds it now (the caller), and until when. */
    claimed_by: v.optional(v.string()),
    claim_expires_at: v.optional(v.number()),
  }),
);

/** `waiting,idle` → ["waiting", "idle"]; one state stays a string. */
function agentStates(option: string): string | string[] {
  const states = option
    .split(",")
    .map((state) => state.trim())
    .filter(Boolean);
  return states.length === 1 ? states[0]! : states;
}

export const wait = defineCommand({
  name: "wait",
  params: WaitParams,
  reply: WaitReply,
  async handle(params, ctx) {
    // The row a text or regex wait matched, and its match, are the program's screen (a bidi
    // control lands in a cell); an agent's line and a reader's name are stripped where they are read.
    const reply = await waitFor(params, ctx);
    return {
      ...reply,
      ...(reply.line === undefined ? {} : { line: forDisplay(fromProgram(reply.line)) }),
      ...("match" in reply && reply.match !== undefined ? { match: forDisplay(fromProgram(reply.match)) } : {}),
    };
  },
  cli: {
    usage: "wait [id]",
    summary:
      "Wait until idle, text appears (in new output), text is gone, a command is done, exit, or an agent's state",
    options: [
      ["--idle [duration]", "no output for this long (default 2s)"],
      ["--text <text>", "this text appears in output that arrives after the wait began"],
      ["--regex <regex>", "a line of new output matches (JavaScript syntax)"],
      ["--screen", "with --text or --regex: the screen as it is counts too, not only new output (never a typed echo)"],
      ["--gone <text>", "this text is no longer on the screen"],
      ["--done", "the running shell command finishes (needs shell integration)"],
      ["--exit", "the program exits"],
      ["--input", "the program waits for input: blocked reading the terminal (Linux)"],
      [
        "--agent <states>",
        "an agent session is waiting (for you), idle (turn done), working or exited; several: waiting,idle",
      ],
      [
        "--any",
        "no id: until any terminal needs you (an agent waiting, a program reading " +
          "input, a failed exit), or any agent reaches --agent; prints which and why",
      ],
      ["--all", "with --any: every host in hosts.json too; prints HOST:ID, why and the line"],
      [
        "--claim",
        "with --any: take the need, so no other worker is handed it " +
          "until you act on it (approve, deny, ask, send) or the lease ends",
      ],
      ["--worker <name>", "with --claim: who holds it (name it again when you act); the claim outlives this call"],
      ["--lease <duration>", "with --claim: it lapses after this long unless you act (default 60s)"],
      ["--timeout <duration>", "give up after this long: 500ms, 30s, 2m (default 30s)"],
    ],
    examples: [
      't4a send t1 "make\\n" && t4a wait t1 --done --timeout 10m',
      "t4a wait t1 --text 'Listening on' --timeout 1m",
      "t4a wait t1 --idle 1s",
      'while read -r id why line < <(t4a wait --any --timeout 1h); do t4a approve "$id"; done',
      "t4a wait --any --agent waiting,idle --claim --worker w1 --json  # a pool worker: see docs/orchestrators.md",
    ],
    request([id], options) {
      const conditions = ["idle", "text", "regex", "gone", "done", "exit", "input", "agent"];
      if (!options.any && !conditions.some((name) => options[name] !== undefined && options[name] !== false)) {
        throw new T4aError(
          "invalid_params",
          "wait needs one of --idle --text --regex --gone --done --exit --input --agent (or --any)",
        );
      }
      if (!options.any && id === undefined)
        throw new T4aError("invalid_params", "wait needs a terminal id (or --any for every terminal)");
      return {
        id,
        any: options.any ? true : undefined,
        idle_ms:
          options.idle === undefined
            ? undefined
            : options.idle === true
              ? 2000
              : durationOption(options.idle, "--idle"),
        text: options.text === undefined ? undefined : String(options.text),
        regex: options.regex === undefined ? undefined : String(options.regex),
        screen: options.screen ? true : undefined,
        gone: options.gone === undefined ? undefined : String(options.gone),
        command_done: options.done ? true : undefined,
        exit: options.exit ? true : undefined,
        input: options.input ? true : undefined,
        agent: options.agent === undefined ? undefined : agentStates(String(options.agent)),
        timeout_ms: durationOption(options.timeout, "--timeout"),
        claim: options.claim ? true : undefined,
        worker: options.worker === undefined ? undefined : String(options.worker),
        lease_ms: durationOption(options.lease, "--lease"),
      };
    },
    print(response) {
      if (response.terminal !== undefined)
        // Three columns for `read -r id why line`; the need's id is in --json.
        console.log(`${response.terminal}\t${response.why ?? response.state}\t${response.line ?? ""}`);
      else if (response.condition === "agent") console.log(`${response.state}\t${response.line}`);
      else if (response.condition === "input") console.log(`${response.process}\t${response.line}`);
      else if (response.line !== undefined) console.log(response.line);
      else if (response.code !== undefined) console.log(response.code ?? response.signal);
    },
  },
  mcp: {
    tool: "terminal_wait",
    description:
      "Block until a condition holds; no polling. " +
      "text/regex: new output only, not typed input's echo. " +
      "After typing into an interactive program, idle_ms 300–1000. " +
      "Answers what matched: line, exit code or agent state. " +
      "Timeout (default 30 s): a tool error.",
    blocking: true,
    // An MCP client's claims are its connection's (it names no worker).
    hide: ["since", "instance", "screen", "lease_ms", "worker"],
    fleet: { field: "all", type: "boolean", description: "with any: every host" },
  },
  http: [{ method: "POST", path: "/api/sessions/:id/wait" }],
});

interface ClaimAsk {
  worker?: string;
  connection?: number;
  lease_ms: number;
}

/** Most pressing first; idle (asked for by state) after the rest. */
const needOrder = (need: NeedInfo) => NEED_KINDS.indexOf(need.why);

/**
 * Every terminal: the first (most pressing) that needs a person now, or the first to once an
 * event says something changed; with `states`, the first agent in one of them. Level-triggered:
 * a terminal that already needs you answers at once, so a loop acts on it before it waits again.
 * Each need has an id; a question answered, a need taken by its worker or held by another's
 * claim is not answered; with `claim`, the need answered is the caller's alone (see Session.claim).
 * With `resume` (a client joining again after its link dropped), an event after that seq still in
 * the ring answers too, as it would have then: a need that came and went during the drop.
 */
function waitAny(
  ctx: DaemonContext,
  states: string[] | undefined,
  timeoutMs: number,
  resume?: Resume,
  claim?: ClaimAsk,
) {
  const started = performance.now();
  // A need is what a person acts on: waiting, input, failed; asked for by state, an agent's
  // waiting and idle are needs too (with ids, claimable); other states are states only.
  const kinds: string[] = states
    ? NEED_KINDS.filter((kind) => (kind === "waiting" || kind === "idle") && states.includes(kind))
    : [...NEEDS];
  const plainStates = states?.filter((state) => state !== "waiting" && state !== "idle") ?? [];
  const look = () => {
    const sessions = ctx.sessions.list();
    const open = sessions
      .map((session) => ({ session, need: session.need() }))
      .filter(
        (found): found is { session: (typeof sessions)[number]; need: NeedInfo } =>
          found.need !== undefined && kinds.includes(found.need.why) && found.need.claimed_by === undefined,
      )
      .sort((a, b) => needOrder(a.need) - needOrder(b.need));
    for (const { session, need } of open) {
      const held = claim
        ? session.claim(
            need.need_id,
            claim,
            claim.lease_ms,
            claim.worker === undefined ? ctx.connection?.onClose.bind(ctx.connection) : undefined,
          )
        : need;
      if (!held) continue;
      return states ? agentReply(session.id, held) : needsReply(session.id, held);
    }
    if (!plainStates.length) return undefined;
    const found = sessions
      .map((session) => session.info())
      .find((t) => t.agent_state !== undefined && plainStates.includes(t.agent_state));
    return (
      found && {
        condition: "agent" as const,
        terminal: found.id,
        state: found.agent_state,
        line: found.agent_line ?? "",
      }
    );
  };
  type Found = v.InferOutput<typeof WaitReply>;
  return within<Found>(
    timeoutMs,
    (settle) => {
      const answer = () => {
        const found = look();
        if (found) settle({ ...found, elapsed_ms: Math.round(performance.now() - started) });
      };
      answer();
      // Whatever changes what a terminal needs comes as an event: an agent's state, input wanted,
      // an exit; or from a claim or an ask ending, which no event says.
      let replaying = resume !== undefined;
      const stop = ctx.bus.subscribe(
        undefined,
        (event) => {
          if (event.event !== "agent_state" && event.event !== "input_wanted" && event.event !== "exit") return;
          if (!replaying) return answer();
          const found = then(event, states);
          if (found) settle({ ...found, elapsed_ms: Math.round(performance.now() - started) });
        },
        resume,
      );
      replaying = false;
      const stopNeeds = ctx.sessions.onNeedsChanged(answer);
      return () => {
        stop();
        stopNeeds();
      };
    },
    () => {
      throw new T4aError("timeout", `no terminal needed a person within ${timeoutMs} ms`);
    },
  );
}

/** A need's fields in a wait's reply. */
function needFields(need: NeedInfo) {
  return {
    need_id: need.need_id,
    ...(need.question_id !== undefined ? { question_id: need.question_id } : {}),
    ...(need.turn !== undefined ? { turn: need.turn } : {}),
    ...(need.claimed_by !== undefined ? { claimed_by: need.claimed_by, claim_expires_at: need.claim_expires_at } : {}),
  };
}

function needsReply(terminal: string, need: NeedInfo) {
  const why = need.why as (typeof NEEDS)[number];
  return { condition: "needs" as const, terminal, why, line: need.line, ...needFields(need) };
}

function agentReply(terminal: string, need: NeedInfo) {
  const state = need.why as "waiting" | "idle";
  return { condition: "agent" as const, terminal, state, line: need.line, ...needFields(need) };
}

/** What a past event (replayed from the ring) answered when it came: as look() would have. */
function then(event: TerminalEvent, states: string[] | undefined) {
  if (event.event === "agent_state" && (states ? states.includes(event.state) : event.state === "waiting")) {
    const question = {
      ...(event.question_id !== undefined ? { question_id: event.question_id } : {}),
      ...(event.turn !== undefined ? { turn: event.turn } : {}),
      ...(event.need_id !== undefined ? { need_id: event.need_id } : {}),
    };
    return states
      ? { condition: "agent" as const, terminal: event.terminal, state: event.state, line: event.line, ...question }
      : {
          condition: "needs" as const,
          terminal: event.terminal,
          why: "waiting" as const,
          line: event.line,
          ...question,
        };
  }
  if (states) return undefined;
  if (event.event === "input_wanted")
    return {
      condition: "needs" as const,
      terminal: event.terminal,
      why: "input" as const,
      line: event.process,
      ...(event.need_id !== undefined ? { need_id: event.need_id } : {}),
    };
  // A program that failed by itself (t4a's own kill, a shutdown, is no need).
  if (event.event === "exit" && event.code !== 0 && event.reason === undefined)
    return {
      condition: "needs" as const,
      terminal: event.terminal,
      why: "failed" as const,
      line: `exited ${event.signal ?? event.code}`,
      ...(event.need_id !== undefined ? { need_id: event.need_id } : {}),
    };
  return undefined;
}

/** The wait itself; handle strips the screen's text from its reply. */
async function waitFor(params: v.InferOutput<typeof WaitParams>, ctx: DaemonContext) {
  const { idle_ms, text, gone, command_done, exit, input, screen } = params;
  const others =
    idle_ms !== undefined ||
    text !== undefined ||
    params.regex !== undefined ||
    gone !== undefined ||
    command_done ||
    exit ||
    input;
  if (params.any) {
    if (params.id !== undefined || others)
      throw new T4aError("invalid_params", "any waits on every terminal: give no id, and no condition but agent");
    const resume = params.since === undefined ? undefined : { since: params.since, instance: params.instance };
    if (params.claim && resume) throw new T4aError("invalid_params", "claim takes a need there is now: no since");
    if (params.claim && params.worker === undefined && ctx.connection === undefined)
      throw new T4aError("invalid_params", "claim: name the worker (there is no connection to hold the claim)");
    const claim = params.claim
      ? { worker: params.worker, connection: ctx.connection?.id, lease_ms: params.lease_ms ?? DEFAULT_LEASE_MS }
      : undefined;
    return waitAny(
      ctx,
      params.agent === undefined ? undefined : [params.agent].flat(),
      params.timeout_ms,
      resume,
      claim,
    );
  }
  if (params.claim || params.worker !== undefined || params.lease_ms !== undefined)
    throw new T4aError("invalid_params", "claim, worker and lease are for a wait with any");
  if (params.since !== undefined) throw new T4aError("invalid_params", "since is for a wait with any");
  if (screen && text === undefined && params.regex === undefined)
    throw new T4aError("invalid_params", "screen is for a wait with text or regex");
  if (params.id === undefined) throw new T4aError("invalid_params", "wait needs a terminal id, or any");
  const session = ctx.sessions.get(params.id);
  if (params.agent !== undefined) {
    if (others) throw new T4aError("invalid_params", "agent is a condition of its own: wait for it alone");
    const watch = session.agent;
    if (!watch) throw new T4aError("unsupported", `terminal "${params.id}" runs no agent (create it with --agent)`);
    if (Array.isArray(params.agent) && params.agent.length === 0)
      throw new T4aError("invalid_params", "agent: name at least one state");
    return { condition: "agent" as const, ...(await watch.until(params.agent, params.timeout_ms)) };
  }
  if (!others) {
    throw new T4aError(
      "invalid_params",
      "wait needs a condition: idle_ms, text, regex, gone, command_done, exit, input or agent",
    );
  }
  let regex: RegExp | undefined;
  try {
    regex = params.regex === undefined ? undefined : new RegExp(params.regex);
  } catch (error) {
    throw new T4aError("invalid_params", `invalid regex: ${(error as Error).message}`);
  }
  return {
    ...(await session.terminal.wait(
      { idle_ms, text, regex, screen, gone, command_done, exit, input },
      params.timeout_ms,
    )),
  };
}
