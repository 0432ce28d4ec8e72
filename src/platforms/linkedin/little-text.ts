// The commentary in LinkedIn's "little" text (linkedin.md §5): every reserved character is
// escaped with a backslash, since LinkedIn silently cuts the text at an unescaped one, except a
// `#` starting a #word (kept as a hashtag) and URLs (left whole so they link) (DESIGN, ours).
const RESERVED = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);
const URL_AT = /^https?:\/\/\S+/u;

export function escapeLittleText(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    const atWordStart = i === 0 || /\s/u.test(text.charAt(i - 1));
    const url = atWordStart ? URL_AT.exec(text.slice(i)) : null;
    if (url) {
      out += url[0];
      i += url[0].length;
      continue;
    }
    const hashtag = ch === '#' && /^#[\p{L}\p{N}]/u.test(text.slice(i)) && (i === 0 || !/[\p{L}\p{N}]/u.test(text.charAt(i - 1)));
    out += RESERVED.has(ch) && !hashtag ? `\\${ch}` : ch;
    i += 1;
  }
  return out;
}

/** A little text as people read it: each backslash escape gives its character. */
export const readLittleText = (text: string): string => text.replace(/\\(.)/gsu, '$1');
