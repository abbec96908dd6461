/** React context for the injected {@link HostServices} (docs/architecture.md#renderer). */
import { createContext, useContext, type ReactNode } from 'react';
import type { HostServices } from './types';

const HostContext = createContext<HostServices | null>(null);

/** Provide the host to the tree below. */
export function HostProvider({ host, children }: { host: HostServices; children: ReactNode }) {
  return <HostContext.Provider value={host}>{children}</HostContext.Provider>;
}

/** The host of this window. Throws when used outside a {@link HostProvider}. */
export function useHost(): HostServices {
  const host = useContext(HostContext);
  if (!host) throw new Error('useHost() was called outside <HostProvider>: wrap the app in a HostProvider.');
  return host;
}
