/** React access to the window's {@link AppState}. */
import { createContext, useContext, type ReactNode } from 'react';
import type { AppState } from './app';

const AppContext = createContext<AppState | null>(null);

export function AppStateProvider({ app, children }: { app: AppState; children: ReactNode }) {
  return <AppContext.Provider value={app}>{children}</AppContext.Provider>;
}

/** The window's state. Throws outside {@link AppStateProvider}. */
export function useApp(): AppState {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp() was called outside <AppStateProvider>.');
  return app;
}
