// Scenarios in links: raw DEFLATE + base64url behind a version, round trip and clear errors.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '@tcb-lab/sim';
import { decodeScenario, encodeScenario, fromBase64Url, toBase64Url, UrlScenarioError } from '../src/data/urlScenario';

const scenario = {
  schemaVersion: 1,
  durationS: 30,
  description: 'ünïcödé and “quotes”, & ? # / + =',
  topology: { kind: 'single-link', link: { bandwidthMbps: 0.8, delayMs: 50 } },
  traffic: Array.from({ length: 20 }, (_, i) => ({ type: 'transfers', from: 'client', to: 'server', bytes: 1000 * (i + 1), atS: [i] })),
} as unknown as Scenario;

describe('scenarios in links', () => {
  it('round-trips, is URL-safe, versioned, and smaller than the JSON', async () => {
    const text = await encodeScenario(scenario);
    expect(text.startsWith('1.')).toBe(true);
    expect(text).toMatch(/^1\.[A-Za-z0-9_-]+$/);
    expect(text.length).toBeLessThan(JSON.stringify(scenario).length / 2);
    expect(await decodeScenario(text)).toEqual(scenario);
  });

  it('base64url round-trips every byte value', () => {
    const bytes = Uint8Array.from({ length: 256 * 3 + 1 }, (_, i) => (i * 7) & 255);
    const text = toBase64Url(bytes);
    expect(text).not.toMatch(/[+/=]/);
    expect(fromBase64Url(text)).toEqual(bytes);
  });

  it('names what is wrong with a bad link', async () => {
    const good = await encodeScenario(scenario);
    await expect(decodeScenario('2.' + good.slice(2))).rejects.toThrow(/format “2”.*format 1/);
    await expect(decodeScenario('abc')).rejects.toThrow(/format “\(none\)”/);
    await expect(decodeScenario('1.a+b')).rejects.toThrow(UrlScenarioError);
    await expect(decodeScenario(good.slice(0, good.length / 2))).rejects.toThrow(/damaged|not JSON/);
    const array = '1.' + toBase64Url(new Uint8Array(await new Response(new Blob(['[1]']).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer()));
    await expect(decodeScenario(array)).rejects.toThrow(/not a JSON object/);
  });
});
