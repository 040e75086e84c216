// The element model of docs/elements.md: what `t4a snapshot` reports.

export type Kind =
  | "menu"
  | "question"
  | "button"
  | "input"
  | "checkbox"
  | "radio"
  | "progress"
  | "table"
  | "status"
  | "dialog"
  | "text";

export interface Item {
  ref: string;
  label: string;
  row: number;
  col: number;
  width: number;
  selected?: boolean;
  checked?: boolean;
  key?: string;
}

export interface Element {
  ref: string;
  kind: Kind;
  row: number;
  col: number;
  width: number;
  height: number;
  label?: string;
  value?: string;
  /** An input's default, offered after its prompt's words ("Port [8080]:", npm's "name: (proj)"): Enter takes it. */
  default?: string;
  cursor?: boolean;
  checked?: boolean;
  selected?: boolean;
  percent?: number;
  items?: Item[];
  header?: string[];
  rows?: number;
  text?: string;
}

/** An element before refs are given (in reading order, at the end). */
export type Found = Omit<Element, "ref" | "items"> & { items?: Omit<Item, "ref">[] };
