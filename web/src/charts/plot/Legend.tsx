// A plot's legend: a swatch per entry (a filled square, a hollow one for a dashed or hidden line,
// or the entry's mark); entries that are toggles show or hide what they name.
import type { LegendEntry } from './types';

export function Legend({ title, entries, onToggle }: { title: string; entries: LegendEntry[]; onToggle?: (toggle: number) => void }) {
  if (entries.length === 0) return null;
  return (
    <ul className="legend" aria-label={`${title} legend`}>
      {entries.map((l) => {
        const swatch = (
          <span className="swatch" style={{ background: l.dash || l.off ? 'transparent' : l.color, borderColor: l.color }}>
            {l.mark}
          </span>
        );
        return (
          <li key={l.name}>
            {l.toggle !== undefined && onToggle ? (
              <button type="button" className="legend-toggle" aria-pressed={!l.off} title={l.off ? 'Show' : 'Hide'} onClick={() => onToggle(l.toggle!)}>
                {swatch}
                {l.name}
              </button>
            ) : (
              <>
                {swatch}
                {l.name}
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
