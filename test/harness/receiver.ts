// A real webhook receiver on 127.0.0.1: records every request with its raw body and answers as
// the test says (a status, a delay, a hang, Retry-After), one scripted answer per request. Given
// a secret, it checks signatures as the README's receiver does (either signature header) and
// answers 401 to a request signed otherwise.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/sdk/verify-webhook.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** Whether it was signed with `secret`; null when the receiver had none. */
  verified: boolean | null;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** Never answer (until the server closes). */
  hang?: boolean;
  delayMs?: number;
}

export class Receiver {
  readonly received: Received[] = [];
  /** Answers for the next requests, in order; afterwards `fallback`. */
  readonly script: Answer[] = [];
  fallback: Answer = { status: 200 };
  /** The endpoint's signing secret: requests not signed with it are answered 401. */
  secret: string | null = null;
  #server: Server | null = null;
  #hanging = new Set<ServerResponse>();
  #waiters = new Set<() => void>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(port = 0): Promise<this> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const verified = this.secret === null ? null : this.#signed(this.secret, req.headers, body);
        this.received.push({ headers: req.headers, body, at: Date.now(), verified });
        for (const wake of this.#waiters) wake();
        if (verified === false) {
          res.writeHead(401).end();
          return;
        }
        const answer = this.script.shift() ?? this.fallback;
        if (answer.hang) {
          this.#hanging.add(res);
          return;
        }
        const reply = () => res.writeHead(answer.status ?? 200, answer.headers ?? {}).end('ok');
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(port, '127.0.0.1', resolve));
    this.port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  #signed(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
    const header = (name: string) => (typeof headers[name] === 'string' ? headers[name] : undefined);
    return verifyWebhook({
      secret,
      body,
      timestamp: header('x-socialapi-timestamp'),
      signature: header('x-socialapi-signature'),
      previousSignature: header('x-socialapi-signature-previous'),
      // The timestamp is the app's clock, which tests may have moved.
      toleranceSeconds: Number.MAX_SAFE_INTEGER,
    }).ok;
  }

  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs = 5000): Promise<Received[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.received.length >= count) {
          clearTimeout(timer);
          this.#waiters.delete(check);
          resolve(this.received.slice(0, count));
        }
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`receiver got ${this.received.length} of ${count} requests`));
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  async stop(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#hanging.clear();
    const server = this.#server;
    this.#server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
