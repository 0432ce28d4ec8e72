// A real webhook receiver on 127.0.0.1: records every request with its raw body and answers as
// the test says (a status, a delay, a hang, Retry-After), one scripted answer per request.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
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
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        for (const wake of this.#waiters) wake();
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
