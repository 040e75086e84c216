// Telling a user in another tab that a session waits for them: the count in the document's title
// and favicon, and, when they opt in, a browser notification and a short tone as a session starts
// waiting. The choices are kept in this browser (localStorage).
import { $, type Session } from "./api.ts";

const NOTIFY_KEY = "t4a.notify";
const SOUND_KEY = "t4a.sound";

let waitingBefore: Set<string> | undefined;
let audio: AudioContext | undefined;

/** Called with every fresh list: updates the count and alerts for sessions that just began waiting. */
export function showWaiting(sessions: Session[], open: (id: string) => void): void {
  const waiting = sessions.filter((session) => session.alive && session.agent_state === "waiting");
  const count = waiting.length;
  document.title = count ? `(${count}) t4a: ${count} waiting` : "t4a";
  drawFavicon(count);
  const ids = new Set(waiting.map((session) => session.id));
  // The first list is how things are, not news.
  if (waitingBefore) for (const session of waiting) if (!waitingBefore.has(session.id)) alert(session, open);
  waitingBefore = ids;
}

function alert(session: Session, open: (id: string) => void): void {
  if (localStorage.getItem(SOUND_KEY) === "1") tone();
  if (localStorage.getItem(NOTIFY_KEY) !== "1" || !("Notification" in window) || Notification.permission !== "granted") return;
  const notification = new Notification(`${session.id} needs you`, { body: session.agent_line ?? "waiting", tag: `t4a-${session.id}` });
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

/** The page's icon with the waiting count on it (a plain dot when none waits). */
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
          ? "Notifying when a session starts waiting (click to stop)"
          : "Notify me when a session starts waiting";
    sound.setAttribute("aria-pressed", String(localStorage.getItem(SOUND_KEY) === "1"));
  };
  notify.addEventListener("click", async () => {
    if (!("Notification" in window)) return;
    if (localStorage.getItem(NOTIFY_KEY) === "1" && Notification.permission === "granted") localStorage.removeItem(NOTIFY_KEY);
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
