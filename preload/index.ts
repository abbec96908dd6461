/** Preload: exposes only the Stepwise API through contextBridge. */
export {};
