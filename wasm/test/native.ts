// The native CLI, build/release/tcpsim (or $TCPSIM), which the WASM results must equal.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const tcpsimPath = process.env.TCPSIM ?? fileURLToPath(new URL('../../build/release/tcpsim', import.meta.url));

export interface NativeOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs tcpsim with `args`, the scenario text on stdin. */
export function tcpsim(args: string[], stdin = ''): Promise<NativeOutput> {
  return new Promise((resolve, reject) => {
    const child = execFile(tcpsimPath, args, { maxBuffer: 1 << 28 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
    // A command that reads no input may exit before taking it.
    child.stdin!.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') reject(e);
    });
    child.stdin!.end(stdin);
  });
}
