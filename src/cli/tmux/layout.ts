// A tmux window's layout: the tree of cells its panes fill, as tmux 3.3a's layout.c and
// layout-set.c keep it (split, close, resize, the named layouts), and its layout string.
// Pure: the front end stores the string in tmux_state and resizes each pane's t4a session to
// its cell. pane-border-status is off (tmux's default), so no cell gives a line to a border.

/** PANE_MINIMUM of tmux 3.3a. */
const MINIMUM = 1;

export type Kind = "leftright" | "topbottom";

export interface Cell {
  type: Kind | "pane";
  sx: number;
  sy: number;
  xoff: number;
  yoff: number;
  /** A leaf's pane number (`%N`). */
  pane?: number;
  parent?: Cell;
  cells: Cell[];
}

export const leaf = (pane: number, sx: number, sy: number): Cell => ({
  type: "pane",
  sx,
  sy,
  xoff: 0,
  yoff: 0,
  pane,
  cells: [],
});

/** The leaves (panes) in tmux's order: the tree's, depth first. */
export function leaves(cell: Cell): Cell[] {
  return cell.type === "pane" ? [cell] : cell.cells.flatMap(leaves);
}

export function findPane(root: Cell, pane: number): Cell | undefined {
  return leaves(root).find((cell) => cell.pane === pane);
}

// ----- the layout string -----

function body(cell: Cell): string {
  const head = `${cell.sx}x${cell.sy},${cell.xoff},${cell.yoff}`;
  if (cell.type === "pane") return `${head},${cell.pane}`;
  const inner = cell.cells.map(body).join(",");
  return cell.type === "leftright" ? `${head}{${inner}}` : `${head}[${inner}]`;
}

/** layout_checksum of tmux. */
function checksum(text: string): string {
  let sum = 0;
  for (const char of text) {
    sum = ((sum >> 1) + ((sum & 1) << 15)) & 0xffff;
    sum = (sum + char.charCodeAt(0)) & 0xffff;
  }
  return sum.toString(16).padStart(4, "0");
}

/** tmux's window_layout: checksum, then the tree. */
export function layoutString(root: Cell): string {
  const text = body(root);
  return `${checksum(text)},${text}`;
}

/** A tree stored without its checksum. */
export const store = (root: Cell): string => body(root);

/** A layout string (with or without its checksum) as a tree; undefined when it does not parse. */
export function parseLayout(text: string, checked = false): Cell | undefined {
  let rest = text;
  const sum = /^([0-9a-f]{4}),/.exec(rest);
  if (sum) {
    rest = rest.slice(5);
    if (checked && checksum(rest) !== sum[1]) return undefined;
  } else if (checked) return undefined;
  let at = 0;
  const cell = (parent: Cell | undefined): Cell | undefined => {
    const head = /^(\d+)x(\d+),(\d+),(\d+)/.exec(rest.slice(at));
    if (!head) return undefined;
    at += head[0].length;
    const made: Cell = {
      type: "pane",
      sx: Number(head[1]),
      sy: Number(head[2]),
      xoff: Number(head[3]),
      yoff: Number(head[4]),
      parent,
      cells: [],
    };
    const next = rest[at];
    if (next === "," && /^,\d+/.test(rest.slice(at)) && !/^,\d+x/.test(rest.slice(at))) {
      const id = /^,(\d+)/.exec(rest.slice(at))!;
      at += id[0].length;
      made.pane = Number(id[1]);
      return made;
    }
    if (next !== "{" && next !== "[") return undefined;
    made.type = next === "{" ? "leftright" : "topbottom";
    const close = next === "{" ? "}" : "]";
    at++;
    for (;;) {
      const child = cell(made);
      if (!child) return undefined;
      made.cells.push(child);
      if (rest[at] === ",") {
        at++;
        continue;
      }
      if (rest[at] === close) {
        at++;
        break;
      }
      return undefined;
    }
    return made;
  };
  const root = cell(undefined);
  return root && at === rest.length ? root : undefined;
}

// ----- layout.c -----

function fixOffsets(cell: Cell): void {
  if (cell.type === "pane") return;
  let offset = cell.type === "leftright" ? cell.xoff : cell.yoff;
  for (const child of cell.cells) {
    child.parent = cell;
    if (cell.type === "leftright") {
      child.xoff = offset;
      child.yoff = cell.yoff;
      offset += child.sx + 1;
    } else {
      child.xoff = cell.xoff;
      child.yoff = offset;
      offset += child.sy + 1;
    }
    fixOffsets(child);
  }
}

