// Answering a session without opening it: Approve / Always / Deny for an agent's question (the
// keys its preset names, through approve/deny), the keys a plain program's question names (1, y,
// Enter), and a reply box: the next prompt for an idle agent (ask, not waited on), a line of text
// for anything else (send + Enter). Shared by the list's cards and the terminal view's bar. Never
// HTML: questions and screens are the programs' text.
import { api, element, sessionPath, type Session } from "./api.ts";
import { readingInput } from "./needs.ts";

export interface AgentAnswers {
  yes: string[];
  always?: string[];
  no: string[];
}

/** The presets' answer keys by agent name (GET /api/agents without running each CLI's --version), read once. */
let presets: Promise<Map<string, AgentAnswers>> | undefined;
export function agentAnswers(): Promise<Map<string, AgentAnswers>> {
  presets ??= api<{ agents: Array<{ name: string; answers?: AgentAnswers }> }>("/api/agents?versions=false").then(
    (read) => new Map(read.agents.flatMap((agent) => (agent.answers ? [[agent.name, agent.answers] as const] : []))),
    () => {
      presets = undefined;
      return new Map();
    },
  );
  return presets;
}
let known = new Map<string, AgentAnswers>();

/** How many presets' answer keys are known (a drawing made before they were is made again). */
export function answersKnown(): number {
  return known.size;
}

/** The answer keys known now (empty until the first read lands: then the caller draws again). */
export function answersLoaded(): Promise<void> | undefined {
  if (known.size) return undefined;
  return agentAnswers().then((map) => {
    known = map;
  });
}

/** ask gets this long: it types the prompt and the page moves on (the card follows the turn). */
const ASK_TIMEOUT_MS = 1500;

export type Act = "approve" | "always" | "deny";

/** Sends one answer; resolves when the daemon took it, rejects with its refusal. */
export async function act(id: string, what: Act): Promise<void> {
  if (what === "deny") await api(sessionPath(id, "/deny"), { method: "POST", body: "{}" });
  else
    await api(sessionPath(id, "/approve"), {
      method: "POST",
      body: JSON.stringify(what === "always" ? { always: true } : {}),
    });
}

/** The reply box's text to a session: an idle agent's next prompt, else a line typed and Enter. */
export async function reply(session: Session, text: string): Promise<void> {
  if (session.agent && session.alive && session.agent_state === "idle") {
    await api(sessionPath(session.id, "/ask"), {
      method: "POST",
      body: JSON.stringify({ prompt: text, timeout_ms: ASK_TIMEOUT_MS, max_output: 100 }),
    });
  } else
    await api(sessionPath(session.id, "/send"), {
      method: "POST",
      body: JSON.stringify({ input: text, keys: ["Enter"] }),
    });
}

/** Keys a program's question names on its last rows: y/n, numbered choices; Enter always. */
export function keysAsked(lastRows: string): string[] {
  const rows = lastRows
    .split("\n")
    .map((row) => row.trim())
    .filter(Boolean)
    .slice(-6);
  const last = rows.at(-1) ?? "";
  const keys: string[] = [];
  if (/[[(]\s*y(es)?\s*\/\s*n(o)?\s*[\])]|\by\/n\b|yes\/no/i.test(last)) keys.push("y", "n");
  const numbered = rows.flatMap((row) => /^(?:[❯>›*]\s*)?(\d)[.)]\s+\S/.exec(row)?.[1] ?? []);
  for (const digit of numbered) if (!keys.includes(digit)) keys.push(digit);
  keys.push("Enter");
  return keys;
}

export interface ControlsHandlers {
  /** An answer or reply went through: the caller moves on (focus, state). */
  done(id: string): void;
  /** The last rows of the session's screen, as text (for a program's own question). */
  lastRows?(id: string): string;
}

/** The reply boxes, one per session, kept across redraws (what is typed there survives a list read). */
const replyBoxes = new Map<string, HTMLFormElement>();

/**
 * The controls for a session that can be answered, or undefined: buttons for a question, and the
 * reply box. `where` tells the card's from the terminal bar's (they are separate elements).
 */
