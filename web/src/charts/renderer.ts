// Which renderer draws the dense plots (time–sequence, windows, queues): 'webgl2' (GlPainter) or
// 'canvas2d'. The default is the one measured faster on a busy 2-core machine (see
// docs/ARCHITECTURE.md); ?renderer=canvas2d|webgl2 in the address overrides it for the page load.
import { webgl2Available } from './glPainter';

export type Renderer = 'webgl2' | 'canvas2d';

export const defaultRenderer: Renderer = 'canvas2d';

let chosen: Renderer | undefined;

export function preferredRenderer(): Renderer {
  if (chosen) return chosen;
  const asked = new URLSearchParams(window.location.search).get('renderer');
  const wanted: Renderer = asked === 'canvas2d' || asked === 'webgl2' ? asked : defaultRenderer;
  chosen = wanted === 'webgl2' && !webgl2Available() ? 'canvas2d' : wanted;
  return chosen;
}
