// The presets gallery: every built-in scenario, grouped by the seed paper it reproduces, with what
// the paper showed, what each preset runs, and a live thumbnail of its congestion windows.
import { Link } from 'react-router-dom';
import { firstSentence, groupPresets, referenceOf } from '../data/presets';
import { PresetThumbnail } from '../components/PresetThumbnail';
import { usePapers, usePresets } from '../sim';

export function PresetsPage() {
  const { presets, error } = usePresets();
  const papers = usePapers();
  if (error) return <main className="page"><p className="error" role="alert">The presets could not be loaded: {error}</p></main>;
  if (!presets) return <main className="page"><p>Loading presets…</p></main>;
  return (
    <main className="page gallery">
      <h2>Presets by seed paper</h2>
      {groupPresets(presets, papers).map((g) => (
        <section key={g.paper.key} aria-labelledby={`paper-${g.paper.key}`} data-paper={g.paper.key}>
          <h3 id={`paper-${g.paper.key}`}>{g.paper.title}</h3>
          <p className="hint">{g.paper.finding}</p>
          <ul className="cards">
            {g.presets.map((p) => (
              <li key={p.name} className="card">
                <Link to={`/?preset=${encodeURIComponent(p.name)}`}>{p.name}</Link>
                <PresetThumbnail name={p.name} scenario={p.scenario} />
                <p>{firstSentence(p.description)}</p>
                <p className="hint">{referenceOf(p, papers)}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </main>
  );
}
