// Text the stores cannot keep as sent is refused where it enters, before validation, on both
// stores alike. PostgreSQL refuses a NUL character in text ("invalid byte sequence for encoding
// UTF8: 0x00"), which made every operation taking one a 500, while SQLite stored it; a lone
// UTF-16 surrogate (JSON "\ud800") is no character at all, and both drivers silently store U+FFFD
// in its place. Nesting is capped too: JSON.parse takes a megabyte of brackets, but JSON.stringify
// (idempotency hashes, stored options) overflows the stack on it.
import type { FastifyRequest } from 'fastify';
import { errors, formatField } from './errors.ts';
import type { Api } from './types.ts';

/** Deeper than any request schema goes (the deepest, a thread item's media URL, is 7 levels down). */
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

/** A container met on the walk, with the way back to the root (built into a path only for an issue). */
interface Step {
  value: object;
  name: string;
  parent: Step | null;
  depth: number;
}

function pathOf(step: Step | null, name?: string): string[] {
  const path = name === undefined ? [] : [name];
  for (let at = step; at?.parent; at = at.parent) path.unshift(at.name);
  return path;
}

/**
 * The first text in a parsed value (strings, and the names of object fields) that the stores
 * cannot keep, or nesting past MAX_DEPTH. Iterative, so hostile nesting cannot overflow the stack;
 * paths are built only for the issue found, so a wide body costs little more than its parse.
 * Raw bodies (a Buffer, kept for a signature check) are bytes, not text: their route parses them.
 */
export function findTextIssue(prefix: string, value: unknown): TextIssue | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { field: formatField(prefix, []), problem } : null;
  }
  if (!isContainer(value)) return null;
  const pending: Step[] = [{ value, name: '', parent: null, depth: 0 }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    // Named by where the nesting starts, not by 32 levels of [0].
    if (step.depth >= MAX_DEPTH) return { field: formatField(prefix, pathOf(step).slice(0, 4)), problem: `nested too deeply (more than ${MAX_DEPTH} levels)` };
    // Strings are checked as they come; containers are walked after their siblings, in order.
    const firstNested = pending.length;
    const container = step.value;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const issue = visit(prefix, step, i, container[i], pending);
        if (issue) return issue;
      }
    } else {
      for (const name of Object.keys(container)) {
        const problem = textProblem(name);
        if (problem) return { field: formatField(prefix, pathOf(step)), problem: `a field name ${problem}` };
        const issue = visit(prefix, step, name, Reflect.get(container, name), pending);
        if (issue) return issue;
      }
    }
    // The stack pops the last first: reverse this container's children to walk them in order.
    reverseFrom(pending, firstNested);
  }
  return null;
}

/** Checks one child of `parent`: a string at once, a container by queueing it on `pending`. */
function visit(prefix: string, parent: Step, key: string | number, child: unknown, pending: Step[]): TextIssue | null {
  if (typeof child === 'string') {
    const problem = textProblem(child);
    return problem ? { field: formatField(prefix, pathOf(parent, String(key))), problem } : null;
  }
  if (isContainer(child)) pending.push({ value: child, name: String(key), parent, depth: parent.depth + 1 });
  return null;
}

function reverseFrom<T>(items: T[], from: number): void {
  for (let i = from, j = items.length - 1; i < j; i++, j--) {
    const a = items[i];
    const b = items[j];
    if (a === undefined || b === undefined) return;
    items[i] = b;
    items[j] = a;
  }
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
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
    findTextIssue('', request.body)
  );
}

/**
 * Every route of `api` checks its path parameters, query and JSON body first. Headers need no
 * walk: Node's parser already refuses a NUL in a header (client-errors.ts answers it), and header
 * values are bytes, so they carry no lone surrogate.
 */
export function registerTextGuard(api: Api): void {
  api.addHook('preValidation', (request, _reply, done) => {
    const issue = requestIssue(request);
    done(issue ? errors.invalid(issue.field, issue.problem) : undefined);
  });
}
