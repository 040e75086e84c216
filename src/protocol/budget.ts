// Token budgets: a long read (exec, ask, transcript) is cut to a number of characters, and says
// how many it left out. About 4 characters make a token for English and code.

/** What a budgeted read answers by default: ~4k tokens. */
export const DEFAULT_MAX_OUTPUT = 16_000;

/** Text cut to `max` characters by leaving out its middle (a build's first error and its end both stay). */
export function withinBudget(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const head = Math.floor(max / 4);
  const tail = max - head;
  const cut = text.length - head - tail;
  const before = text.slice(0, head);
  const after = text.slice(text.length - tail);
  return {
    text: `${before}${before.endsWith("\n") ? "" : "\n"}[… ${cut} characters cut …]\n${after}`,
    cut,
  };
}
