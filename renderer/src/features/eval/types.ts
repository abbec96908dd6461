/** The Evaluate view's shapes of host answers (shared/protocol/contract/eval-methods.ts). */
import type { Static } from '@sinclair/typebox';
import type { BatchInfoSchema, CaseResultSchema, DatasetInfoSchema } from '../../../../shared/protocol/contract/eval-methods';

/** A dataset file of the workspace (`eval.datasets`). */
export type DatasetInfo = Static<typeof DatasetInfoSchema>;
/** A batch as listed (`eval.batches`). */
export type BatchInfo = Static<typeof BatchInfoSchema>;
/** One finished case × variant as the host sends it (`threadFile` workspace-relative). */
export type CaseResultWire = Static<typeof CaseResultSchema>;