export function fix(root: Cell): Cell {
  root.parent = undefined;
  root.xoff = 0;
  root.yoff = 0;
  fixOffsets(root);
  return root;
}

/** layout_resize_check: how much the cell can shrink in that direction. */
function resizeCheck(cell: Cell, type: Kind): number {
  if (cell.type === "pane") {
    const available = type === "leftright" ? cell.sx : cell.sy;
    return available > MINIMUM ? available - MINIMUM : 0;
  }
  const each = cell.cells.map((child) => resizeCheck(child, type));
  return cell.type === type ? each.reduce((a, b) => a + b, 0) : Math.min(...each);
}

/** layout_resize_adjust. */
function resizeAdjust(cell: Cell, type: Kind, change: number): void {
  if (type === "leftright") cell.sx += change;
  else cell.sy += change;
  if (cell.type === "pane") return;
  if (cell.type !== type) {
    for (const child of cell.cells) resizeAdjust(child, type, change);
    return;
  }
  let left = change;
  while (left !== 0) {
    let moved = false;
    for (const child of cell.cells) {
      if (left === 0) break;
      if (left > 0) {
        resizeAdjust(child, type, 1);
        left--;
        moved = true;
        continue;
      }
      if (resizeCheck(child, type) > 0) {
        resizeAdjust(child, type, -1);
        left++;
        moved = true;
      }
    }
    if (!moved) break;
  }
}

/**
 * layout_split_pane: the pane's cell split in two (`leftright` is -h); size is the new pane's,
 * -1 for half; before (-b) puts the new one first. The new pane's cell, or undefined: no space.
 */
export function split(root: Cell, pane: number, type: Kind, size: number, before: boolean, added: number): Cell {
  const cell = findPane(root, pane);
  if (!cell) throw new Error(`no pane ${pane} in the layout`);
  const { sx, sy, xoff, yoff } = cell;
  const saved = type === "leftright" ? sx : sy;
  if (saved < MINIMUM * 2 + 1) throw new RangeError("no space for new pane");
  let size2 = size < 0 ? Math.floor((saved + 1) / 2) - 1 : before ? saved - size - 1 : size;
  if (size2 < MINIMUM) size2 = MINIMUM;
  else if (size2 > saved - 2) size2 = saved - 2;
  const size1 = saved - 1 - size2;
  const fresh = leaf(added, 0, 0);
  let parent = cell.parent;
  let top = root;
  if (parent && parent.type === type) {
    fresh.parent = parent;
    parent.cells.splice(parent.cells.indexOf(cell) + (before ? 0 : 1), 0, fresh);
  } else {
    const node: Cell = { type, sx, sy, xoff, yoff, parent, cells: [] };
    if (parent) parent.cells[parent.cells.indexOf(cell)] = node;
    else top = node;
    cell.parent = node;
    fresh.parent = node;
    node.cells = before ? [fresh, cell] : [cell, fresh];
    parent = node;
  }
  const [first, second] = before ? [fresh, cell] : [cell, fresh];
  if (type === "leftright") {
    Object.assign(first, { sx: size1, sy, xoff, yoff });
    Object.assign(second, { sx: size2, sy, xoff: xoff + size1 + 1, yoff });
  } else {
    Object.assign(first, { sx, sy: size1, xoff, yoff });
    Object.assign(second, { sx, sy: size2, xoff, yoff: yoff + size1 + 1 });
  }
  return fix(top);
}

/** layout_close_pane: the pane's cell gone, its space to the cell before it (or after, if first). */
export function close(root: Cell, pane: number): Cell | undefined {
  const cell = findPane(root, pane);
  if (!cell) return root;
  const parent = cell.parent;
  if (!parent) return undefined;
  const at = parent.cells.indexOf(cell);
  const other = at === 0 ? parent.cells[1] : parent.cells[at - 1];
  if (other) resizeAdjust(other, parent.type as Kind, (parent.type === "leftright" ? cell.sx : cell.sy) + 1);
  parent.cells.splice(at, 1);
  let top = root;
  if (parent.cells.length === 1) {
    const only = parent.cells[0]!;
    only.parent = parent.parent;
    if (!parent.parent) top = only;
    else parent.parent.cells[parent.parent.cells.indexOf(parent)] = only;
  }
  return fix(top);
}

