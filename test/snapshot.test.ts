// snapshot through the daemon: a real dialog --menu as elements (CLI outline, --json, the wire),
// the selection following a key, and a screen of thousands of elements answered in bounds.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Sandbox, waitFor } from "./harness.ts";

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = new Sandbox();
});
afterAll(() => sandbox.cleanup());

interface Snapshot {
  ok: boolean;
  mouse: string;
  cursor: { row: number; col: number; visible: boolean };
  elements: Array<{
    ref: string;
    kind: string;
    label?: string;
    selected?: boolean;
    items?: Array<{ ref: string; label: string; selected?: boolean; key?: string }>;
  }>;
  omitted?: number;
}

const selectedItem = (snapshot: Snapshot) =>
  snapshot.elements.find((e) => e.kind === "menu")?.items?.find((item) => item.selected)?.label;

test("dialog --menu as a snapshot: its dialog, menu with the selected item and keys, and buttons; Down moves the selection", async () => {
  const id = await sandbox.ok([
    "create",
    "--",
    "dialog",
    "--title",
    "Pick a fruit",
    "--menu",
    "Choose one:",
    "15",
    "50",
    "4",
    "1",
    "Apple",
    "2",
    "Banana",
    "3",
    "Cherry",
  ]);
  const snap = async () => (await sandbox.request({ cmd: "snapshot", id })).reply as unknown as Snapshot;
  await waitFor(async () => selectedItem(await snap()) === "Apple", 30_000, "dialog's menu");
  const first = await snap();
  expect(first.mouse).not.toBe("none"); // dialog turns the mouse on
  expect(first.elements.map((e) => e.ref)).toEqual(first.elements.map((_, i) => `e${i + 1}`));
  expect(first.elements.find((e) => e.kind === "dialog")?.label).toBe("Pick a fruit");
  const menu = first.elements.find((e) => e.kind === "menu")!;
  expect(menu.items!.map((item) => [item.label, item.key])).toEqual([
    ["Apple", "1"],
    ["Banana", "2"],
    ["Cherry", "3"],
  ]);
  expect(first.elements.filter((e) => e.kind === "button").map((e) => [e.label, e.selected ?? false])).toEqual([
    ["OK", true],
    ["Cancel", false],
  ]);
  // The CLI's outline says the same in a few lines.
  const outline = await sandbox.ok(["snapshot", id]);
  expect(outline).toContain(`- menu [${menu.ref}]`);
  expect(outline).toMatch(new RegExp(`- item "Apple" \\[${menu.ref.replace(".", "\\.")}\\.1\\] \\(selected\\) key=1`));
  expect(JSON.parse(await sandbox.ok(["snapshot", id, "--json"])).elements).toEqual(first.elements);
  await sandbox.request({ cmd: "send", id, keys: ["Down"] });
  await waitFor(async () => selectedItem(await snap()) === "Banana", 30_000, "the selection on Banana");
  await sandbox.ok(["kill", id]);
});

test("a screen of thousands of buttons answers the first 1000 in reading order and counts the rest", async () => {
  // 2800 "< OK >" buttons on a 200x100 screen.
  const script =
    "import sys,time\nsys.stdout.write('\\x1b[2J\\x1b[H' + '\\r\\n'.join(['< OK > ' * 28] * 99)); sys.stdout.flush(); time.sleep(60)";
  const id = await sandbox.ok(["create", "--cols", "200", "--rows", "100", "--", "python3", "-c", script]);
  await waitFor(
    async () => ((await sandbox.request({ cmd: "snapshot", id })).reply as unknown as Snapshot).omitted,
    30_000,
    "the buttons",
  );
  const reply = (await sandbox.request({ cmd: "snapshot", id })).reply as unknown as Snapshot;
  expect(reply.elements.length).toBe(1000);
  expect(reply.omitted).toBe(99 * 28 - 1000);
  expect(reply.elements.at(-1)!.ref).toBe("e1000");
  expect(await sandbox.ok(["snapshot", id])).toContain(`${99 * 28 - 1000} more elements left out`);
  await sandbox.ok(["kill", id]);
});
