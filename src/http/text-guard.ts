// Text the stores cannot keep as sent is refused where it enters, before validation, on both
// stores alike. PostgreSQL refuses a NUL character in text ("invalid byte sequence for encoding
// UTF8: 0x00"), which made every operation taking one a 500, while SQLite stored it; a lone
// UTF-16 surrogate (JSON "\ud800") is no character at all, and both drivers silently store U+FFFD
// in its place. Nesting is capped too: JSON.parse takes a megabyte of brackets, but JSON.stringify
// (idempotency hashes, stored options) overflows the stack on it.
import type { FastifyRequest } from 'fastify';
import { errors, formatField } from './errors.ts';
import type { Api } from './types.ts';

/** Deeper than any request schema goes (a post's thread items sit at depth 5). */
export const MAX_DEPTH = 32;

export interface TextIssue {
  field: string;
  problem: string;
}

/** What is wrong with a text, or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\0')) return 'must not contain a NUL character';
  if (!text.isWellFormed()) return 'must not contain a lone UTF-16 surrogate';
  return null;
}

/**
 * The first text in a parsed value (strings, and the names of object fields) that the stores
 * cannot keep, or nesting past MAX_DEPTH. Iterative, so hostile nesting cannot overflow the stack.
 * Raw bodies (a Buffer, kept for a signature check) are bytes, not text: their route parses them.
 */
export function findTextIssue(prefix: string, value: unknown): TextIssue | null {
  const pending: Array<{ value: unknown; path: string[] }> = [{ value, path: [] }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value: current, path } = item;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { field: formatField(prefix, path), problem };
    } else if (typeof current === 'object' && current !== null && !ArrayBuffer.isView(current)) {
      // Named by where the nesting starts, not by 32 levels of [0].
      if (path.length >= MAX_DEPTH) return { field: formatField(prefix, path.slice(0, 4)), problem: `nested too deeply (more than ${MAX_DEPTH} levels)` };
      if (Array.isArray(current)) {
        for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], path: [...path, String(i)] });
      } else {
        const entries: Array<[string, unknown]> = Object.entries(current);
        for (let i = entries.length - 1; i >= 0; i--) {
          const [name, child] = entries[i] ?? ['', undefined];
          const problem = textProblem(name);
          if (problem) return { field: formatField(prefix, path), problem: `a field name ${problem}` };
          pending.push({ value: child, path: [...path, name] });
        }
      }
    }
  }
  return null;
}

/** Throws the 400 for a text field read outside the schemas (multipart fields and file names). */
export function assertText(field: string, value: unknown): void {
  const problem = typeof value === 'string' ? textProblem(value) : null;
  if (problem) throw errors.invalid(field, problem);
}

function requestIssue(request: FastifyRequest): TextIssue | null {
  return (
    findTextIssue('path', request.params) ??
    findTextIssue('query', request.query) ??
    findTextIssue('header', request.headers) ??
    findTextIssue('', request.body)
  );
}

/** Every route of `api` checks its path parameters, query, headers and JSON body first. */
export function registerTextGuard(api: Api): void {
  api.addHook('preValidation', (request, _reply, done) => {
    const issue = requestIssue(request);
    done(issue ? errors.invalid(issue.field, issue.problem) : undefined);
  });
}
