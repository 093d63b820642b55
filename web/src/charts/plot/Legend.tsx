// A plot's legend: a swatch per entry (a filled square; a line sample in the entry's dash pattern,
// so that dashed and dotted lines read apart; or the entry's mark); a hidden entry's swatch is
// hollow. Entries that are toggles show or hide what they name.
import { legendDash } from '../figure';
import type { LegendEntry } from './types';

function Swatch({ entry }: { entry: LegendEntry }) {
  const dash = legendDash(entry);
  if (dash && !entry.mark)
    return (
      <svg className="swatch-line" width="22" height="12" aria-hidden="true">
        <line x1="1" x2="21" y1="6" y2="6" stroke={entry.color} strokeWidth="2" strokeDasharray={dash.join(' ')} opacity={entry.off ? 0.35 : 1} />
      </svg>
    );
  return (
    <span className="swatch" style={{ background: entry.off || entry.mark ? 'transparent' : entry.color, borderColor: entry.color, color: entry.color }}>
      {entry.mark}
    </span>
  );
}

export function Legend({ title, entries, onToggle }: { title: string; entries: LegendEntry[]; onToggle?: (toggle: number) => void }) {
  if (entries.length === 0) return null;
  return (
    <ul className="legend" aria-label={`${title} legend`}>
      {entries.map((l) => (
        <li key={l.name}>
          {l.toggle !== undefined && onToggle ? (
            <button type="button" className="legend-toggle" aria-pressed={!l.off} title={l.off ? 'Show' : 'Hide'} onClick={() => onToggle(l.toggle!)}>
              <Swatch entry={l} />
              {l.name}
            </button>
          ) : (
            <>
              <Swatch entry={l} />
              {l.name}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
