/**
 * Errors the host answers to a client request: a readable message plus a stable `code`
 * (`version_mismatch`, `thread_running`, `invalid_edit`, `not_found`, `bad_request`, …).
 */
export class HostError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}

/** `{ message, code? }` for a response's `error` field. */
export function toErrorPayload(err: unknown): { message: string; code?: string } {
  if (err instanceof HostError) return { message: err.message, code: err.code };
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return { message: (err as unknown as Error).message ?? String(err), code: (err as { code: string }).code };
  }
  if (err instanceof Error && err.name === 'ThreadFileError') return { message: err.message, code: 'bad_thread_file' };
  return { message: err instanceof Error ? err.message : String(err) };
}
