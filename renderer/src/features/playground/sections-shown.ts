/**
 * The playground's sections (model, tools, system prompt, messages; Playground.tsx) mount one
 * per task when a thread opens, not all in one: each brings Mantine inputs, editors' static text
 * and the page's first layout of it, and together they made one long task.
 */
import { startTransition, useEffect, useState } from 'react';
import { WAKE_PRIORITY, type WakeQueue } from '../../ui/wake-queue';

/**
 * How many of `count` sections are mounted: none at first (the playground's header mounts
 * alone), then one more per turn of `queue` (ahead of the rows and editors it makes,
 * WAKE_PRIORITY.section), up to `count`.
 */
export function useSectionsShown(queue: WakeQueue, count: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (shown >= count) return;
    return queue.add('section', () => startTransition(() => setShown((n) => n + 1)), WAKE_PRIORITY.section);
  }, [shown, count, queue]);
  return Math.min(shown, count);
}
