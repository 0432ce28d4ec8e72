// Test helpers for the sandbox: a standalone sandbox on 127.0.0.1:0, a browser-like walk through
// an authorize page (read the form, tick what is ticked, press a button, follow no redirect),
// and a loopback file server for media downloads.
import { createServer, type Server } from 'node:http';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../../src/sandbox/index.ts';
import * as media from '../fixtures/media.ts';

export async function sandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ seed: 'test', ...options });
}

export interface ConsentForm {
  action: string;
  fields: Array<[string, string]>;
  scopes: string[];
  pages: string[];
  subjects: string[];
  html: string;
}

const attr = (tag: string, name: string): string | undefined => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1]?.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

/** GETs an authorize URL as a browser would and reads its form. */
export async function openConsent(url: string): Promise<ConsentForm> {
  const res = await fetch(url, { redirect: 'manual' });
  const html = await res.text();
  if (res.status !== 200) throw new Error(`authorize page answered ${res.status}: ${html.slice(0, 200)}`);
  const formTag = /<form[^>]*>/.exec(html)?.[0] ?? '';
  const fields: Array<[string, string]> = [];
  const scopes: string[] = [];
  const pages: string[] = [];
  const subjects: string[] = [];
  for (const [tag] of html.matchAll(/<input[^>]*>/g)) {
    const name = attr(tag, 'name') ?? '';
    const value = attr(tag, 'value') ?? '';
    const type = attr(tag, 'type');
    if (name === 'scope') scopes.push(value);
    if (name === 'page') pages.push(value);
    if (name === 'subject') subjects.push(value);
    if (type === 'hidden' || tag.includes(' checked')) fields.push([name, value]);
  }
  return { action: attr(formTag, 'action') ?? '', fields, scopes, pages, subjects, html };
}

export interface SubmitOptions {
  decision?: 'allow' | 'deny';
  /** Untick these scope or page values. */
  untick?: string[];
  subject?: string;
}

/** Presses Allow (or Cancel) and returns the redirect Location. */
export async function submitConsent(form: ConsentForm, options: SubmitOptions = {}): Promise<URL> {
  const body = new URLSearchParams();
  for (const [name, value] of form.fields) {
    if (options.untick?.includes(value) && (name === 'scope' || name === 'page')) continue;
    if (name === 'subject' && options.subject) continue;
    body.append(name, value);
  }
  if (options.subject) body.append('subject', options.subject);
  body.append('decision', options.decision ?? 'allow');
  const res = await fetch(form.action, { method: 'POST', body, redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`consent answered ${res.status}: ${await res.text()}`);
  return new URL(location);
}

/** Authorize, consent and return the redirect in one go. */
export async function consent(url: string, options: SubmitOptions = {}): Promise<URL> {
  return submitConsent(await openConsent(url), options);
}

export interface FileServer {
  url: string;
  /** Requests served, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** Serves fixed bytes per path on 127.0.0.1; unknown paths are 404. */
export async function fileServer(files: Record<string, { body: Buffer; type?: string; delayMs?: number }>): Promise<FileServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const file = files[path];
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    setTimeout(() => res.writeHead(200, { 'content-type': file.type ?? 'application/octet-stream' }).end(file.body), file.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Real files of each type (the service checks an upload's structure, not only its head), and HTML posing as media. */
export const samples = {
  jpeg: media.jpeg(),
  png: media.png(),
  webp: media.webp(),
  gif: media.gif(),
  mp4: media.mp4(),
  mov: media.mov(),
  html: Buffer.from('<!doctype html><html><body>not media</body></html>'),
};

export async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

/** Reads `error` of a Graph answer. */
export async function graphErrorOf(res: Response): Promise<{ code: number; error_subcode?: number; message: string; type: string }> {
  const body = (await res.json()) as { error: { code: number; error_subcode?: number; message: string; type: string } };
  return body.error;
}
