// The presets gallery: every built-in scenario, grouped by the seed paper it reproduces, with what
// the paper showed and what each preset runs.
import { Link } from 'react-router-dom';
import { displayReference, firstSentence, groupPresets } from '../data/presets';
import { usePresets } from '../sim';

export function PresetsPage() {
  const { presets, error } = usePresets();
  if (error) return <main className="page"><p className="error" role="alert">The presets could not be loaded: {error}</p></main>;
  if (!presets) return <main className="page"><p>Loading presets…</p></main>;
  return (
    <main className="page gallery">
      <h2>Presets by seed paper</h2>
      {groupPresets(presets).map((g) => (
        <section key={g.paper.key} aria-labelledby={`paper-${g.paper.key}`} data-paper={g.paper.key}>
          <h3 id={`paper-${g.paper.key}`}>{g.paper.title}</h3>
          <p className="hint">{g.paper.finding}</p>
          <ul className="cards">
            {g.presets.map((p) => (
              <li key={p.name} className="card">
                <Link to={`/?preset=${encodeURIComponent(p.name)}`}>{p.name}</Link>
                <p>{firstSentence(p.description)}</p>
                {p.reference && <p className="hint">{displayReference(p.reference)}</p>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}
