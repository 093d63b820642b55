// Which renderer draws the dense plots (time–sequence, windows, queues): 'pixels' (PixelPainter:
// strokes rasterised into an ImageData, no anti-aliasing), 'canvas2d' (the canvas's own paths) or
// 'webgl2' (GlPainter). The default is the one measured fastest on a busy 2-core machine without a
// GPU (docs/ARCHITECTURE.md, "Large traces"); ?renderer=pixels|canvas2d|webgl2 in the address
// overrides it for the page load.
import { webgl2Available } from './glPainter';

export type Renderer = 'pixels' | 'canvas2d' | 'webgl2';

export const defaultRenderer: Renderer = 'pixels';

let chosen: Renderer | undefined;

export function preferredRenderer(): Renderer {
  if (chosen) return chosen;
  const asked = new URLSearchParams(window.location.search).get('renderer');
  const wanted: Renderer = asked === 'canvas2d' || asked === 'webgl2' || asked === 'pixels' ? asked : defaultRenderer;
  chosen = wanted === 'webgl2' && !webgl2Available() ? 'canvas2d' : wanted;
  return chosen;
}
