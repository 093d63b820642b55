// Where and how a plot's marks are drawn. The dense plots give their marks as data (marks/): the
// plot worker draws them on the plot's canvases, handed over as OffscreenCanvases, and a frame
// sends it only the view (plotThread.ts); until the worker's first frame of a small plot, the page
// draws it on a canvas of its own laid over the worker's (the worker's first frame waits for the
// canvas machinery of a new thread, a cost the page's thread has paid already). Other plots, and
// every plot where no worker can draw, are drawn here before the browser paints, by WebGL2, the
// pixel painter or the canvas's own paths (renderer.ts).
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { GlPainter } from '../glPainter';
import { buildScene, drawScene, marksRows, type Frame, type Marks, type MarksStyle, type Scene } from '../marks';
import type { Painter } from '../painter';
import { PixelPainter } from '../pixelPainter';
import type { FromWorker } from '../plotProtocol';
import { RemotePlot } from '../plotThread';
import { mainThreadPainter, preferredRenderer, preferredThread, type Thread } from '../renderer';
import type { Domain, Scale } from './types';

/** Plots of at most this many rows draw on the page until the worker's first frame (handOver). */
const FIRST_FRAME_ON_PAGE_UP_TO = 200_000;

export type DrawMarks = (p: Painter, sx: Scale, sy: Scale, frame: Frame) => void;

export interface MarksCanvasOptions {
  title: string;
  /** Draws the marks of plots that do not give them as data. */
  draw?: DrawMarks;
  marks?: { data: Marks; style: MarksStyle };
  /** The faster painters (pixelPainter.ts, glPainter.ts) may draw it. */
  fast?: boolean;
  sx: Scale;
  sy: Scale;
  innerW: number;
  innerH: number;
  /** The figure whose data attributes say how each frame was drawn. */
  figure: React.RefObject<HTMLElement | null>;
}

