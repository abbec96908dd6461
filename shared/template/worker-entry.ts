import type { EntrySpec } from '../entry-file.node.js';

/**
 * The template worker thread's entry (shared/entry-file.node.ts): `out/main/template-worker.js`
 * in the build, worker.node.ts of this folder from sources. A file of its own so that finding
 * the entry does not load the template engine.
 */
export const TEMPLATE_WORKER: EntrySpec = { bundleName: 'template-worker.js', sourcePath: 'shared/template/worker.node.ts', envName: 'STEPWISE_TEMPLATE_WORKER_ENTRY' };
