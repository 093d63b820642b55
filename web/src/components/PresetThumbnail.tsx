// A live thumbnail of a preset for the gallery: the preset run in the browser (trace level series)
// once its card scrolls into view, each connection's congestion window drawn small.
import type { Scenario } from '@tcb-lab/sim';
import { useEffect, useRef, useState } from 'react';
import { colorOf } from '../data/palette';
import { closedWindows, flowWindows } from '../data/series';
import { cwndThumbnail, type ThumbnailLine } from '../data/thumbnail';
import { thumbnailSimulator } from '../sim';

const W = 240;
const H = 56;
const cache = new Map<string, Promise<ThumbnailLine[]>>();

function thumbnail(name: string, scenario: Scenario): Promise<ThumbnailLine[]> {
  let p = cache.get(name);
  if (!p) {
    p = thumbnailSimulator()
      .runScenario(scenario, { trace: 'series' })
      .then((result) => cwndThumbnail(closedWindows(flowWindows(result), result), W, H));
    p.catch(() => cache.delete(name));
    cache.set(name, p);
  }
  return p;
}

export function PresetThumbnail({ name, scenario }: { name: string; scenario: Scenario }) {
  const ref = useRef<SVGSVGElement>(null);
  const [lines, setLines] = useState<ThumbnailLine[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let live = true;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      thumbnail(name, scenario).then(
        (l) => live && setLines(l),
        () => live && setFailed(true),
      );
    });
    observer.observe(el);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [name, scenario]);
  const label = failed ? `${name}: the thumbnail could not be drawn` : lines ? `cwnd of ${lines.length} connection${lines.length === 1 ? '' : 's'} over the run` : `${name}: running…`;
  return (
    <svg ref={ref} className="thumbnail" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-thumbnail={lines ? 'drawn' : failed ? 'failed' : 'waiting'}>
      <title>{label}</title>
      <rect width={W} height={H} fill="#fff" />
      {lines?.map((l) => <path key={l.flow} d={l.d} fill="none" stroke={colorOf(l.flow)} strokeWidth={1} />)}
    </svg>
  );
}
