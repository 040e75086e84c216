// The create form: a command or an agent (with its prompt), a name, the directory, and the spawn
// plugins a browser user reaches for (worktree, sandbox with or without network, direct start,
// auto-approve). The agents offered are every preset the chosen host's daemon knows (the registry
// and agents.json, GET /api/agents?host=…), each said installed or not on the PATH it searched. A sandbox is never
// started without a directory: it would work in the home. The
// new session opens fitted to this window: its creator decides its first size.
import { $, api, element } from "./api.ts";

const form = () => $<HTMLFormElement>("#create");

interface AgentFound {
  name: string;
  cli: string;
  installed: boolean;
  path: string | null;
}

let agents: { agents: AgentFound[]; searched_path: string } | undefined;

/** Every preset, as the chosen host's daemon finds it: the datalist offers them all, the missing ones said so. */
async function loadAgents(): Promise<void> {
  const host = $<HTMLSelectElement>("#create-host select").value;
  const query = host && host !== "local" ? `&host=${encodeURIComponent(host)}` : "";
  try {
    const found = await api<{ agents: AgentFound[]; searched_path: string }>(`/api/agents?versions=false${query}`);
    if ($<HTMLSelectElement>("#create-host select").value !== host) return; // another host was chosen meanwhile
    agents = found;
  } catch {
    agents = undefined;
    $("#agent-names").replaceChildren();
    return;
  }
  $("#agent-names").replaceChildren(
    ...agents.agents.map((agent) => {
      const option = element("option", "");
      option.value = agent.name;
      option.label = agent.installed ? `${agent.name} — ${agent.path}` : `${agent.name} — not on PATH`;
      return option;
    }),
  );
  $<HTMLInputElement>("input[name=agent]").placeholder = `${agents.agents
    .slice(0, 3)
    .map((agent) => agent.name)
    .join(", ")}…`;
  noteAgent();
}

/** A chosen agent the daemon cannot find: which PATH it searched, and how to fix it, before Create. */
function noteAgent(): void {
  const name = $<HTMLInputElement>("input[name=agent]").value.trim();
  const found = agents?.agents.find((agent) => agent.name === name);
  $("#agent-note").textContent =
    found && !found.installed
      ? `${found.cli} is not on the daemon's PATH (${agents!.searched_path}). ` +
        "Install it, add its directory to PATH in your login shell's startup file (~/.profile) " +
        `and restart the daemon (t4a shutdown), or give its full path as "cli" for "${found.name}" ` +
        "in ~/.config/t4a/agents.json."
      : name && agents && !found
        ? `no agent "${name}": agents.json can add one (~/.config/t4a/agents.json)`
        : "";
}

/** The hosts a session may be started on: this machine and every host of hosts.json the list read. */
export function createHosts(names: string[]): void {
  const select = $<HTMLSelectElement>("#create-host select");
  const chosen = select.value;
  select.replaceChildren(
    ...["local", ...names].map((name) => Object.assign(element("option", "", name), { value: name })),
  );
  if ([...select.options].some((option) => option.value === chosen)) select.value = chosen;
  $("#create-host").hidden = names.length === 0;
}

export function setUpCreateForm(opened: (id: string) => void): void {
  $("#new").addEventListener("click", () => {
    form().hidden = !form().hidden;
    if (!form().hidden) {
      (form().elements.namedItem("command") as HTMLInputElement).focus();
      void loadAgents();
    }
  });
  $("input[name=agent]").addEventListener("input", noteAgent);
  $("#create-host select").addEventListener("change", () => void loadAgents());
  form().addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form());
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const spec: Record<string, unknown> = {};
    if (text("name")) spec.name = text("name");
    // Another machine (hosts.json): the daemon relays the create there; the directory is that machine's.
    if (text("host") && text("host") !== "local") spec.host = text("host");
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
