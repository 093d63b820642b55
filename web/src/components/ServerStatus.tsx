// Whether the REST API answers. The explorer works without it; saving, links and batches do not,
// and a banner says so.
import { createContext, useCallback, useEffect, useState, type ReactNode } from 'react';
import { serverReachable } from '../api';

export interface ServerState {
  ok: boolean;
  checked: boolean;
  message?: string;
  recheck: () => void;
}

export const ServerContext = createContext<ServerState>({ ok: false, checked: false, recheck: () => {} });

export function ServerProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<Omit<ServerState, 'recheck'>>({ ok: false, checked: false });
  const recheck = useCallback(() => {
    void serverReachable().then((r) => setState({ ok: r.ok, checked: true, message: r.message }));
  }, []);
  useEffect(recheck, [recheck]);
  return <ServerContext.Provider value={{ ...state, recheck }}>{children}</ServerContext.Provider>;
}

export function ServerBanner({ state }: { state: ServerState }) {
  if (!state.checked || (state.ok && !state.message)) return null;
  return (
    <div className={state.ok ? 'banner warn' : 'banner error'} role="alert" data-testid="server-banner">
      {state.ok ? state.message : `Server unreachable: ${state.message ?? ''} Simulations still run in this browser.`}{' '}
      <button type="button" onClick={state.recheck}>
        Retry
      </button>
    </div>
  );
}
