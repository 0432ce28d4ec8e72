// X's post length (platforms/x.md §6): twitter-text configuration v3 — every URL weighs 23 (t.co),
// code points in U+0000–U+10FF, U+2000–U+200D, U+2010–U+201F and U+2032–U+2037 weigh 1, every
// other code point 2, and an emoji sequence (ZWJ, skin tones, flags, keycaps) weighs 2 as a
// whole; the text is NFC-normalised first. The sandbox counts with this too, so both agree.
export const X_TEXT_MAX = 280;
export const X_URL_WEIGHT = 23;

const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x10ff],
  [0x2000, 0x200d],
  [0x2010, 0x201f],
  [0x2032, 0x2037],
];

/** URLs as the length counts them: scheme-led, or a bare host with a dot and a known-looking TLD. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+|\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|co|dev|app|ly|me|gl|fm|tv|ai|us|uk|de|fr|jp)(?:\/[^\s<>"']*)?/giu;
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

const weightOf = (codePoint: number): number => (LIGHT_RANGES.some(([start, end]) => codePoint >= start && codePoint <= end) ? 1 : 2);

/** The URLs of a text, as X finds them (each counts 23 and is replaced by a t.co link). */
export function xUrls(text: string): string[] {
  return [...text.normalize('NFC').matchAll(URL_PATTERN)].map((m) => m[0].replace(/[.,;:!?)]+$/u, ''));
}

export function weightedLength(input: string): number {
  let text = input.normalize('NFC');
  let total = 0;
  for (const url of xUrls(text)) {
    text = text.replace(url, ' ');
    total += X_URL_WEIGHT - 1;
  }
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(text)) {
    if (EMOJI.test(segment)) {
      total += 2;
      continue;
    }
    for (const ch of segment) total += weightOf(ch.codePointAt(0) ?? 0);
  }
  return total;
}
