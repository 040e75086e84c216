// Telling a user in another tab that a session needs them: the count in the document's title
// ("(2) t4a: 1 waiting, 1 review") and favicon, and, when they opt in, a browser notification and
// a short tone as a session comes to need them, in words of its kind (a question, a turn to review,
// a program reading input, a failure). The choices are kept in this browser (localStorage).
import { $, type Session } from "./api.ts";
import { needOf, needSummary, type Need } from "./needs.ts";

const NOTIFY_KEY = "t4a.notify";
const SOUND_KEY = "t4a.sound";

/** What each session needed at the last list read (undefined: the first read, how things are, not news). */
let needsBefore: Map<string, Need> | undefined;
let audio: AudioContext | undefined;

/** Called with every fresh list: updates the count and alerts for sessions that just came to need me. */
export function showNeeds(sessions: Session[], open: (id: string) => void): void {
  const { total, text } = needSummary(sessions);
  document.title = total ? `(${total}) t4a: ${text}` : "t4a";
  drawFavicon(total);
  const needs = new Map<string, Need>();
  for (const session of sessions) {
    const need = needOf(session);
    if (need) needs.set(session.id, need);
  }
  if (needsBefore) {
    for (const session of sessions) {
      const need = needs.get(session.id);
      if (need && needsBefore.get(session.id) !== need) alert(session, need, open);
    }
  }
  needsBefore = needs;
}

/** The notification's title and body, in words of what it needs. */
function wording(session: Session, need: Need): { title: string; body: string } {
  if (need === "waiting") return { title: `${session.id} needs you`, body: session.agent_line ?? "waiting" };
  if (need === "review")
    return { title: `${session.id} finished its turn`, body: session.agent_line ?? "ready for review" };
  if (need === "input")
    return { title: `${session.id} is reading input`, body: `${session.input_wanted} waits for you to type` };
  return {
    title: `${session.id} failed`,
    body: session.signal ? `ended by ${session.signal}` : `exit code ${session.exit_code}`,
  };
}

function alert(session: Session, need: Need, open: (id: string) => void): void {
  if (localStorage.getItem(SOUND_KEY) === "1") tone();
  if (localStorage.getItem(NOTIFY_KEY) !== "1" || !("Notification" in window) || Notification.permission !== "granted")
    return;
  const { title, body } = wording(session, need);
  const notification = new Notification(title, { body, tag: `t4a-${session.id}` });
  notification.onclick = () => {
    window.focus();
    open(session.id);
    notification.close();
  };
}

/** A short two-note chime, made here (no sound file to fetch). */
function tone(): void {
  if (!audio) return;
  const now = audio.currentTime;
  for (const [i, frequency] of [880, 660].entries()) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, now + i * 0.15);
    gain.gain.exponentialRampToValueAtTime(0.001, now + i * 0.15 + 0.14);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(now + i * 0.15);
    oscillator.stop(now + i * 0.15 + 0.15);
  }
}

/** The page's icon with the count of sessions that need me on it (a plain dot when none waits). */
function drawFavicon(count: number): void {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 32;
  const context = canvas.getContext("2d");
  if (!context) return;
  context.fillStyle = "#1b1f24";
  context.fillRect(0, 0, 32, 32);
  context.fillStyle = "#5fb3f9";
  context.font = "bold 15px monospace";
  context.fillText(">_", 3, 21);
  if (count) {
    context.fillStyle = "#e0a526";
    context.beginPath();
    context.arc(22, 10, 10, 0, 2 * Math.PI);
    context.fill();
    context.fillStyle = "#000";
    context.font = "bold 14px sans-serif";
    context.textAlign = "center";
    context.fillText(count > 9 ? "9+" : String(count), 22, 15);
  }
  let link = document.querySelector<HTMLLinkElement>("link[rel=icon]");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.href = canvas.toDataURL("image/png");
  link.dataset.count = String(count);
}

/** The header's two toggles: notifications (asks the browser's permission) and sound. */
export function setUpAlertToggles(): void {
  const notify = $<HTMLButtonElement>("#notify");
  const sound = $<HTMLButtonElement>("#sound");
  const show = () => {
    const granted = "Notification" in window && Notification.permission === "granted";
    const on = localStorage.getItem(NOTIFY_KEY) === "1" && granted;
    notify.setAttribute("aria-pressed", String(on));
    notify.title = !("Notification" in window)
      ? "This browser has no notifications"
      : Notification.permission === "denied"
        ? "Notifications are blocked for this page in the browser's settings"
        : on
          ? "Notifying when a session needs me: a question, a turn to review, input, a failure (click to stop)"
          : "Notify me when a session needs me";
    sound.setAttribute("aria-pressed", String(localStorage.getItem(SOUND_KEY) === "1"));
  };
  notify.addEventListener("click", async () => {
    if (!("Notification" in window)) return;
    if (localStorage.getItem(NOTIFY_KEY) === "1" && Notification.permission === "granted")
      localStorage.removeItem(NOTIFY_KEY);
    else if ((await Notification.requestPermission()) === "granted") localStorage.setItem(NOTIFY_KEY, "1");
    show();
  });
  sound.addEventListener("click", () => {
    if (localStorage.getItem(SOUND_KEY) === "1") localStorage.removeItem(SOUND_KEY);
    else {
      localStorage.setItem(SOUND_KEY, "1");
      tone();
    }
    show();
  });
  // Browsers start audio only after a gesture on the page: the first click or key makes it.
  const unlock = () => {
    audio ??= new AudioContext();
    void audio.resume();
  };
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
  show();
}
