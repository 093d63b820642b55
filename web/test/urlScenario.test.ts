// Scenarios in links: raw DEFLATE + base64url behind a version, round trip and clear errors.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '@tcb-lab/sim';
import { decodeScenario, encodeScenario, fromBase64Url, maxScenarioBytes, toBase64Url, UrlScenarioError } from '../src/data/urlScenario';

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

  // A link is a few kB; DEFLATE makes a thousand times as much of it (a 136 kB link decoded to
  // 100 MB and crashed the tab): decompression stops at maxScenarioBytes, before any parsing.
  it('refuses a link that decompresses past the limit, without decompressing it all', async () => {
    const huge = new Uint8Array(64 * 1024 * 1024).fill(0x20); // 64 MiB of spaces: valid JSON white space.
    huge[0] = 0x7b; // "{"
    huge[huge.length - 1] = 0x7d; // "}"
    const compressed = new Uint8Array(await new Response(new Blob([huge]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    expect(compressed.length).toBeLessThan(maxLinkBytesOfThisTest);
    await expect(decodeScenario('1.' + toBase64Url(compressed))).rejects.toThrow(/larger than 2 MiB once decompressed/);
    // Just under the limit still decodes.
    const fits = new Uint8Array(maxScenarioBytes).fill(0x20);
    fits.set(new TextEncoder().encode(JSON.stringify(scenario)));
    const small = new Uint8Array(await new Response(new Blob([fits]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    expect(await decodeScenario('1.' + toBase64Url(small))).toEqual(scenario);
  });
});

/** 64 MiB of one byte compresses to some 65 kB: a link of about 90 kB. */
const maxLinkBytesOfThisTest = 200 * 1024;
