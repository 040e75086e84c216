// What a session needs from me, in four kinds: an agent waiting on a question, an agent that ended
// its turn and has not been looked at since (review), a plain program reading its terminal, a
// session that ended with a non-zero code. Review is the page's own knowledge (the daemon keeps no
// "seen"): a working → idle change this page saw, kept in this browser until the card or terminal opens.
// A failure, once opened, is known: it stops counting (its card stays, marked failed, until removed).
import { readingInput } from "../../commands/needs.ts";
import type { Session } from "./api.ts";

export type Need = "waiting" | "review" | "input" | "failed";

/** The order a person should look at them in, and how the title counts them. */
export const NEED_ORDER: Need[] = ["waiting", "review", "input", "failed"];
export const NEED_WORDS: Record<Need, string> = {
  waiting: "waiting",
  review: "review",
  input: "reading input",
  failed: "failed",
};

const REVIEW_KEY = "t4a.review";
const KNOWN_FAILURES_KEY = "t4a.failures-seen";
/** A shell reading at its own prompt is not news: it always is. */

/**
 * Sessions whose turn ended unseen: id → when this page saw it end (a session of that name started later is another).
 */
const reviews = new Map<string, number>(readMap(REVIEW_KEY));
/** Failed sessions opened here: id → when (a session of that name started later failed anew). */
const failuresSeen = new Map<string, number>(readMap(KNOWN_FAILURES_KEY));
/** The last agent state seen per session, to tell a turn's end (working → idle) from a start. */
const lastState = new Map<string, string>();

function readMap(key: string): Array<[string, number]> {
  try {
    return Object.entries(JSON.parse(localStorage.getItem(key) ?? "{}") as Record<string, number>);
  } catch {
    return [];
  }
}

function saveReviews(): void {
  localStorage.setItem(REVIEW_KEY, JSON.stringify(Object.fromEntries(reviews)));
}

function saveFailures(): void {
  localStorage.setItem(KNOWN_FAILURES_KEY, JSON.stringify(Object.fromEntries(failuresSeen)));
}

/** A turn that ended: idle after work, or after its question was answered (a deny ends it with no work). */
const turnEnded = (before: string | undefined, state: string | undefined) =>
  state === "idle" && (before === "working" || before === "waiting");

/** An agent_state event: working → idle marks the session for review; any other state clears it. */
export function agentStateSeen(id: string, state: string): void {
  const before = lastState.get(id);
  lastState.set(id, state);
  if (turnEnded(before, state)) {
    reviews.set(id, Date.now());
    saveReviews();
  } else if (state !== "idle" && reviews.delete(id)) saveReviews();
}

/** A fresh list: states are recorded, reviews of sessions gone, busy again or ended are dropped. */
export function sessionsSeen(sessions: Session[]): void {
  const live = new Map(sessions.map((session) => [session.id, session]));
  let changed = false;
  for (const [id, at] of reviews) {
    const session = live.get(id);
    // Busy again, ended, or gone (or a new session under the same name): nothing to review.
    if (!session?.alive || session.agent_state !== "idle" || (session.started_at ?? 0) > at) {
      reviews.delete(id);
      changed = true;
    }
  }
  for (const session of sessions) {
    const state = session.alive ? session.agent_state : "exited";
    const before = lastState.get(session.id);
    // A turn that ended between two reads, its events missed or not yet come, still counts (a loaded machine: the
    // list read idle before the waiting → idle event of a denied question came, and the event then changed nothing).
    if (turnEnded(before, state) && !reviews.has(session.id)) {
      reviews.set(session.id, Date.now());
      changed = true;
    }
    if (state) lastState.set(session.id, state);
  }
  for (const id of lastState.keys()) if (!live.has(id)) lastState.delete(id);
  for (const id of failuresSeen.keys()) {
    if (!live.has(id)) {
      failuresSeen.delete(id);
      saveFailures();
    }
  }
  if (changed) saveReviews();
}

/** The person looked (opened the card or the terminal, or answered it). */
export function seen(id: string, session?: Session): void {
  if (reviews.delete(id)) saveReviews();
  if (session && !session.alive && !failuresSeen.has(id)) {
    failuresSeen.set(id, Date.now());
    saveFailures();
  }
}

export function needOf(session: Session): Need | undefined {
  // Answered (approve, deny, a worker): no longer waiting, though the CLI may not have redrawn yet.
  if (session.alive && session.agent_state === "waiting" && session.agent_question_answered !== true) return "waiting";
  if (session.alive && session.agent_state === "idle" && reviews.has(session.id)) return "review";
  if (session.alive && readingInput(session)) return "input";
  const known = failuresSeen.get(session.id);
  if (
    !session.alive &&
    session.exit_code !== 0 &&
    (session.exit_code !== undefined || session.signal) &&
    !(known && known > (session.started_at ?? 0))
  )
    return "failed";
  return undefined;
}

/**
 * A plain program blocked reading its terminal (not an agent, not a shell at its prompt): as `list --needs` and `wait
 * --any` say.
 */
export { readingInput } from "../../commands/needs.ts";

/** "1 waiting, 1 review": the counts, most pressing first. */
export function needSummary(sessions: Session[]): { total: number; text: string } {
  const counts = new Map<Need, number>();
  for (const session of sessions) {
    const need = needOf(session);
    if (need) counts.set(need, (counts.get(need) ?? 0) + 1);
  }
  const parts = NEED_ORDER.filter((need) => counts.has(need)).map((need) => `${counts.get(need)} ${NEED_WORDS[need]}`);
  return { total: [...counts.values()].reduce((a, b) => a + b, 0), text: parts.join(", ") };
}
