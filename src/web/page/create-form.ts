// The create form: a command or an agent (with its prompt), a name, the directory, and the spawn
// plugins a browser user reaches for (worktree, sandbox with or without network, direct start,
// auto-approve). A sandbox is never started without a directory: it would work in the home. The
// new session opens fitted to this window: its creator decides its first size.
import { $, api } from "./api.ts";

const form = () => $<HTMLFormElement>("#create");

export function setUpCreateForm(opened: (id: string) => void): void {
  $("#new").addEventListener("click", () => {
    form().hidden = !form().hidden;
    if (!form().hidden) (form().elements.namedItem("command") as HTMLInputElement).focus();
  });
  form().addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form());
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const spec: Record<string, unknown> = {};
    if (text("name")) spec.name = text("name");
    if (text("agent")) {
      spec.agent = text("agent");
      if (text("prompt")) spec.prompt = text("prompt");
      if (data.get("yolo")) spec.yolo = true;
      if (data.get("direct")) spec.spawn_mode = "direct";
    } else if (text("command")) spec.cmd_args = text("command").split(/\s+/);
    if (text("cwd")) spec.cwd = text("cwd");
    if (text("worktree")) spec.worktree = text("worktree");
    if (data.get("sandbox")) {
      spec.sandbox = true;
      if (data.get("net")) spec.sandbox_net = true;
    }
    const error = $("#create-error");
    // A sandbox writes only its directory, and never the home the default would be: ask for one.
    if (spec.sandbox && !spec.cwd) {
      error.textContent = "A sandbox needs a project directory to work in (never your home): fill in Directory.";
      (form().elements.namedItem("cwd") as HTMLInputElement).focus();
      return;
    }
    try {
      const created = await api<{ id: string }>("/api/sessions", { method: "POST", body: JSON.stringify(spec) });
      error.textContent = "";
      form().reset();
      form().hidden = true;
      opened(created.id);
    } catch (failure) {
      error.textContent = (failure as Error).message;
    }
  });
}