function resizeLayout(root: Cell, cell: Cell, type: Kind, change: number, opposite: boolean): void {
  let needed = change;
  while (needed !== 0) {
    const size = change > 0 ? grow(cell, type, needed, opposite) : shrink(cell, type, needed);
    needed += change > 0 ? -size : size;
    if (size === 0) break;
  }
  fix(root);
}

function grow(cell: Cell, type: Kind, needed: number, opposite: boolean): number {
  const siblings = cell.parent!.cells;
  const at = siblings.indexOf(cell);
  let remove: Cell | undefined;
  let size = 0;
  for (let i = at + 1; i < siblings.length; i++) {
    size = resizeCheck(siblings[i]!, type);
    if (size > 0) {
      remove = siblings[i];
      break;
    }
  }
  if (opposite && !remove) {
    for (let i = at - 1; i >= 0; i--) {
      size = resizeCheck(siblings[i]!, type);
      if (size > 0) {
        remove = siblings[i];
        break;
      }
    }
  }
  if (!remove) return 0;
  size = Math.min(size, needed);
  resizeAdjust(cell, type, size);
  resizeAdjust(remove, type, -size);
  return size;
}

function shrink(cell: Cell, type: Kind, needed: number): number {
  const siblings = cell.parent!.cells;
  const at = siblings.indexOf(cell);
  let remove: Cell | undefined;
  let size = 0;
  for (let i = at; i >= 0; i--) {
    size = resizeCheck(siblings[i]!, type);
    if (size !== 0) {
      remove = siblings[i];
      break;
    }
  }
  const add = siblings[at + 1];
  if (!remove || !add) return 0;
  size = Math.min(size, -needed);
  resizeAdjust(add, type, size);
  resizeAdjust(remove, type, -size);
  return size;
}

/** The pane's cell, or the ancestor whose parent runs in that direction (and that parent). */
function inDirection(root: Cell, pane: number, type: Kind): Cell | undefined {
  let cell = findPane(root, pane);
  while (cell?.parent && cell.parent.type !== type) cell = cell.parent;
  return cell?.parent ? cell : undefined;
}

/** layout_resize_pane: resize-pane -L/-R (leftright) or -U/-D (topbottom) by change. */
export function resizePane(root: Cell, pane: number, type: Kind, change: number, opposite = true): Cell {
  let cell = inDirection(root, pane, type);
  if (!cell) return root;
  const siblings = cell.parent!.cells;
  if (cell === siblings[siblings.length - 1]) cell = siblings[siblings.length - 2]!;
  resizeLayout(root, cell, type, change, opposite);
  return root;
}

/** layout_resize_pane_to: resize-pane -x/-y. */
export function resizePaneTo(root: Cell, pane: number, type: Kind, size: number): Cell {
  const cell = inDirection(root, pane, type);
  if (!cell) return root;
  const siblings = cell.parent!.cells;
  const now = type === "leftright" ? cell.sx : cell.sy;
  const change = cell === siblings[siblings.length - 1] ? now - size : size - now;
  return resizePane(root, pane, type, change, true);
}

/** layout_resize: the window made sx by sy, as far as the panes' minimums let it shrink. */
export function resizeWindow(root: Cell, sx: number, sy: number): Cell {
  for (const [type, want, now] of [
    ["leftright", sx, root.sx],
    ["topbottom", sy, root.sy],
  ] as const) {
    let change = want - now;
    const limit = resizeCheck(root, type);
    if (change < 0 && change < -limit) change = -limit;
    if (limit === 0) change = want <= now ? 0 : want - now;
    if (change !== 0) resizeAdjust(root, type, change);
  }
  return fix(root);
}

// ----- layout-set.c -----

/** layout_spread_cell: the children of a node made (nearly) equal, the last taking what is left. */
function spread(cell: Cell): void {
  const number = cell.cells.length;
  if (number <= 1 || cell.type === "pane") return;
  const size = cell.type === "leftright" ? cell.sx : cell.sy;
  if (size < number - 1) return;
  let each = Math.floor((size - (number - 1)) / number);
  if (each === 0) return;
  cell.cells.forEach((child, i) => {
    if (i === number - 1) each = size - (each + 1) * (number - 1);
    const now = cell.type === "leftright" ? child.sx : child.sy;
    resizeAdjust(child, cell.type as Kind, each - now);
  });
}

function node(type: Kind, sx: number, sy: number): Cell {
  return { type, sx, sy, xoff: 0, yoff: 0, cells: [] };
}

function adopt(parent: Cell, child: Cell): Cell {
  child.parent = parent;
  parent.cells.push(child);
  return child;
}

