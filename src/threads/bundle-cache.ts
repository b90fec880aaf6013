/**
 * Bundles of thread entries kept on disk between processes (docs/architecture.md#threads): each
 * process that starts an engine pool would otherwise run esbuild over the same hundred modules,
 * about half a second of CPU each time (every `muster serve`, every test file with an engine).
 * A bundle is reused only while every file it was built from has the same content (SHA-256), so
 * a changed source is never served stale; what cannot be read or written here is built again.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, version as esbuildVersion } from 'esbuild';

/** Where bundles are kept unless a caller names another folder. */
export const BUNDLE_CACHE_DIR = join(tmpdir(), 'muster-thread-bundles');

interface Recorded {
  /** Absolute path of each input, with the SHA-256 of its content when the bundle was built. */
  readonly inputs: ReadonlyArray<readonly [string, string]>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The cached bundle when every input is unchanged, else null. One file holds the record (its
 * first line) and the code, so that a record never vouches for another build's code.
 */
function reuse(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8');
    const newline = text.indexOf('\n');
    const recorded = JSON.parse(text.slice(0, newline)) as Recorded;
    for (const [path, hash] of recorded.inputs) {
      if (sha256(readFileSync(path)) !== hash) return null;
    }
    return text.slice(newline + 1);
  } catch {
    return null;
  }
}

/** Writes the record and the bundle to a file of this process's, then moves it into place. */
function keep(file: string, code: string, inputs: string[]): void {
  try {
    mkdirSync(resolve(file, '..'), { recursive: true });
    const recorded: Recorded = {
      inputs: inputs.map((path) => [path, sha256(readFileSync(path))] as const),
    };
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, `${JSON.stringify(recorded)}\n${code}`);
    renameSync(part, file);
  } catch {
    // A cache that cannot be written costs the next process a build, nothing more.
  }
}

/**
 * `entry` bundled into one ES module with everything it imports (esbuild), from `dir` when its
 * inputs are unchanged; esbuild's error is thrown when it cannot be bundled.
 */
export function cachedBundle(entry: URL, dir: string = BUNDLE_CACHE_DIR): string {
  const path = fileURLToPath(entry);
  const file = join(
    dir,
    `${sha256(`${path}\0${esbuildVersion}\0${process.version}`).slice(0, 32)}.bundle`,
  );
  const reused = reuse(file);
  if (reused !== null) return reused;
  const built = buildSync({
    entryPoints: [path],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = built.outputFiles[0].text;
  const inputs = Object.keys(built.metafile.inputs).map((input) => resolve(input));
  keep(file, code, inputs);
  return code;
}
