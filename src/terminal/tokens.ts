// What a model pays to read a text, estimated without a tokenizer (none is installed here): a run
// of blanks is one token, a word one per 8 letters, digits one per 3, any other symbol (a box-drawing
// line, punctuation) one each. Nearer what BPE tokenizers do with screens than chars/4. Pure.
export function tokenEstimate(text: string): number {
  let sum = 0;
  for (const [piece] of text.matchAll(/\s+|\p{L}+|\d+|[^\s\p{L}\d]/gu))
    sum += /^\p{L}/u.test(piece) ? Math.ceil(piece.length / 8) : /^\d/.test(piece) ? Math.ceil(piece.length / 3) : 1;
  return sum;
}
