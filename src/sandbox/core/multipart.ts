// A minimal multipart/form-data reader for the sandbox's upload endpoints (WhatsApp media
// upload, platforms.md §7.2; ad images §9.3). The whole body is buffered up to a limit (the
// platforms' own upload limits are ≤ 100 MB) and split on the boundary. Text parts become
// strings, file parts a MultipartFile whose bytes stay out of the journal (only the size shows).
export class MultipartFile {
  readonly filename: string | null;
  readonly contentType: string | null;
  readonly size: number;
  readonly #bytes: Buffer;

  constructor(filename: string | null, contentType: string | null, bytes: Buffer) {
    this.filename = filename;
    this.contentType = contentType;
    this.size = bytes.length;
    this.#bytes = bytes;
  }

  get bytes(): Buffer {
    return this.#bytes;
  }
}

export type MultipartFields = Record<string, string | MultipartFile>;

export function isMultipartFile(value: unknown): value is MultipartFile {
  return value instanceof MultipartFile;
}

export function boundaryOf(contentType: string | undefined): string | null {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match?.[1] ?? match?.[2] ?? null;
}

/** Splits a buffered body into its parts; a part that cannot be read is an error. */
export function parseMultipart(body: Buffer, boundary: string): MultipartFields {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: MultipartFields = {};
  let start = body.indexOf(delimiter);
  if (start < 0) throw new Error('multipart body has no boundary');
  for (;;) {
    start += delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const headerEnd = body.indexOf('\r\n\r\n', start);
    if (headerEnd < 0) throw new Error('multipart part has no header end');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headerEnd + 4);
    if (next < 0) throw new Error('multipart body is not terminated');
    const headers = body.subarray(start, headerEnd).toString('utf8');
    const content = body.subarray(headerEnd + 4, next);
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    const type = /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1]?.trim() ?? null;
    if (name !== undefined) {
      fields[name] = filename !== undefined ? new MultipartFile(filename, type, Buffer.from(content)) : content.toString('utf8');
    }
    start = next + 2;
  }
  return fields;
}
