// Scope lists arrive comma- or space-separated depending on the platform (Meta and TikTok use
// commas, reddit spaces or commas, platforms.md §1.5, §5.1, §6.1).
export function parseScopes(value: string | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean))];
}
