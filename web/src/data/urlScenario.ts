// A scenario in a link: its JSON compressed with the browser's own raw DEFLATE (CompressionStream
// 'deflate-raw', RFC 1951) and written in base64url (RFC 4648 §5), behind a version prefix, so that
// a link works on a static copy of the app with no server. Large scenarios are saved on the server
// instead (/e/:id): a link stays short enough for chat and mail below maxLinkChars.
import type { Scenario } from '@tcb-lab/sim';

/** The format of the encoded text: "1." then base64url of raw DEFLATE of the scenario's JSON text. */
export const URL_SCENARIO_VERSION = '1';

/** Longer encodings are offered as a saved experiment rather than as a link. */
export const maxLinkChars = 6000;

/**
 * The most a link's scenario may decompress to: the server's largest request body
 * (BODY_LIMIT_BYTES, 2 MiB), so that what a link holds could also be saved. DEFLATE turns a few kB
 * into a thousand times as much (RFC 1951's longest match, 258 bytes, in a code of a bit or two):
 * decompression stops here, before anything is parsed, rather than filling the tab's memory.
 */
export const maxScenarioBytes = 2 * 1024 * 1024;

export class UrlScenarioError extends Error {
  override name = 'UrlScenarioError';
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** Decompresses raw DEFLATE, reading at most `limit` bytes of output; beyond that, UrlScenarioError. */
async function inflateAtMost(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new UrlScenarioError(`the link’s scenario is larger than ${limit / (1024 * 1024)} MiB once decompressed; save large scenarios on the server instead`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new UrlScenarioError('the link’s scenario is not base64url text');
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The scenario as link text: "1.<base64url>". */
export async function encodeScenario(scenario: Scenario): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(scenario));
  return `${URL_SCENARIO_VERSION}.${toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))}`;
}

/** The scenario from link text; rejects with UrlScenarioError naming what is wrong. */
export async function decodeScenario(text: string): Promise<Scenario> {
  const dot = text.indexOf('.');
  const version = dot < 0 ? '' : text.slice(0, dot);
  if (version !== URL_SCENARIO_VERSION)
    throw new UrlScenarioError(`the link’s scenario has format “${version || '(none)'}”; this version of the app reads format ${URL_SCENARIO_VERSION}`);
  let json: string;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(await inflateAtMost(fromBase64Url(text.slice(dot + 1)), maxScenarioBytes));
  } catch (e) {
    if (e instanceof UrlScenarioError) throw e;
    throw new UrlScenarioError('the link’s scenario is damaged (it does not decompress); was the link cut short?');
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UrlScenarioError('the link’s scenario is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UrlScenarioError('the link’s scenario is not a JSON object');
  return value as Scenario;
}
