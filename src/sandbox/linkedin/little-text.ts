// LinkedIn's "little" text (linkedin.md §5), as LinkedIn reads a commentary: a backslash makes the
// next character plain; `#` starting a word is a hashtag, `@[Name](urn:li:…)` a mention, and a URL
// a link (the service leaves URLs whole, DESIGN "More platforms"). Any other reserved character
// left unescaped is not refused: LinkedIn silently cuts the text there, which the sandbox copies
// (and records) so a test can see an escaping mistake.
const RESERVED = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);
const URL_AT = /^https?:\/\/\S+/u;
const MENTION_AT = /^@\[([^\]]*)\]\((urn:li:(?:person|organization):[A-Za-z0-9_-]+)\)/u;

/** The text as LinkedIn shows it, and whether it was cut at an unescaped reserved character. */
export function readLittleText(commentary: string): { shown: string; truncated: boolean } {
  let shown = '';
  let i = 0;
  while (i < commentary.length) {
    const rest = commentary.slice(i);
    const ch = commentary.charAt(i);
    const url = (i === 0 || /\s/u.test(commentary.charAt(i - 1))) && URL_AT.exec(rest);
    if (url) {
      shown += url[0];
      i += url[0].length;
      continue;
    }
    if (ch === '\\' && i + 1 < commentary.length) {
      shown += commentary.charAt(i + 1);
      i += 2;
      continue;
    }
    const mention = ch === '@' ? MENTION_AT.exec(rest) : null;
    if (mention) {
      shown += mention[1] ?? '';
      i += mention[0].length;
      continue;
    }
    if (ch === '#' && /^#[\p{L}\p{N}]/u.test(rest) && (i === 0 || !/[\p{L}\p{N}]/u.test(commentary.charAt(i - 1)))) {
      shown += ch;
      i += 1;
      continue;
    }
    if (RESERVED.has(ch)) return { shown, truncated: true };
    shown += ch;
    i += 1;
  }
  return { shown, truncated: false };
}
