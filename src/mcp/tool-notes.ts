// What a tool says differently from its route, where the HTTP description would mislead an
// agent: the tool takes JSON arguments only (no multipart), and a GET that writes state is not
// read-only. Keyed by operationId; everything else comes from the route's own schema.
export interface ToolNote {
  /** Replaces the operation's summary (the description's first sentence). */
  summary?: string;
  /** Overrides "GET is read-only". */
  readOnly?: boolean;
}

export const TOOL_NOTES: Readonly<Record<string, ToolNote>> = {
  createMedia: { summary: 'Upload a file, by url (the service fetches it) or as base64' },
  // Each call stores a single-use connect state that the consent later spends.
  startConnect: { readOnly: false },
};

/** Tool input names of header parameters, with what the tool says of them (shorter than the route's prose). */
export const HEADER_PROPERTIES: Readonly<Record<string, { property: string; description: string }>> = {
  'x-request-id': { property: 'idempotencyKey', description: 'Idempotency key (24 hours): a retry with the same key never writes twice.' },
};
