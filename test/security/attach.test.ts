// Attacks through `t4a attach` (the user's real terminal shows what a session writes): a program,
// sandboxed or not, writes the clipboard (OSC 52), sets the window title (OSC 0/1/2), or queries
// the terminal (XTGETTCAP, DECRQSS: DCS strings whose answers come back as typed input). None of it
// may reach the attaching terminal unless the user asked (T4A_ATTACH_ALLOW), as under tmux.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BIN, Sandbox, waitFor } from "../harness.ts";

let sandbox: Sandbox;
beforeAll(() => (sandbox = new Sandbox()));
afterAll(() => sandbox.cleanup());

/** Attaches with pipes (no tty): every byte the user's terminal would get is collected. */
async function attached(id: string, env: Record<string, string> = {}) {
  const child = Bun.spawn([BIN, "attach", id], {
    env: { ...sandbox.env, ...env },
    cwd: sandbox.dir,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  let seen = "";
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) seen += decoder.decode(chunk, { stream: true });
  })();
  return {
    seen: () => seen,
    async detach() {
      child.stdin.write(new Uint8Array([0x1c]));
      await child.stdin.flush();
      await child.exited;
      await reading;
    },
  };
}

const ATTACK =
  "printf '\\033]52;c;%s\\007\\033]2;%s\\033\\\\\\033]0;%s\\007\\033P+q544e\\033\\\\\\033P$qm\\033\\\\\\033_Gf=100;A\\033\\\\visible-%s\\n' ZXZpbA== pwned-title pwned-icon marker\n";

test("a session's clipboard write, title and terminal queries never reach the attached terminal", async () => {
  const id = (await sandbox.request({ cmd: "create", cmd_args: ["bash", "--norc", "--noprofile"] })).reply.id as string;
  await waitFor(async () => /[$#] ?$/.test((await sandbox.screen(id)).trimEnd()), 10_000, "the prompt");
  const client = await attached(id);
  await waitFor(() => /[$#]/.test(client.seen()), 10_000, "the screen replayed to the client");
  await sandbox.request({ cmd: "send", id, input: ATTACK });
  await waitFor(() => client.seen().includes("visible-marker"), 10_000, "the program's output");
  await client.detach();
  const seen = client.seen();
  expect(seen).toContain("visible-marker");
  expect(seen).not.toContain("\x1b]52");
  expect(seen).not.toContain("52;c;ZXZpbA=="); // (the typed command line echoes its parts, never this)
  expect(seen).not.toContain("\x1b]2;");
  expect(seen).not.toContain("\x1b]0;");
  expect(seen).not.toContain("\x1bP");
  expect(seen).not.toContain("\x1b_");
  await sandbox.request({ cmd: "kill", id });
  // Asked for, the title and the clipboard pass (the queries still do not). A fresh shell: the
  // session's own emulator answered the DECRQSS above into the first one's input line.
  const again = (await sandbox.request({ cmd: "create", cmd_args: ["bash", "--norc", "--noprofile"] })).reply
    .id as string;
  await waitFor(async () => /[$#] ?$/.test((await sandbox.screen(again)).trimEnd()), 10_000, "the second prompt");
  const allowing = await attached(again, { T4A_ATTACH_ALLOW: "title,clipboard" });
  await waitFor(() => /[$#]/.test(allowing.seen()), 10_000, "the screen replayed to the second client");
  await sandbox.request({ cmd: "send", id: again, input: ATTACK.replace("marker", "marker2") });
  await waitFor(() => allowing.seen().includes("visible-marker2"), 10_000, "the program's output again");
  await allowing.detach();
  expect(allowing.seen()).toContain("\x1b]52;c;ZXZpbA==");
  expect(allowing.seen()).toContain("\x1b]2;pwned-title");
  expect(allowing.seen()).not.toContain("\x1bP");
  await sandbox.request({ cmd: "kill", id: again });
});
