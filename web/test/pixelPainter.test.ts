// PixelPainter's rasterisation: runs for vertical and horizontal segments at the canvas's pixel
// convention, dashes, blending with globalAlpha, wider lines, and fills and text after the strokes.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseColor, PixelPainter } from '../src/charts/pixelPainter';

beforeAll(() => {
  // Node has no ImageData; the painter needs only its size and bytes.
  (globalThis as unknown as { ImageData: unknown }).ImageData ??= class {
    readonly data: Uint8ClampedArray;
    constructor(readonly width: number, readonly height: number) {
      this.data = new Uint8ClampedArray(width * height * 4);
    }
  };
});

const colors: Record<string, number> = { '#000': 0x000000, '#f00': 0xff0000, '#00f': 0x0000ff };

function canvas() {
  const calls: string[] = [];
  let image: { width: number; data: Uint8ClampedArray } | null = null;
  const ctx = {
    putImageData: (i: typeof image) => {
      image = i;
      calls.push('putImageData');
    },
    save() {},
    restore() {},
    setTransform() {},
    fillText: (t: string) => calls.push(`fillText ${t}`),
    fillRect: () => calls.push('fillRect'),
    fill: () => calls.push('fill'),
  } as unknown as CanvasRenderingContext2D;
  const pixel = (x: number, y: number) => {
    const i = (y * image!.width + x) * 4;
    return Array.from(image!.data.subarray(i, i + 3));
  };
  return { ctx, calls, pixel };
}

describe('PixelPainter', () => {
  it('draws a vertical tick at x + 0.5 into column x, both ends included, on white', () => {
    const { ctx, pixel } = canvas();
    const p = new PixelPainter(ctx, (c) => colors[c]);
    p.begin(20, 10, 1);
    p.strokeStyle = '#f00';
    p.beginPath();
    p.moveTo(10.5, 7);
    p.lineTo(10.5, 3);
    p.stroke();
    p.end();
    for (let y = 3; y <= 7; y++) expect(pixel(10, y)).toEqual([255, 0, 0]);
    expect(pixel(10, 2)).toEqual([255, 255, 255]);
    expect(pixel(9, 5)).toEqual([255, 255, 255]);
    expect(pixel(11, 5)).toEqual([255, 255, 255]);
  });

  it('dashes along the path and blends with globalAlpha', () => {
    const { ctx, pixel } = canvas();
    const p = new PixelPainter(ctx, (c) => colors[c]);
    p.begin(20, 4, 1);
    p.strokeStyle = '#00f';
    p.setLineDash([2, 2]);
    p.beginPath();
    p.moveTo(0, 1);
    p.lineTo(12, 1);
    p.stroke();
    p.setLineDash([]);
    p.globalAlpha = 0.5;
    p.strokeStyle = '#000';
    p.beginPath();
    p.moveTo(0, 3);
    p.lineTo(5, 3);
    p.stroke();
    p.end();
    expect([0, 1, 2, 3, 4, 5].map((x) => pixel(x, 1)[2] === 255 && pixel(x, 1)[0] === 0)).toEqual([true, true, false, false, true, true]);
    expect(pixel(2, 3)).toEqual([127, 127, 127]);
  });

  it('draws wider lines as wider runs, and diagonal ones pixel by pixel', () => {
    const { ctx, pixel } = canvas();
    const p = new PixelPainter(ctx, (c) => colors[c]);
    p.begin(10, 10, 1);
    p.strokeStyle = '#000';
    p.lineWidth = 3;
    p.beginPath();
    p.moveTo(5, 1);
    p.lineTo(5, 4);
    p.stroke();
    p.lineWidth = 1;
    p.beginPath();
    p.moveTo(0, 9);
    p.lineTo(3, 6);
    p.stroke();
    p.end();
    expect([4, 5, 6].map((x) => pixel(x, 2)[0])).toEqual([0, 0, 0]);
    expect([pixel(3, 2)[0], pixel(7, 2)[0]]).toEqual([255, 255]);
    for (let k = 0; k <= 3; k++) expect(pixel(k, 9 - k)).toEqual([0, 0, 0]);
  });

  it('puts text and fills on top of the strokes, in their order', () => {
    const { ctx, calls } = canvas();
    const p = new PixelPainter(ctx, (c) => colors[c]);
    p.begin(10, 10, 1);
    p.fillText('R', 1, 1);
    p.beginPath();
    p.moveTo(0, 0);
    p.lineTo(5, 5);
    p.stroke();
    p.fillRect(0, 0, 1, 1);
    p.end();
    expect(calls).toEqual(['putImageData', 'fillText R', 'fillRect']);
  });
});

describe('parseColor', () => {
  it('reads the colours the charts write without a canvas', () => {
    expect(parseColor('#0072B2')).toEqual([0x00, 0x72, 0xb2, 1]);
    expect(parseColor('#444')).toEqual([0x44, 0x44, 0x44, 1]);
    expect(parseColor('rgb(140,192,220)')).toEqual([140, 192, 220, 1]);
    expect(parseColor('rgba(1, 2, 3, 0.5)')).toEqual([1, 2, 3, 0.5]);
  });

  it('leaves anything else to the canvas', () => {
    expect(parseColor('steelblue')).toBeNull();
    expect(parseColor('#12345')).toBeNull();
    expect(parseColor('hsl(10, 20%, 30%)')).toBeNull();
  });
});
