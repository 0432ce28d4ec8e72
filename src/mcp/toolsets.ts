// Toolsets: the tools a client lists, chosen by it (`socialapi mcp --toolsets posts,inbox`,
// SOCIALAPI_MCP_TOOLSETS, `/mcp?toolsets=`). Every tool of all of them is about 75 KB of an
// agent's context before it does anything; the default set, the day-to-day work (accounts, media,
// posts, the inbox's conversations and events), stays under 25 KB (test/mcp-toolsets.test.ts
// measures it). Comments and their moderation are their own toolset: with them the default set
// would be about 28 KB. A tool's toolset is its operation's first OpenAPI tag, so a new route
// lands in its area's toolset unasked.
import { closestName } from '../lib/closest-name.ts';

export const ALL_TOOLSETS = 'all';
/** The toolsets `socialapi mcp` lists when --toolsets is not given (comma-separated). */
export const TOOLSETS_VARIABLE = 'SOCIALAPI_MCP_TOOLSETS';
export const DEFAULT_TOOLSETS: readonly string[] = ['accounts', 'media', 'posts', 'inbox'];

/** Tags whose operations an agent reaches through one toolset: direct messages are the inbox's conversations. */
const MERGED_TAGS: Record<string, string> = { 'direct-messages': 'inbox' };

/** The toolset of an operation: its first tag in kebab case (merged as above), else its path's first segment. */
export function toolsetOf(tags: readonly string[] | undefined, path: string): string {
  const source = tags?.[0] ?? path.split('/').find(Boolean) ?? 'other';
  const name = source.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return MERGED_TAGS[name] ?? name;
}

/** The chosen toolsets, or every one ('all'). */
export type ToolsetChoice = { all: true } | { all: false; names: ReadonlySet<string> };

export class ToolsetError extends Error {}

/**
 * "posts, inbox" → those toolsets; blank or absent → the default set; "all" → every tool. An
 * unknown name is refused with the known ones (a typo would otherwise hide tools silently).
 */
export function parseToolsets(text: string | undefined, known: readonly string[]): ToolsetChoice {
  const names = (text ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (names.includes(ALL_TOOLSETS)) return { all: true };
  if (!names.length) return { all: false, names: new Set(DEFAULT_TOOLSETS.filter((name) => known.includes(name))) };
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = closestName(name, known);
    throw new ToolsetError(`toolsets: unknown toolset ${name}${near ? ` (did you mean ${near}?)` : ''}; the toolsets are ${[...known, ALL_TOOLSETS].join(', ')}`);
  }
  return { all: false, names: new Set(names) };
}

export function chosen(choice: ToolsetChoice, toolset: string): boolean {
  return choice.all || choice.names.has(toolset);
}

/** One key per choice, to share the catalog computed for it. */
export function choiceKey(choice: ToolsetChoice): string {
  return choice.all ? ALL_TOOLSETS : [...choice.names].sort().join(',');
}
