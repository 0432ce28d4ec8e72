/** The message of anything thrown, for one-line reports. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return 'unknown error';
  }
}

/** Anything thrown, as an Error (to reject a promise or settle a waiter with). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(messageOf(error));
}
