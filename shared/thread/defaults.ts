/**
 * Defaults the runner applies and the UI shows, kept apart from the schemas so that loading
 * them costs nothing (the runner process starts without the schema library).
 */

/** ReAct turn cap when the thread sets none. */
export const DEFAULT_MAX_TURNS = 25;
