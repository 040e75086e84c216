// Emoji in colour, the fallback way: the embedded fonts hold emoji as one-colour outlines (GNU
// Unifont), so each emoji is drawn in the colour a reader knows it by (😀 yellow, ✅ green,
// ❌ red) instead of the text colour. Shapes stay monochrome; the colour tells them apart.
// Plain data and one lookup; no emulator, no PNG.

/** [first, last, 0xRRGGBB]: specific entries first, the broad ranges last. */
const COLOURS: Array<[number, number, number]> = [
  [0x2705, 0x2705, 0x3fb950], // ✅
  [0x2714, 0x2714, 0x3fb950], // ✔
  [0x2611, 0x2611, 0x3fb950], // ☑
  [0x274c, 0x274c, 0xe5534b], // ❌
  [0x274e, 0x274e, 0x3fb950], // ❎
  [0x2753, 0x2757, 0xe5534b], // ❓❔❕❗
  [0x26a0, 0x26a0, 0xf2b705], // ⚠
  [0x26d4, 0x26d4, 0xe5534b], // ⛔
  [0x1f6ab, 0x1f6ab, 0xe5534b], // 🚫
  [0x2764, 0x2764, 0xe5534b], // ❤
  [0x1f493, 0x1f49f, 0xf06292], // 💓…💟 hearts
  [0x1f525, 0x1f525, 0xf4701e], // 🔥
  [0x2728, 0x2728, 0xf7c744], // ✨
  [0x2b50, 0x2b50, 0xf7c744], // ⭐
  [0x1f31f, 0x1f31f, 0xf7c744], // 🌟
  [0x26a1, 0x26a1, 0xf7c744], // ⚡
  [0x1f680, 0x1f680, 0x8ab4f8], // 🚀
  [0x1f41b, 0x1f41b, 0x7cb342], // 🐛
  [0x1f4a5, 0x1f4a5, 0xf4701e], // 💥
  [0x1f534, 0x1f534, 0xe5534b], // 🔴
  [0x1f7e0, 0x1f7e0, 0xf4701e], // 🟠
  [0x1f7e1, 0x1f7e1, 0xf7c744], // 🟡
  [0x1f7e2, 0x1f7e2, 0x3fb950], // 🟢
  [0x1f535, 0x1f535, 0x4f8fe6], // 🔵
  [0x1f7e3, 0x1f7e3, 0xa371f7], // 🟣
  [0x1f600, 0x1f64f, 0xf7c744], // faces and gestures
  [0x1f910, 0x1f92f, 0xf7c744], // more faces
  [0x1f970, 0x1f97f, 0xf7c744], // more faces
  [0x1f9d0, 0x1f9d0, 0xf7c744], // 🧐
  [0x1f300, 0x1f32f, 0x8ab4f8], // weather and sky
  [0x1f330, 0x1f37f, 0x7cb342], // plants and food
  [0x1f400, 0x1f4ff, 0xd9a066], // animals and objects
  [0x1f500, 0x1f5ff, 0x8ab4f8], // symbols and objects
  [0x1f680, 0x1f6ff, 0x8ab4f8], // transport
  [0x1f900, 0x1f9ff, 0xd9a066], // supplemental
  [0x1fa70, 0x1faff, 0xd9a066], // extended-A
];

const EMOJI_PRESENTATION = /\p{Emoji_Presentation}/u;

/**
 * The colour to draw a cell's emoji in, or undefined when the cell holds no emoji (text keeps
 * its own colour). An emoji is a code point shown as emoji by default, or any emoji-capable one
 * followed by VS16 (U+FE0F), as in ❤️.
 */
export function emojiColour(codepoint: number, following: number[] | undefined): number | undefined {
  if (codepoint < 0x2000) return undefined;
  const asEmoji = EMOJI_PRESENTATION.test(String.fromCodePoint(codepoint)) || following?.includes(0xfe0f);
  if (!asEmoji) return undefined;
  for (const [first, last, colour] of COLOURS) if (codepoint >= first && codepoint <= last) return colour;
  return 0xf7c744; // any other emoji: the emoji yellow, still unlike text
}
