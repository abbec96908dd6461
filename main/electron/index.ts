/** Electron main process entry. */
export {};