export function answerControls(
  session: Session,
  handlers: ControlsHandlers,
  where: "card" | "bar",
): HTMLElement | undefined {
  if (!session.alive) return undefined;
  const waiting = session.agent_state === "waiting";
  const input = readingInput(session);
  const idleAgent = session.agent !== undefined && session.agent_state === "idle";
  if (!waiting && !input && !idleAgent) return undefined;
  const box = element("div", "answer");
  box.addEventListener("click", (event) => event.stopPropagation());
  box.addEventListener("keydown", (event) => event.stopPropagation());
  const status = element("span", "answer-error");
  // While an answer goes, no second one; the answer buttons stay off after it (the question is
  // answered; the next drawing brings fresh ones), the reply box's Send comes back (it outlives drawings).
  const run = async (button: HTMLButtonElement | undefined, what: () => Promise<void>) => {
    for (const other of box.querySelectorAll("button")) other.disabled = true;
    status.textContent = "";
    try {
      await what();
      if (button) button.classList.add("done");
      handlers.done(session.id);
    } catch (error) {
      status.textContent = (error as Error).message;
      for (const other of box.querySelectorAll("button.act")) (other as HTMLButtonElement).disabled = false;
    } finally {
      // The reply box itself, not through this drawing's box: a list read while the answer went
      // has moved it into a new card, and its Send would stay off (and Enter in it do nothing).
      for (const send of replyBoxes.get(session.id)?.querySelectorAll("button") ?? []) send.disabled = false;
    }
  };
  if (waiting && session.agent) {
    const answers = known.get(session.agent);
    const buttons: Array<[Act, string, string[] | undefined]> = [
      ["approve", "Approve", answers?.yes],
      ["always", "Always", answers?.always],
      ["deny", "Deny", answers?.no],
    ];
    for (const [what, label, keys] of buttons) {
      // Always only where the preset has it (unknown presets: only yes and no are sure).
      if (what === "always" && !answers?.always) continue;
      const button = element("button", `act ${what}`, label);
      button.dataset.act = what;
      const shortcut = what === "approve" ? " (a)" : what === "deny" ? " (d)" : "";
      button.title = `${label}: presses ${(keys ?? []).join(" ") || "its key"}${shortcut}`;
      button.addEventListener("click", () => void run(button, () => act(session.id, what)));
      box.append(button);
    }
  } else if (input) {
    for (const key of keysAsked(handlers.lastRows?.(session.id) ?? "")) {
      const button = element("button", "act key", key);
      button.dataset.key = key;
      button.title = `Press ${key}`;
      button.addEventListener(
        "click",
        () =>
          void run(button, () =>
            api(sessionPath(session.id, "/send"), { method: "POST", body: JSON.stringify({ keys: [key] }) }),
          ),
      );
      box.append(button);
    }
  }
  if (where === "card") box.append(replyBox(session, run));
  box.append(status);
  return box;
}

function replyBox(
  session: Session,
  run: (button: undefined, what: () => Promise<void>) => Promise<void>,
): HTMLFormElement {
  let form = replyBoxes.get(session.id);
  if (!form) {
    form = element("form", "reply");
    const field = element("input", "");
    field.name = "reply";
    field.autocomplete = "off";
    field.enterKeyHint = "send";
    const send = element("button", "send", "Send");
    send.type = "submit";
    form.append(field, send);
    replyBoxes.set(session.id, form);
  }
  const field = form.querySelector("input")!;
  const idleAgent = session.agent !== undefined && session.agent_state === "idle";
  field.placeholder = idleAgent ? "next prompt… (r)" : session.agent ? "reply… (r)" : "type a line… (r)";
  field.setAttribute("aria-label", `Reply to ${session.id}`);
  // Bound afresh for each drawing: the session (its state) is the one drawn now.
  form.onsubmit = (event) => {
    event.preventDefault();
    const text = field.value;
    if (!text.trim()) return;
    void run(undefined, async () => {
      await reply(session, text);
      field.value = "";
      field.blur();
    });
  };
  field.onkeydown = (event) => {
    if (event.key === "Escape") field.blur();
  };
  return form;
}

/** Sessions gone from the list: their reply boxes go too. */
export function forgetRepliesExcept(live: Set<string>): void {
  for (const id of replyBoxes.keys()) if (!live.has(id)) replyBoxes.delete(id);
}
