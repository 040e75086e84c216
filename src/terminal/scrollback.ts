// The compact scrollback: rows that scrolled off the top of the screen, archived the moment they
// leave it, as UTF-8 text plus run-length styles in chunked byte arrays, with no JS object per row.
// Knows the packed cell layout xterm uses (below) but imports nothing of xterm; screen.ts feeds it.
//
// A cell is three u32 words, as in xterm's BufferLine: content (code point | COMBINED | width << 22;
// code point 0 = an empty cell), fg and bg (colour and attribute bits). Combined cells (base + marks, ZWJ
// sequences) keep their string aside, and cells whose bg has HAS_EXTENDED an `ext` word (underline
// style and colour). A row of 80 columns costs xterm ~1 KB whatever it holds; here plain text
// costs about one byte per character.

/** xterm's cell layout (BufferLine `_data`). */
export const CELL_WORDS = 3;
const CODEPOINT_MASK = 0x1fffff;
const COMBINED = 0x200000;
const HAS_CONTENT = 0x3fffff;
const WIDTH_SHIFT = 22;
/** bg bit: the cell has an extended-attributes object. */
const HAS_EXTENDED = 0x10000000;

/** A row unpacked to cells, the way screen.ts hands rows over and takes them back. */
export interface PackedRow {
  /** CELL_WORDS words per cell. */
  data: Uint32Array;
  /** Cells in use (xterm may keep a longer array after a resize). */
  length: number;
  combined: Record<number, string>;
  extended: Record<number, { ext: number } | undefined>;
  wrapped: boolean;
}

export interface ScrollbackLimits {
  /**
   * Logical lines kept (a soft-wrapped line counts once, however many rows it takes); the oldest
   * go first. Rows are kept up to this many times the wrap a narrower width makes (see #rowCap).
   */
  rows: number;
  /** Bytes of archived rows kept (0 = no byte limit); the oldest go first. */
  bytes: number;
}

// Record layout: varint header (wrapped | styled << 1 | columns << 2), then the row's text (UTF-8),
// which is what a reader sees: an empty cell reads as a space and a wide character appears once,
// as xterm's translateToString gives it. A plain row (every cell one column, default colours, not
// empty, not combined) is that and nothing more: its text rebuilds it. A styled row puts the text's
// length (a varint padded to 3 bytes) before the text and its runs after it, to the record's end.
// A run: varint (count << 3 | kind), varint fg, varint bg, [varint ext], [varint UTF-16 length].
const RUN_EMPTY = 0; // empty cells (one space each in the text)
const RUN_NARROW = 1; // one code point, one column each
const RUN_WIDE = 2; // one code point, two columns each (xterm's zero-width spacer cell follows)
const RUN_COMBINED = 4; // | width (1 or 2): one cell whose string is longer than a code point

/**
 * Most rows per chunk: short rows (`seq`: 8 bytes) would otherwise make many small chunks, each
 * one zstd call. A chunk's row offsets start at FIRST_CHUNK_ROWS and double as it fills.
 */
const CHUNK_ROWS = 4096;
const FIRST_CHUNK_ROWS = 256;
const CHUNK_BYTES = 32 * 1024;
const FIRST_CHUNK_BYTES = 2 * 1024;
/** Full chunks kept uncompressed, newest-sealed compressed first once past it (see #seal). */
export const RAW_SEALED_BYTES = 128 * 1024;
/** Combined cells keep at most this many UTF-16 units (a ZWJ family emoji needs ~11). */
const MAX_CELL_UNITS = 32;

interface Chunk {
  /** The records; null while the chunk is kept compressed. */
  bytes: Uint8Array | null;
  /** A full chunk's records compressed (zstd), once that saves memory. */
  packed: Uint8Array | null;
  used: number;
  /** Byte offset of each row in `bytes`. */
  offsets: Uint32Array;
  count: number;
  /** Absolute number of the chunk's first row. */
  first: number;
  /** Full: rows are no longer added to it. */
  sealed: boolean;
  /** The widest row's columns, and whether any row continues the one before it: a chunk a resize leaves as it is. */
  widest: number;
  anyWrapped: boolean;
}

const decoder = new TextDecoder();
let scratch = new Uint8Array(16 * 1024);

