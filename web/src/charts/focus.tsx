// The connection focus every plot of a run shares: the connection under the pointer is highlighted
// in all of them, a click isolates it (or a group), and the connection panel hides or shows any.
// Plots read it with useFocus(); the state transitions are pure functions in data/connections.ts.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { isolate, isShown, noFocus, toggleHidden, type ConnectionFocus } from '../data/connections';

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
 * one is hovered. `alpha` is 1 when nothing is hovered.
 */
export function emphasis(focus: ConnectionFocus, flow: number): { alpha: number; width: number } {
  if (focus.hovered === null) return { alpha: 1, width: 1 };
  return flow === focus.hovered ? { alpha: 1, width: 2.5 } : { alpha: 0.22, width: 1 };
}

/** Flows in drawing order: the hovered one last, so that it is on top. */
export function drawOrder<T>(items: T[], flowOf: (item: T) => number, focus: ConnectionFocus): T[] {
  if (focus.hovered === null) return items;
  const rest = items.filter((i) => flowOf(i) !== focus.hovered);
  return rest.length === items.length ? items : [...rest, ...items.filter((i) => flowOf(i) === focus.hovered)];
}
