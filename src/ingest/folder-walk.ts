/**
 * Walking an import folder (docs/import-formats.md#folders): every format that takes a folder
 * finds its files here. An entry that cannot be used (a symbolic link that loops or points at
 * nothing, a link back to a folder already read, a FIFO or device where a file is wanted, a
 * folder that cannot be listed) is a file reject of its own, so the valid files beside it still
 * import; before, one `ELOOP` failed the whole import.
 */
import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Reject } from '../domain/import-batch.ts';

/** What was found under a path, and the entries that could not be used. */
export interface Found {
  paths: string[];
  rejects: Reject[];
}

/** A file reject for an entry that cannot be used. */
export function entryReject(path: string, reason: string): Reject {
  return { kind: 'file', source: path, record: null, field: null, reason, payload: null };
}

/** Why stat (or readdir) could not use an entry, in words. */
export function unusable(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ELOOP') return 'a symbolic link that loops (ELOOP): skipped';
  if (code === 'ENOENT') return 'a symbolic link to nothing (dangling): skipped';
  if (code === 'EACCES' || code === 'EPERM') return `cannot be read (${code}): skipped`;
  return `cannot read: ${message}`;
}

/** What a special file is, for its reject. */
export function specialKind(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** A usable entry of a folder: a regular file or a folder not read before (links followed). */
interface Entry {
  name: string;
  path: string;
  folder: boolean;
}

/** One walk: the folders read so far (by device and inode) and the rejects met. */
class Walk {
  readonly rejects: Reject[] = [];
  private readonly read = new Set<string>();

  /** Marks a folder read; false (and a reject) when it was, through a link back to it. */
  enter(path: string, info: Stats): boolean {
    const key = `${info.dev}:${info.ino}`;
    if (this.read.has(key)) {
      this.rejects.push(
        entryReject(
          path,
          'a link to a folder already read (a loop): skipped, so nothing is read twice',
        ),
      );
      return false;
    }
    this.read.add(key);
    return true;
  }

  /** A folder's entries in name order, links followed; `wanted` names a file worth a reject. */
  async list(dir: string, wanted: (name: string) => boolean): Promise<Entry[]> {
    const entries: Entry[] = [];
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch (error) {
      this.rejects.push(entryReject(dir, unusable(error)));
      return entries;
    }
    for (const name of names) {
      const path = join(dir, name);
      let info: Stats;
      try {
        info = await stat(path);
      } catch (error) {
        // A broken link may have been a folder of data as well as a file: always said.
        this.rejects.push(entryReject(path, unusable(error)));
        continue;
      }
      if (info.isDirectory()) {
        if (this.enter(path, info)) entries.push({ name, path, folder: true });
      } else if (info.isFile()) entries.push({ name, path, folder: false });
      else if (wanted(name))
        this.rejects.push(entryReject(path, `${specialKind(info)}, not a file: skipped`));
    }
    return entries;
  }
}

/**
 * The files under `root` whose names are `wanted`, in name order, folders read recursively; a
 * `root` that is not a folder is itself the file (it may be a pipe). A `root` that cannot be
 * read at all throws, as before, for the caller to reject.
 */
export async function findFiles(root: string, wanted: (name: string) => boolean): Promise<Found> {
  const info = await stat(root);
  if (!info.isDirectory()) return { paths: [root], rejects: [] };
  const walk = new Walk();
  walk.enter(root, info);
  const paths: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await walk.list(dir, wanted)) {
      if (entry.folder) await visit(entry.path);
      else if (wanted(entry.name)) paths.push(entry.path);
    }
  };
  await visit(root);
  return { paths, rejects: walk.rejects };
}

/**
 * The folders at or under `root` that are `target`s by the names they hold (an export's
 * `event.json`, a tournament's `metaData.json`); a target is not looked into further, and folders
 * named `skip` are not entered. `root` itself must be a folder.
 */
export async function findFolders(
  root: string,
  target: (names: string[]) => boolean,
  skip: (name: string) => boolean = () => false,
): Promise<Found> {
  const info = await stat(root);
  // A root that is no folder is its caller's reject, as a root that cannot be read is.
  await readdir(root);
  const walk = new Walk();
  walk.enter(root, info);
  const paths: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    const names = await readdir(dir).catch((error: unknown) => {
      walk.rejects.push(entryReject(dir, unusable(error)));
      return null;
    });
    if (names === null) return;
    if (target(names)) {
      paths.push(dir);
      return;
    }
    for (const entry of await walk.list(dir, () => false))
      if (entry.folder && !skip(entry.name)) await visit(entry.path);
  };
  await visit(root);
  return { paths, rejects: walk.rejects };
}
