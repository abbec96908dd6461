/** Clean-up steps a test registers as it starts things, run after it however it ends. */
import { afterAll, afterEach } from 'vitest';

/**
 * Runs the steps given to the returned `defer(step)` in reverse order, awaiting each: after each
 * test (`per: 'test'`) or once after all the file's tests (`per: 'file'`). Registers the vitest
 * hook: call it once, at the top of the file.
 */
export function cleanups(per: 'test' | 'file'): (step: () => unknown) => void {
  const steps: (() => unknown)[] = [];
  (per === 'test' ? afterEach : afterAll)(async () => {
    for (const step of steps.splice(0).reverse()) await step();
  });
  return (step) => void steps.push(step);
}
