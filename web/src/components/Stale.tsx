// Results that no longer match their inputs: dimmed, under a note that says so, wherever results
// sit beside the inputs that made them (the explorer's run and compare modes, the reuse view).
import type { ReactNode } from 'react';

export function Stale({ stale, children, what = 'the results' }: { stale: boolean; children: ReactNode; what?: string }) {
  return (
    <div className={stale ? 'stale' : undefined} data-stale={stale || undefined}>
      {stale && (
        <p className="stale-note" role="status" data-testid="stale">
          Inputs changed — run again: {what} below are of the inputs as they were.
        </p>
      )}
      <div className="stale-body">{children}</div>
    </div>
  );
}