export class Scrollback {
  #chunks: Chunk[] = [];
  /** Absolute numbers: rows [#start, #end) are held. Rows dropped from the top still count. */
  #start = 0;
  #end = 0;
  #bytes = 0;
  /** Held rows that start a logical line (not soft-wrapped): what the row limit counts. */
  #lines = 0;
  /**
   * Most rows held: the row limit at the widest width the archive was rewrapped from, times the
   * wrap the current width makes of such rows. A narrower width keeps as many lines in more rows
   * (`resize 20` then `resize 200` keeps them all, as tmux), and a line that never ends still
   * holds no more cells than the limit's rows did at the widest width.
   */
  #rowCap: number;
  /** Most lines held: the row limit, or the lines a resize brought (the screen's rows archived with it). */
  #lineCap: number;
  #widestCols = 0;
  readonly #limits: ScrollbackLimits;
  /** The compressed chunk read last, decompressed: readers go row by row. */
  #unpacked: { chunk: Chunk; bytes: Uint8Array } | null = null;

  constructor(limits: ScrollbackLimits) {
    this.#limits = limits;
    this.#rowCap = limits.rows;
    this.#lineCap = limits.rows;
  }

  /** Absolute number of the oldest row held (= rows dropped so far). */
  get start(): number {
    return this.#start;
  }

  /** One past the newest row's absolute number. */
  get end(): number {
    return this.#end;
  }

  get length(): number {
    return this.#end - this.#start;
  }

  /** Bytes of the held rows' records, before compression: what the byte limit counts. */
  get byteLength(): number {
    return this.#bytes;
  }

  /** Bytes the archive holds in memory: chunks as stored (full ones compressed) and row offsets. */
  get storedBytes(): number {
    let total = this.#unpacked?.bytes.length ?? 0;
    for (const chunk of this.#chunks) total += (chunk.packed ?? chunk.bytes!).length + chunk.offsets.byteLength;
    return total;
  }

  append(row: PackedRow): void {
    if (this.#limits.rows === 0) {
      this.#start = ++this.#end;
      return;
    }
    // Plain rows (nearly all of a flood) are written straight into the chunk; others go through
    // the scratch buffer, their size unknown until encoded.
    const columns = keptColumns(row);
    const plain = isPlain(row, columns);
    const chunk = this.#room(plain ? 5 + columns * 4 : styledBound(row, columns));
    const at = chunk.used;
    chunk.used = plain ? encodePlain(row, columns, chunk.bytes!, at) : encodeStyled(row, columns, chunk.bytes!, at);
    if (row.wrapped) chunk.anyWrapped = true;
    this.#recorded(chunk, at, columns, row.wrapped);
    this.#enforceLimits();
  }

  /**
   * Append `count` rows, each the one printing a line of printable ASCII (at most a row wide) at
   * the start of a blank row in default colours makes: the record append() writes for it. Line i
   * is text[starts[i], starts[i + 1] - 2): each ends in CR LF, which is not part of its row.
   */
  appendAsciiLines(text: Uint8Array, starts: Uint32Array, count: number): void {
    if (this.#limits.rows === 0) {
      this.#end += count;
      this.#start = this.#end;
      return;
    }
    for (let line = 0; line < count; line++) {
      const start = starts[line]!;
      const end = starts[line + 1]! - 2;
      const columns = end - start;
      const chunk = this.#room(5 + columns);
      const bytes = chunk.bytes!;
      const at = chunk.used;
      let next = writeVarint(bytes, at, columns << 2);
      for (let i = start; i < end; i++) bytes[next++] = text[i]!;
      chunk.used = next;
      this.#recorded(chunk, at, columns, false);
    }
    this.#enforceLimits();
  }

  /** Counts the record just written into the last chunk at `at` as the newest row. */
  #recorded(chunk: Chunk, at: number, columns: number, wrapped: boolean): void {
    chunk.offsets[chunk.count++] = at;
    if (!wrapped) this.#lines++;
    if (columns > chunk.widest) chunk.widest = columns;
    this.#bytes += chunk.used - at;
    this.#end++; // before the next #room: a chunk it makes starts at this.#end
  }

