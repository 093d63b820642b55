// The dense plots' marks as data: what a plot draws (Marks: the plot's columns, sent once), how
// (Style: the shown connections and the highlight, with every frame), and the scene built from the
// marks where they are drawn (levels of detail; in the plot worker, plotWorker.ts, or on the main
// thread for export and where no worker can draw). The one draw function per plot serves all.
import type { Painter } from '../painter';
import type { Frame, Scale } from './primitives';
import { drawFlowSeries, drawQueues, flowSeriesScene, type FlowSeriesMarks, type FlowSeriesScene, type FlowSeriesStyle, type QueueMarks } from './series';
import { drawTimeSequence, timeSequenceScene, type TimeSequenceMarks, type TimeSequenceScene, type TimeSequenceStyle } from './timeSequence';

export type Marks = TimeSequenceMarks | FlowSeriesMarks | QueueMarks;
export type MarksStyle = TimeSequenceStyle | FlowSeriesStyle | Record<string, never>;

export type Scene =
  | { kind: 'time-sequence'; scene: TimeSequenceScene }
  | { kind: 'flow-series'; scene: FlowSeriesScene }
  | { kind: 'queue'; marks: QueueMarks };

export function buildScene(marks: Marks): Scene {
  switch (marks.kind) {
    case 'time-sequence':
      return { kind: 'time-sequence', scene: timeSequenceScene(marks.ts) };
    case 'flow-series':
      return { kind: 'flow-series', scene: flowSeriesScene(marks) };
    case 'queue':
      return { kind: 'queue', marks };
  }
}

/** How many rows the marks hold (a plot's size, for choosing where its first frame is drawn). */
export function marksRows(marks: Marks): number {
  switch (marks.kind) {
    case 'time-sequence':
      return marks.ts.segments.t.length + marks.ts.sacks.t.length + marks.ts.acks.reduce((n, a) => n + 2 * a.t.length, 0);
    case 'flow-series':
      return marks.lines.reduce((n, l) => n + l.t.length * l.values.length, 0);
    case 'queue':
      return marks.queues.reduce((n, q) => n + q.t.length, 0);
  }
}

export function drawScene(p: Painter, scene: Scene, style: MarksStyle, sx: Scale, sy: Scale, frame: Frame) {
  switch (scene.kind) {
    case 'time-sequence':
      return drawTimeSequence(p, scene.scene, style as TimeSequenceStyle, sx, sy, frame);
    case 'flow-series':
      return drawFlowSeries(p, scene.scene, style as FlowSeriesStyle, sx, sy, frame);
    case 'queue':
      return drawQueues(p, scene.marks, sx, sy);
  }
}

export type { Frame, Scale } from './primitives';
