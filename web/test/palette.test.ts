// The palette: 40 connections in 40 colours, none the alert colour's hue, and a colour for every
// scheme the schema knows.
import { hcl } from 'd3-color';
import { describe, expect, it } from 'vitest';
import { alertColor, colorOf, connectionColors, schemeColors } from '../src/data/palette';
import { schemeNames } from '../src/schema';

describe('palette', () => {
  it('gives 40 connections 40 different colours, each apart from vermillion', () => {
    const forty = Array.from({ length: 40 }, (_, i) => colorOf(i));
    expect(new Set(forty).size).toBe(40);
    // Neighbouring connections are far apart in hue.
    for (let i = 0; i + 1 < 14; i++) {
      const d = Math.abs(((hcl(forty[i]).h - hcl(forty[i + 1]).h + 540) % 360) - 180);
      expect(d, `${forty[i]} ${forty[i + 1]}`).toBeGreaterThan(60);
    }
    const alert = hcl(alertColor);
    for (const c of connectionColors) {
      const d = Math.abs(((hcl(c).h - alert.h + 540) % 360) - 180);
      expect(d, c).toBeGreaterThan(10);
      expect(c).toMatch(/^#[0-9a-f]{6}$/);
    }
  });
  it('has one colour per scheme of the schema, all different and none pale', () => {
    expect(Object.keys(schemeColors).sort()).toEqual([...schemeNames].sort());
    expect(new Set(Object.values(schemeColors)).size).toBe(schemeNames.length);
    for (const c of Object.values(schemeColors)) expect(hcl(c).l, c).toBeLessThan(65);
  });
});