export function useMarksCanvas({ title, draw: drawGiven, marks, fast, sx, sy, innerW, innerH, figure }: MarksCanvasOptions) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayCanvasRef = useRef<HTMLCanvasElement>(null);
  const pageCanvasRef = useRef<HTMLCanvasElement>(null);
  const glPainter = useRef<GlPainter | null>(null);
  const pixelPainter = useRef<PixelPainter | null>(null);
  const remote = useRef<RemotePlot | null>(null);
  const frames = useRef(0);
  // Where the marks are drawn: the plot worker for the dense plots (until it fails), else here.
  const [workerFailed, setWorkerFailed] = useState(false);
  const thread: Thread = fast && marks && !workerFailed ? preferredThread() : 'main';
  const renderer = thread === 'worker' ? preferredRenderer() : fast ? mainThreadPainter() : 'canvas2d';
  const useGl = renderer === 'webgl2' || thread === 'worker';
  const [workerDrawn, setWorkerDrawn] = useState(false);
  const handOver = thread === 'worker' && !!marks && marksRows(marks.data) <= FIRST_FRAME_ON_PAGE_UP_TO;
  const pageDraws = thread === 'main' || (handOver && !workerDrawn);
  // The marks' scene (levels of detail) on the main thread, built when first drawn here.
  const marksData = marks?.data;
  const marksStyle = marks?.style;
  const localScene = useRef<{ data: Marks; scene: Scene } | null>(null);
  const draw = useMemo<DrawMarks>(
    () =>
      drawGiven ??
      ((p, sx, sy, frame) => {
        if (!marksData || !marksStyle) return;
        if (localScene.current?.data !== marksData) localScene.current = { data: marksData, scene: buildScene(marksData) };
        drawScene(p, localScene.current.scene, marksStyle, sx, sy, frame);
      }),
    [drawGiven, marksData, marksStyle],
  );

  // A frame drawn (here or in the worker): the figure's data attributes, the first-draw mark, and a
  // `plotframe` event with when it was drawn (ms on the page's clock) and how long drawing took.
  const drawn = useCallback(
    (at: number, drawMs: number, painter: string) => {
      if (frames.current === 0) performance.mark(`tcb:first-draw:${title}`, { startTime: at });
      frames.current++;
      const fig = figure.current;
      if (fig) {
        fig.dataset.renderer = painter;
        fig.dataset.thread = thread;
        fig.dataset.frames = String(frames.current);
        fig.dataset.drawMs = drawMs.toFixed(2);
        fig.dispatchEvent(new CustomEvent('plotframe', { detail: { at, drawMs } }));
      }
    },
    [title, thread, figure],
  );
  const onWorker = useRef<(m: FromWorker) => void>(() => {});
  onWorker.current = (m: FromWorker) => {
    if (m.type === 'drawn') {
      drawn(m.at - performance.timeOrigin, m.drawMs, m.painter);
      if (!workerDrawn) setWorkerDrawn(true);
    } else setWorkerFailed(true);
  };
  // The worker path: the canvases go to the worker once; the data when it changes; the view with
  // every frame. Layout effects in this order, so that a new plot is attached before it is drawn.
  useLayoutEffect(() => {
    if (thread !== 'worker') return;
    const plot = RemotePlot.of(canvasRef.current!, overlayCanvasRef.current!, renderer, (m) => onWorker.current(m));
    remote.current = plot;
    return () => {
      plot.release();
      remote.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [thread]);
  useLayoutEffect(() => {
    if (thread === 'worker' && marksData) remote.current?.setMarks(marksData);
  }, [thread, marksData]);
  useLayoutEffect(() => {
    if (thread !== 'worker' || !marksStyle) return;
    remote.current?.frame(
      { x: sx.domain() as Domain, y: sy.domain() as Domain, yBottom: sy.range()[0], width: innerW, height: innerH, dpr: window.devicePixelRatio || 1 },
      marksStyle,
    );
  }, [thread, sx, sy, innerW, innerH, marksStyle]);

  useLayoutEffect(() => {
    const canvas = thread === 'main' ? canvasRef.current : pageCanvasRef.current;
    if (!canvas || !pageDraws) return;
    const painter = thread === 'main' ? renderer : 'pixels';
    const dpr = window.devicePixelRatio || 1;
    for (const c of [canvas, thread === 'main' ? overlayCanvasRef.current : null]) {
      if (c && (c.width !== Math.round(innerW * dpr) || c.height !== Math.round(innerH * dpr))) {
        c.width = Math.round(innerW * dpr);
        c.height = Math.round(innerH * dpr);
      }
    }
    // Drawn before the browser paints (Chromium delivers wheel and pointer input once per frame).
    const started = performance.now();
    const frame = { width: innerW, height: innerH };
    if (painter === 'webgl2') {
      glPainter.current ??= new GlPainter(canvas, overlayCanvasRef.current!);
      const p = glPainter.current;
      p.begin(innerW, innerH, dpr);
      draw(p, sx, sy, frame);
      p.end();
    } else if (painter === 'pixels') {
      if (pixelPainter.current?.canvas !== canvas) pixelPainter.current = new PixelPainter(canvas.getContext('2d', { alpha: false })!);
      const p = pixelPainter.current;
      p.begin(innerW, innerH, dpr);
      draw(p, sx, sy, frame);
      p.end();
    } else {
      // Opaque: the plot's background is white, and an opaque canvas composites without blending.
      const ctx = canvas.getContext('2d', { alpha: false });
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, innerW, innerH);
      draw(ctx, sx, sy, frame);
    }
    const now = performance.now();
    drawn(now, now - started, painter);
  }, [draw, sx, sy, innerW, innerH, renderer, thread, drawn, pageDraws]);

  return { thread, useGl, pageDraws, canvasRef, overlayCanvasRef, pageCanvasRef, draw };
}

/** The canvases of a plot, over its marks' area. Keyed by thread: a canvas handed to the worker cannot be drawn here again. */
export function MarksCanvases({ canvas, innerW, innerH, left, top }: { canvas: ReturnType<typeof useMarksCanvas>; innerW: number; innerH: number; left: number; top: number }) {
  const style = { position: 'absolute' as const, left, top, width: innerW, height: innerH };
  return (
    <>
      <canvas key={`marks-${canvas.thread}`} ref={canvas.canvasRef} style={style} />
      {canvas.useGl && <canvas key={`overlay-${canvas.thread}`} ref={canvas.overlayCanvasRef} style={style} />}
      {canvas.thread === 'worker' && canvas.pageDraws && <canvas ref={canvas.pageCanvasRef} style={style} />}
    </>
  );
}