  /** The chunk the next record of at most `size` bytes goes into. */
  #room(size: number): Chunk {
    let chunk = this.#chunks.at(-1);
    if (
      !chunk ||
      chunk.sealed ||
      chunk.count === CHUNK_ROWS ||
      (chunk.used + size > chunk.bytes!.length && chunk.bytes!.length >= CHUNK_BYTES)
    ) {
      if (chunk && !chunk.sealed) this.#seal(chunk);
      // A session's first chunk starts small (most never scroll far); later ones at full size.
      const capacity = this.#chunks.length === 0 ? FIRST_CHUNK_BYTES : CHUNK_BYTES;
      chunk = {
        bytes: new Uint8Array(Math.max(size, capacity)),
        packed: null,
        used: 0,
        offsets: new Uint32Array(FIRST_CHUNK_ROWS),
        count: 0,
        first: this.#end,
        sealed: false,
        widest: 0,
        anyWrapped: false,
      };
      this.#chunks.push(chunk);
    } else if (chunk.used + size > chunk.bytes!.length) {
      const grown = new Uint8Array(Math.max(chunk.used + size, Math.min(chunk.bytes!.length * 2, CHUNK_BYTES)));
      grown.set(chunk.bytes!.subarray(0, chunk.used));
      chunk.bytes = grown;
    }
    if (chunk.count === chunk.offsets.length) {
      const offsets = new Uint32Array(chunk.offsets.length * 2);
      offsets.set(chunk.offsets);
      chunk.offsets = offsets;
    }
    return chunk;
  }

  /** A row's text: empty cells as spaces, up to its last cell that is not empty and plain. */
  text(row: number): string | undefined {
    const at = this.#find(row);
    if (!at) return undefined;
    const { bytes, start, end } = at;
    const [header, next] = readVarint(bytes, start);
    if (!(header & 2)) return decoder.decode(bytes.subarray(next, end));
    const [length, text] = readVarint(bytes, next);
    return decoder.decode(bytes.subarray(text, text + length));
  }

  /** Columns the row's kept cells cover (its text may be shorter: wide characters). */
  columns(row: number): number {
    const at = this.#find(row);
    return at ? readVarint(at.bytes, at.start)[0] >>> 2 : 0;
  }

  wrapped(row: number): boolean {
    const at = this.#find(row);
    return at ? (at.bytes[at.start]! & 1) === 1 : false;
  }

  /** The row as cells, `cols` wide (cells past its kept ones are empty). */
  unpack(row: number, cols: number): PackedRow | undefined {
    const at = this.#find(row);
    return at ? decode(at.bytes, at.start, at.end, cols) : undefined;
  }

  /** Forget the newest `count` rows (they went back onto the screen). */
  dropNewest(count: number): void {
    for (let left = Math.min(count, this.length); left > 0; ) {
      const chunk = this.#chunks.at(-1)!;
      this.#unseal(chunk);
      const live = chunk.first + chunk.count - Math.max(this.#start, chunk.first);
      const take = Math.min(left, live);
      const cut = chunk.count - take;
      this.#lines -= startsIn(chunk, chunk.bytes!, cut, take);
      this.#bytes -= chunk.used - chunk.offsets[cut]!;
      chunk.used = chunk.offsets[cut]!;
      chunk.count = cut;
      this.#end -= take;
      left -= take;
      if (chunk.count === 0 || chunk.first + chunk.count <= this.#start) this.#chunks.pop();
    }
  }

  /** Forget every row (CSI 3 J, a reset); the numbering goes on. */
  clear(): void {
    this.#chunks = [];
    this.#unpacked = null;
    this.#start = this.#end;
    this.#bytes = 0;
    this.#lines = 0;
  }

  /**
   * Rewrap every row for a new width, as tmux and xterm do: soft-wrapped rows join into their
   * logical line, which is cut again at `newCols`; a wide character that would straddle the
   * edge moves to the next row. `oldCols` is the width the rows were archived at.
   *
   * A chunk whose rows all fit the new width and none continues another (most of a shell's
   * output) comes out of the rewrap as it went in: it is kept whole, still compressed, and only
   * renumbered. So a resize costs what it changes, not the archive's size (issue 24: 16 ms per
   * resize at 10 000 rows stalled every other session).
   */
  reflow(oldCols: number, newCols: number, archiveScreen: () => void = () => {}): void {
    newCols = Math.max(newCols, 2); // a wide character must fit in a row
    if (oldCols === newCols) return archiveScreen();
    this.#widestCols = Math.max(this.#widestCols, oldCols, newCols);
    if (this.length === 0) {
      this.#rowCap = this.#lineCap = Infinity;
      archiveScreen();
      return this.#settle(newCols);
    }
    const old = this.#chunks;
    const first = this.#start;
    const last = this.#end;
    const reader = new Scrollback({ rows: Infinity, bytes: 0 });
    reader.#chunks = old;
    this.#unpacked = null;
    reader.#start = first;
    reader.#end = last;
    this.#chunks = [];
    this.#end = this.#start;
    this.#bytes = 0;
    this.#lines = 0;
    // The rewrap keeps every line, and the rows the screen pushes up: only the byte limit applies.
    this.#rowCap = this.#lineCap = Infinity;
    let row = first;
    let index = 0;
    while (row < last) {
      // Every turn starts a logical line: a chunk starting here may pass unchanged.
      while (old[index]!.first + old[index]!.count <= row) index++;
      const chunk = old[index]!;
      const next = old[index + 1];
      if (
        row === Math.max(chunk.first, first) &&
        !chunk.anyWrapped &&
        chunk.widest <= newCols &&
        !(next && reader.wrapped(next.first))
      ) {
        this.#keep(chunk, row);
        row = chunk.first + chunk.count;
        continue;
      }
      // One logical line: its first row, then every row marked as continuing it.
      let count = 1;
      while (row + count < last && reader.wrapped(row + count)) count++;
      if (!this.#rewrapPlain(reader, row, count, oldCols, newCols)) {
        const rows: PackedRow[] = [];
        for (let i = 0; i < count; i++) rows.push(reader.unpack(row + i, oldCols)!);
        for (const out of rewrap(rows, oldCols, newCols)) this.append(out);
      }
      row += count;
    }
    archiveScreen();
    this.#settle(newCols);
  }

  /** The limits at a new width: what the resize brought stays, and no more comes than the wrap allows. */
  #settle(cols: number): void {
    this.#rowCap = Math.max(this.#limits.rows * Math.ceil(this.#widestCols / cols), this.length);
    this.#lineCap = Math.max(this.#limits.rows, this.#lines);
    this.#enforceLimits();
  }

  /**
   * Rewraps a logical line of plain rows (one narrow character a cell, default colours), each but
   * the last full, on their text alone: the records append() would write for the rows rewrap()
   * makes, without a cell array or an object per cell. Answers false, writing nothing, for any
   * other line.
   */
  #rewrapPlain(reader: Scrollback, row: number, count: number, oldCols: number, newCols: number): boolean {
    let size = 0;
    const parts: Array<{ bytes: Uint8Array; start: number; end: number }> = [];
    for (let i = 0; i < count; i++) {
      const at = reader.#find(row + i)!;
      const [header, text] = readVarint(at.bytes, at.start);
      if (header & 2 || (i < count - 1 && header >>> 2 !== oldCols)) return false;
      parts.push({ bytes: at.bytes, start: text, end: at.end });
      size += at.end - text;
    }
    ensureScratch(size);
    const text = scratch;
    let length = 0;
    for (const part of parts) {
      text.set(part.bytes.subarray(part.start, part.end), length);
      length += part.end - part.start;
    }
    let wrapped = reader.wrapped(row);
    let from = 0;
    let columns = 0;
    for (let i = 0; i <= length; i++) {
      // A piece ends at the end of the text, or before the character that would not fit.
      const lead = i < length && (text[i]! & 0xc0) !== 0x80;
      if (i < length && !(lead && columns === newCols)) {
        if (lead) columns++;
        continue;
      }
      if (columns > 0 || i === length) {
        const chunk = this.#room(5 + (i - from));
        const bytes = chunk.bytes!;
        const at = chunk.used;
        let next = writeVarint(bytes, at, (wrapped ? 1 : 0) | (columns << 2));
        bytes.set(text.subarray(from, i), next);
        next += i - from;
        chunk.used = next;
        if (wrapped) chunk.anyWrapped = true;
        this.#recorded(chunk, at, columns, wrapped);
        this.#enforceLimits();
      }
      wrapped = true;
      from = i;
      columns = i < length ? 1 : 0;
    }
    return true;
  }

  /** A chunk the rewrap leaves unchanged, from its row `from` on, appended as it is. */
  #keep(chunk: Chunk, from: number): void {
    const previous = this.#chunks.at(-1);
    if (previous && !previous.sealed) this.#seal(previous);
    // A copy sharing the records: the rewrap still reads the old chunks by their old numbers.
    // Rows before `from` (the first chunk's, dropped by the limits) keep their place before it.
    const kept = { ...chunk, first: this.#end - (from - chunk.first) };
    this.#chunks.push(kept);
    this.#end = kept.first + kept.count;
    this.#bytes += chunk.used - chunk.offsets[from - chunk.first]!;
    this.#lines += chunk.first + chunk.count - from; // no row of a kept chunk continues another
    this.#enforceLimits();
  }

  #find(row: number): { bytes: Uint8Array; start: number; end: number } | undefined {
    if (row < this.#start || row >= this.#end) return undefined;
    const chunks = this.#chunks;
    let low = 0;
    let high = chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (chunks[middle]!.first <= row) low = middle;
      else high = middle - 1;
    }
    const chunk = chunks[low]!;
    const index = row - chunk.first;
    return { bytes: this.#bytesOf(chunk), start: chunk.offsets[index]!, end: recordEnd(chunk, index) };
  }

  #bytesOf(chunk: Chunk): Uint8Array {
    if (chunk.bytes) return chunk.bytes;
    if (this.#unpacked?.chunk !== chunk) this.#unpacked = { chunk, bytes: Bun.zstdDecompressSync(chunk.packed!) };
    return this.#unpacked.bytes;
  }

  /** Make a full chunk appendable again (its newest rows are being dropped). */
  #unseal(chunk: Chunk): void {
    if (!chunk.sealed) return;
    const bytes = new Uint8Array(Math.max(chunk.used, CHUNK_BYTES));
    bytes.set(this.#bytesOf(chunk).subarray(0, chunk.used));
    const offsets = new Uint32Array(Math.max(chunk.count, FIRST_CHUNK_ROWS));
    offsets.set(chunk.offsets);
    Object.assign(chunk, { bytes, packed: null, offsets, sealed: false });
    if (this.#unpacked?.chunk === chunk) this.#unpacked = null;
  }

  /**
   * Close a full chunk to rows and give back its unused bytes and offsets. It is compressed
   * (zstd level 1: ~0.2 ms for 32 KB, 10x on log lines) when that saves a tenth or more, once the
   * archive holds RAW_SEALED_BYTES of full chunks uncompressed: a flood that rotates a small
   * archive (`seq`, `yes`: 10 000 short rows are ~80 KB) would spend a quarter of its ingest
   * compressing chunks the row limit drops moments later.
   */
  #seal(chunk: Chunk): void {
    chunk.sealed = true;
    chunk.offsets = chunk.offsets.slice(0, chunk.count);
    const records = chunk.bytes!.subarray(0, chunk.used);
    let raw = 0;
    for (const other of this.#chunks)
      if (other.sealed && other.bytes) raw += other === chunk ? chunk.used : other.bytes.length;
    const packed = raw > RAW_SEALED_BYTES ? Bun.zstdCompressSync(records, { level: 1 }) : undefined;
    if (packed && packed.length < chunk.used * 0.9) {
      chunk.packed = packed;
      chunk.bytes = null;
    } else if (chunk.bytes!.length > chunk.used) chunk.bytes = records.slice();
  }

  #enforceLimits(): void {
    const bytes = this.#limits.bytes;
    while (
      this.length > this.#rowCap ||
      this.#lines > this.#lineCap ||
      (bytes > 0 && this.#bytes > bytes && this.length > 0)
    ) {
      const chunk = this.#chunks[0]!;
      const index = this.#start - chunk.first;
      const left = chunk.count - index;
      const overRows = this.length - this.#rowCap;
      const overLines = this.#lines - this.#lineCap;
      // The rows over the limits leave a chunk at a time; the byte limit takes one at a time.
      let count: number;
      let starts: number;
      if (!chunk.anyWrapped) {
        count = starts = Math.max(1, Math.min(Math.max(overRows, overLines), left));
      } else {
        // A line leaves whole: its head, then the rows that continue it.
        const records = this.#bytesOf(chunk);
        count = starts = 0;
        for (; count < left; count++) {
          const wrapped = (records[chunk.offsets[index + count]!]! & 1) === 1;
          if (count >= Math.max(1, overRows) && starts >= overLines && (!wrapped || overLines <= 0)) break;
          if (!wrapped) starts++;
        }
      }
      this.#lines -= starts;
      this.#bytes -= recordEnd(chunk, index + count - 1) - chunk.offsets[index]!;
      this.#start += count;
      if (this.#start >= chunk.first + chunk.count) this.#chunks.shift();
    }
  }
}

/** Rows of `count` from `index` on that start a logical line (a record's first byte holds its wrapped bit). */
function startsIn(chunk: Chunk, records: Uint8Array, index: number, count: number): number {
  if (!chunk.anyWrapped) return count;
  let starts = 0;
  for (let i = index; i < index + count; i++) if (!(records[chunk.offsets[i]!]! & 1)) starts++;
  return starts;
}

/** Where a chunk's row `index` ends: where the next begins, or the chunk's end. */
function recordEnd(chunk: Chunk, index: number): number {
  return index + 1 < chunk.count ? chunk.offsets[index + 1]! : chunk.used;
}

/** Columns up to the row's last cell that shows something: a character, or colours (0: a blank row). */
export function keptColumns(row: PackedRow): number {
  const data = row.data;
  let col = Math.min(row.length, data.length / CELL_WORDS);
  // Most of a flood's row is empty cells after a short text: skip them four at a time (one
  // branch per 12 words; this scan was most of the cost of archiving a `seq` row).
  while (col >= 4) {
    const i = (col - 4) * CELL_WORDS;
    const any =
      (data[i]! & HAS_CONTENT) |
      data[i + 1]! |
      data[i + 2]! |
      (data[i + 3]! & HAS_CONTENT) |
      data[i + 4]! |
      data[i + 5]! |
      (data[i + 6]! & HAS_CONTENT) |
      data[i + 7]! |
      data[i + 8]! |
      (data[i + 9]! & HAS_CONTENT) |
      data[i + 10]! |
      data[i + 11]!;
    if (any !== 0) break;
    col -= 4;
  }
  for (; col > 0; col--) {
    const i = (col - 1) * CELL_WORDS;
    const content = data[i]!;
    if (content & HAS_CONTENT || data[i + 1] || data[i + 2]) return col - 1 + Math.max(1, content >>> WIDTH_SHIFT);
  }
  return 0;
}

/** Every cell one column, default colours, not empty, not combined: the text alone rebuilds it. */
function isPlain(row: PackedRow, columns: number): boolean {
  const data = row.data;
  for (let i = 0, end = columns * CELL_WORDS; i < end; i += CELL_WORDS) {
    const content = data[i]!;
    if ((content & ~CODEPOINT_MASK) !== 1 << WIDTH_SHIFT || content === 1 << WIDTH_SHIFT || data[i + 1] || data[i + 2])
      return false;
  }
  return true;
}

/** Write a plain row's record at `at`; returns where it ends. */
function encodePlain(row: PackedRow, columns: number, bytes: Uint8Array, at: number): number {
  at = writeVarint(bytes, at, (row.wrapped ? 1 : 0) | (columns << 2));
  const data = row.data;
  for (let i = 0, end = columns * CELL_WORDS; i < end; i += CELL_WORDS) {
    const codepoint = data[i]! & CODEPOINT_MASK;
    if (codepoint < 0x80) bytes[at++] = codepoint;
    else at = writeUtf8(bytes, at, codepoint);
  }
  return at;
}

/** Most bytes a styled row's record can take. */
function styledBound(row: PackedRow, columns: number): number {
  let bound = 8 + columns * (4 + MAX_RUN_BYTES);
  for (const col in row.combined) bound += Math.min(row.combined[col]!.length, MAX_CELL_UNITS) * 3;
  return bound;
}

/** Write a styled row's record at `at` (text, then runs); returns where it ends. */
function encodeStyled(row: PackedRow, columns: number, bytes: Uint8Array, at: number): number {
  const { data, combined, extended } = row;
  at = writeVarint(bytes, at, (row.wrapped ? 1 : 0) | 2 | (columns << 2));
  const lengthAt = at;
  let text = at + 3;
  // Runs go to scratch meanwhile and follow the text once it is complete.
  ensureScratch(columns * MAX_RUN_BYTES);
  let runs = 0;
  let col = 0;
  while (col < columns) {
    const i = col * CELL_WORDS;
    const content = data[i]!;
    const fg = data[i + 1]!;
    const bg = data[i + 2]!;
    const ext = bg & HAS_EXTENDED ? (extended[col]?.ext ?? 0) : 0;
    const width = content >>> WIDTH_SHIFT;
    if (content & COMBINED) {
      const chars = (combined[col] ?? " ").slice(0, MAX_CELL_UNITS);
      runs = writeRun(runs, 1, RUN_COMBINED | (width === 2 ? 2 : 1), fg, bg, ext, chars.length);
      for (const char of chars) text = writeUtf8(bytes, text, char.codePointAt(0)!);
      col += width === 2 ? 2 : 1;
      continue;
    }
    const kind = cellKind(content);
    const step = kind === RUN_WIDE ? 2 : 1;
    let count = 0;
    // Extend the run while the kind and the style stay the same.
    while (col < columns) {
      const j = col * CELL_WORDS;
      const cell = data[j]!;
      if (
        cellKind(cell) !== kind ||
        data[j + 1] !== fg ||
        data[j + 2] !== bg ||
        (bg & HAS_EXTENDED && (extended[col]?.ext ?? 0) !== ext)
      )
        break;
      const codepoint = kind === RUN_EMPTY ? 0x20 : cell & CODEPOINT_MASK;
      if (codepoint < 0x80) bytes[text++] = codepoint;
      else text = writeUtf8(bytes, text, codepoint);
      count++;
      col += step;
    }
    runs = writeRun(runs, count, kind, fg, bg, ext, 0);
  }
  writePaddedVarint(bytes, lengthAt, text - lengthAt - 3);
  for (let i = 0; i < runs; i++) bytes[text++] = scratch[i]!;
  return text;
}

/** A run's five varints, at most five bytes each. */
const MAX_RUN_BYTES = 25;

function cellKind(content: number): number {
  if (content & COMBINED) return -1;
  const width = content >>> WIDTH_SHIFT;
  if ((content & HAS_CONTENT) === 0 || width === 0) return RUN_EMPTY;
  return width === 2 ? RUN_WIDE : RUN_NARROW;
}

function writeRun(at: number, count: number, kind: number, fg: number, bg: number, ext: number, units: number): number {
  at = writeVarint(scratch, at, count * 8 + kind);
  at = writeVarint(scratch, at, fg);
  at = writeVarint(scratch, at, bg);
  if (bg & HAS_EXTENDED) at = writeVarint(scratch, at, ext);
  if (kind & RUN_COMBINED) at = writeVarint(scratch, at, units);
  return at;
}

function decode(bytes: Uint8Array, start: number, end: number, cols: number): PackedRow {
  const [header, next] = readVarint(bytes, start);
  const columns = header >>> 2;
  const row = blankRow(Math.max(cols, columns), (header & 1) === 1);
  row.length = cols;
  const data = row.data;
  if (!(header & 2)) {
    const text = decoder.decode(bytes.subarray(next, end));
    let col = 0;
    for (const char of text) data[col++ * CELL_WORDS] = char.codePointAt(0)! | (1 << WIDTH_SHIFT);
    return row;
  }
  const [length, textAt] = readVarint(bytes, next);
  const text = decoder.decode(bytes.subarray(textAt, textAt + length));
  let at = textAt + length;
  const runs: number[] = [];
  while (at < end) {
    let value: number;
    [value, at] = readVarint(bytes, at);
    const [fg, afterFg] = readVarint(bytes, at);
    const [bg, afterBg] = readVarint(bytes, afterFg);
    at = afterBg;
    let ext = 0;
    let units = 0;
    if (bg & HAS_EXTENDED) [ext, at] = readVarint(bytes, at);
    if (value & RUN_COMBINED) [units, at] = readVarint(bytes, at);
    runs.push(Math.floor(value / 8), value & 7, fg, bg, ext, units);
  }
  let unit = 0;
  let col = 0;
  for (let r = 0; r < runs.length; r += 6) {
    const [count, kind, fg, bg, ext, units] = runs.slice(r, r + 6) as [number, number, number, number, number, number];
    for (let n = 0; n < count; n++) {
      const i = col * CELL_WORDS;
      data[i + 1] = fg;
      data[i + 2] = bg;
      if (bg & HAS_EXTENDED) row.extended[col] = { ext };
      if (kind & RUN_COMBINED) {
        const width = kind & 3;
        row.combined[col] = text.slice(unit, unit + units);
        unit += units;
        data[i] = COMBINED | (width << WIDTH_SHIFT);
        if (width === 2) spacer(data, col + 1, fg, bg);
        col += width;
        continue;
      }
      const codepoint = text.codePointAt(unit)!;
      unit += codepoint > 0xffff ? 2 : 1;
      if (kind === RUN_EMPTY) data[i] = 1 << WIDTH_SHIFT;
      else data[i] = codepoint | ((kind === RUN_WIDE ? 2 : 1) << WIDTH_SHIFT);
      if (kind === RUN_WIDE) spacer(data, col + 1, fg, bg);
      col += kind === RUN_WIDE ? 2 : 1;
    }
  }
  return row;
}

/** The zero-width cell xterm puts after a wide character. */
function spacer(data: Uint32Array, col: number, fg: number, bg: number): void {
  const i = col * CELL_WORDS;
  if (i >= data.length) return;
  data[i] = 0;
  data[i + 1] = fg;
  data[i + 2] = bg;
}

/** One logical line's rows, cut again at `newCols`. */
function rewrap(rows: PackedRow[], oldCols: number, newCols: number): PackedRow[] {
  // A row whose text fits keeps its cells (and the colours of its empty ones) up to the new width.
  if (rows.length === 1 && contentLength(rows[0]!) <= newCols) {
    const row = blankRow(newCols, rows[0]!.wrapped);
    const keep = Math.min(newCols, rows[0]!.length);
    row.data.set(rows[0]!.data.subarray(0, keep * CELL_WORDS));
    if (keep > 0 && widthAt(rows[0]!, keep - 1) === 2) row.data[(keep - 1) * CELL_WORDS] = 1 << WIDTH_SHIFT;
    for (const [col, chars] of Object.entries(rows[0]!.combined))
      if (Number(col) < keep) row.combined[Number(col)] = chars;
    for (const [col, ext] of Object.entries(rows[0]!.extended)) if (Number(col) < keep) row.extended[Number(col)] = ext;
    return [row];
  }
  // The cells of the logical line: every row but the last counts as full (its empty cells are
  // part of the line), except the empty last cell left where a wide character did not fit; the
  // last row ends at its last character, as in xterm's reflow.
  const cells: Array<{ row: PackedRow; col: number; width: number }> = [];
  rows.forEach((row, index) => {
    let length = oldCols;
    if (index === rows.length - 1) length = contentLength(row);
    else if (widthAt(rows[index + 1]!, 0) === 2 && !(row.data[(oldCols - 1) * CELL_WORDS]! & HAS_CONTENT))
      length = oldCols - 1;
    for (let col = 0; col < length; ) {
      const width = Math.max(1, widthAt(row, col));
      cells.push({ row, col, width });
      col += width;
    }
  });
  const out: PackedRow[] = [];
  let current = blankRow(newCols, rows[0]!.wrapped);
  let col = 0;
  for (const cell of cells) {
    if (col + cell.width > newCols) {
      out.push(current);
      current = blankRow(newCols, true);
      col = 0;
    }
    const from = cell.col * CELL_WORDS;
    current.data.set(cell.row.data.subarray(from, from + cell.width * CELL_WORDS), col * CELL_WORDS);
    const chars = cell.row.combined[cell.col];
    if (chars !== undefined) current.combined[col] = chars;
    const ext = cell.row.extended[cell.col];
    if (ext) current.extended[col] = ext;
    col += cell.width;
  }
  out.push(current);
  return out;
}

/** Columns up to the row's last character (xterm's getTrimmedLength). */
function contentLength(row: PackedRow): number {
  for (let col = row.length - 1; col >= 0; col--) {
    const content = row.data[col * CELL_WORDS]!;
    if (content & HAS_CONTENT) return col + (content >>> WIDTH_SHIFT);
  }
  return 0;
}

function widthAt(row: PackedRow, col: number): number {
  return col < row.length ? row.data[col * CELL_WORDS]! >>> WIDTH_SHIFT : 0;
}

function blankRow(cols: number, wrapped: boolean): PackedRow {
  const data = new Uint32Array(cols * CELL_WORDS);
  for (let col = 0; col < cols; col++) data[col * CELL_WORDS] = 1 << WIDTH_SHIFT;
  return { data, length: cols, combined: {}, extended: {}, wrapped };
}

function ensureScratch(size: number): void {
  if (scratch.length < size) scratch = new Uint8Array(size * 2);
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  // u32 values, 7 bits per byte.
  value >>>= 0;
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  bytes[at++] = value;
  return at;
}

function readVarint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

/** A varint in exactly three bytes (up to 2^21 - 1), written after what it measures. */
function writePaddedVarint(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = (value & 0x7f) | 0x80;
  bytes[at + 1] = ((value >> 7) & 0x7f) | 0x80;
  bytes[at + 2] = (value >> 14) & 0x7f;
}

function writeUtf8(bytes: Uint8Array, at: number, codepoint: number): number {
  if (codepoint < 0x80) bytes[at++] = codepoint;
  else if (codepoint < 0x800) {
    bytes[at++] = 0xc0 | (codepoint >> 6);
    bytes[at++] = 0x80 | (codepoint & 0x3f);
  } else if (codepoint < 0x10000) {
    // Lone surrogates cannot be UTF-8; xterm may hold one from a broken pair.
    if (codepoint >= 0xd800 && codepoint < 0xe000) codepoint = 0xfffd;
    bytes[at++] = 0xe0 | (codepoint >> 12);
    bytes[at++] = 0x80 | ((codepoint >> 6) & 0x3f);
    bytes[at++] = 0x80 | (codepoint & 0x3f);
  } else {
    bytes[at++] = 0xf0 | (codepoint >> 18);
    bytes[at++] = 0x80 | ((codepoint >> 12) & 0x3f);
    bytes[at++] = 0x80 | ((codepoint >> 6) & 0x3f);
    bytes[at++] = 0x80 | (codepoint & 0x3f);
  }
  return at;
}