/** The options the main-* layouts read, as tmux's args_string_percentage does. */
function mainSize(value: string | undefined, whole: number, fallback: number): number {
  if (value === undefined) return fallback;
  const percent = /^(\d+)%$/.exec(value);
  if (percent) return Math.floor((whole * Number(percent[1])) / 100);
  return /^\d+$/.test(value) && Number(value) <= whole ? Number(value) : fallback;
}

export const LAYOUT_NAMES = ["even-horizontal", "even-vertical", "main-horizontal", "main-vertical", "tiled"];

/**
 * A named layout for the panes (in order) of a window sx by sy; options: main-pane-width,
 * main-pane-height, other-pane-width, other-pane-height. The window keeps its size where it can.
 */
export function named(
  name: string,
  panes: number[],
  sx: number,
  sy: number,
  options: Record<string, string | undefined>,
): Cell {
  const n = panes.length;
  if (n <= 1) return leaf(panes[0]!, sx, sy);
  if (name === "even-horizontal" || name === "even-vertical") {
    const type: Kind = name === "even-horizontal" ? "leftright" : "topbottom";
    const root = node(
      type,
      type === "leftright" ? Math.max(n * (MINIMUM + 1) - 1, sx) : sx,
      type === "topbottom" ? Math.max(n * (MINIMUM + 1) - 1, sy) : sy,
    );
    for (const pane of panes) adopt(root, leaf(pane, sx, sy));
    spread(root);
    return fix(root);
  }
  if (name === "main-vertical" || name === "main-horizontal") {
    const vertical = name === "main-vertical";
    const others = n - 1;
    const whole = (vertical ? sx : sy) - 1;
    let main = mainSize(options[vertical ? "main-pane-width" : "main-pane-height"], whole, vertical ? 80 : 24);
    let other: number;
    if (main + MINIMUM >= whole) {
      main = whole <= MINIMUM + MINIMUM ? MINIMUM : whole - MINIMUM;
      other = MINIMUM;
    } else {
      other = mainSize(options[vertical ? "other-pane-width" : "other-pane-height"], whole, 0);
      if (other === 0 || other > whole || whole - other < main) other = whole - main;
      else main = whole - other;
    }
    const across = Math.max(others * (MINIMUM + 1) - 1, vertical ? sy : sx);
    const root = vertical ? node("leftright", main + other + 1, across) : node("topbottom", across, main + other + 1);
    adopt(root, vertical ? leaf(panes[0]!, main, across) : leaf(panes[0]!, across, main));
    if (others === 1) adopt(root, vertical ? leaf(panes[1]!, other, across) : leaf(panes[1]!, across, other));
    else {
      const rest = adopt(root, vertical ? node("topbottom", other, across) : node("leftright", across, other));
      for (const pane of panes.slice(1))
        adopt(rest, vertical ? leaf(pane, other, MINIMUM) : leaf(pane, MINIMUM, other));
      spread(rest);
    }
    return fix(root);
  }
  // tiled
  let rows = 1;
  let columns = 1;
  while (rows * columns < n) {
    rows++;
    if (rows * columns < n) columns++;
  }
  const width = Math.max(MINIMUM, Math.floor((sx - (columns - 1)) / columns));
  const height = Math.max(MINIMUM, Math.floor((sy - (rows - 1)) / rows));
  const root = node("topbottom", Math.max((width + 1) * columns - 1, sx), Math.max((height + 1) * rows - 1, sy));
  let next = 0;
  for (let j = 0; j < rows && next < n; j++) {
    const row = adopt(root, leaf(-1, sx, height));
    if (n - j * columns === 1 || columns === 1) {
      row.pane = panes[next++]!;
      continue;
    }
    row.type = "leftright";
    delete row.pane;
    let i = 0;
    for (; i < columns; i++) {
      adopt(row, leaf(panes[next]!, width, height));
      if (++next >= n) break;
    }
    if (i === columns) i--;
    const used = (i + 1) * (width + 1) - 1;
    if (sx > used) resizeAdjust(row.cells[row.cells.length - 1]!, "leftright", sx - used);
  }
  const used = rows * height + rows - 1;
  if (sy > used) resizeAdjust(root.cells[root.cells.length - 1]!, "topbottom", sy - used);
  return fix(root);
}

/** A tree's copy (the stored one is never changed in place). */
export function copy(root: Cell): Cell {
  const parsed = parseLayout(store(root));
  if (!parsed) throw new Error("layout copy");
  return fix(parsed);
}
