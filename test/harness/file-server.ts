// A small HTTP server on 127.0.0.1 that serves what a test puts in it: media for URL uploads,
// redirects, slow or endless bodies. Each route is a handler on (request, response).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export class FileServer {
  readonly routes = new Map<string, Handler>();
  #server: Server | null = null;
  port = 0;

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Serves `body` at `path` with a Content-Length. */
  file(path: string, body: Buffer, type = 'application/octet-stream'): this {
    this.routes.set(path, (_request, response) => response.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body));
    return this;
  }

  redirect(path: string, location: string, status = 302): this {
    this.routes.set(path, (_request, response) => response.writeHead(status, { location }).end());
    return this;
  }

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      const handler = this.routes.get((request.url ?? '/').split('?')[0] ?? '/');
      if (handler) handler(request, response);
      else response.writeHead(404).end('not here');
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this;
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
