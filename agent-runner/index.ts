/** agent-runner entry: one process per run (DESIGN §1). */
export {};
