/** A host failure as one line for the Evaluate view's inline errors. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
