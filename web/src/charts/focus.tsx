// The connection focus every plot of a run shares: the connection under the pointer is highlighted
// in all of them, a click isolates it (or a group), and the connection panel hides or shows any.
// Plots read it with useFocus(); the state transitions are pure functions in data/connections.ts.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { isolate, isShown, noFocus, toggleHidden, type ConnectionFocus } from '../data/connections';
import { drawOrder as drawOrderOf, emphasis as emphasisOf } from './marks/primitives';

export interface FocusApi {
  focus: ConnectionFocus;
  /** The flow under the pointer (or null when the pointer leaves). */
  hover: (flow: number | null) => void;
  isolate: (flows: number[]) => void;
  toggle: (flows: number[]) => void;
  showAll: () => void;
  shown: (flow: number) => boolean;
}

const FocusContext = createContext<FocusApi>({
  focus: noFocus,
  hover: () => {},
  isolate: () => {},
  toggle: () => {},
  showAll: () => {},
  shown: () => true,
});

export function FocusProvider({ children }: { children: ReactNode }) {
  const [focus, setFocus] = useState<ConnectionFocus>(noFocus);
  const hover = useCallback((flow: number | null) => setFocus((f) => (f.hovered === flow ? f : { ...f, hovered: flow })), []);
  const api = useMemo<FocusApi>(
    () => ({
      focus,
      hover,
      isolate: (flows) => setFocus((f) => isolate(f, flows)),
      toggle: (flows) => setFocus((f) => toggleHidden(f, flows)),
      showAll: () => setFocus((f) => ({ ...f, isolated: null, hidden: new Set() })),
      shown: (flow) => isShown(focus, flow),
    }),
    [focus, hover],
  );
  return <FocusContext.Provider value={api}>{children}</FocusContext.Provider>;
}

export const useFocus = () => useContext(FocusContext);

/**
 * Drawing order and emphasis under a focus: the hovered flow last and bold, the others faded while
 * one is hovered. `alpha` is 1 when nothing is hovered (marks/primitives.ts, for the plot worker).
 */
export const emphasis = (focus: ConnectionFocus, flow: number) => emphasisOf(focus.hovered, flow);

/** Flows in drawing order: the hovered one last, so that it is on top. */
export const drawOrder = <T,>(items: T[], flowOf: (item: T) => number, focus: ConnectionFocus): T[] => drawOrderOf(items, flowOf, focus.hovered);
