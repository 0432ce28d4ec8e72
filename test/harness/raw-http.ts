// HTTP on a bare socket, for what fetch refuses to send: a NUL in a header, headers over the
// size limit, a Content-Length that disagrees with the body, a malformed request line. Sends
// the bytes, reads until the server closes the connection (or `waitMs` passes), and splits what
// came back into responses.
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The responses in `data`, framed by their Content-Length. */
export function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) return responses;
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.subarray(end + 4, end + 4 + length);
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
    rest = rest.subarray(end + 4 + length);
  }
}

export interface RawOptions {
  /** Stop waiting for the server to close after this long. */
  waitMs?: number;
  /** Half-close the connection after sending (the client sends nothing more). */
  endAfterSend?: boolean;
}

/** Sends `bytes` to `url`'s host and port and collects the answer. */
export function rawRequest(url: string, bytes: Buffer | string, options: RawOptions = {}): Promise<{ responses: RawResponse[]; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ host: hostname, port: Number(port) });
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses: parseResponses(Buffer.concat(chunks)), closed });
    };
    const timer = setTimeout(() => finish(false), options.waitMs ?? 2000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset a connection it refused once it has answered.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') finish(true);
      else if (!settled) reject(error);
    });
    socket.on('connect', () => {
      if (options.endAfterSend) socket.end(bytes);
      else socket.write(bytes);
    });
  });
}
