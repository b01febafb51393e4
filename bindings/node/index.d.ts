// TypeScript declarations of frd's Node.js binding (lib/index.js).
/// <reference types="node" />

export type EntryType =
  | 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'characterDevice' | 'blockDevice'
  | 'unknown' | 'dir' | 'link' | 'symbolicLink';

/** Metadata of an entry, as fs.Stats (from lstat: links are not followed). The fields are
 *  read-only getters over the batch's arrays, read on access; toJSON() copies them. */
export class Stats {
  readonly dev: number;
  readonly ino: number;
  readonly mode: number;
  readonly nlink: number;
  readonly uid: number;
  readonly gid: number;
  readonly rdev: number;
  readonly size: number;
  readonly blocks: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;
  readonly atimeNs: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly birthtimeNs: bigint;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  /** The 13 number fields (dev ... birthtimeMs) as a plain object. */
  toJSON(): {
    dev: number; ino: number; mode: number; nlink: number; uid: number; gid: number;
    rdev: number; size: number; blocks: number; atimeMs: number; mtimeMs: number;
    ctimeMs: number; birthtimeMs: number;
  };
}

/** A directory entry, as fs.Dirent; `stats` is there when the walk asked for stats. */
export class Dirent {
  name: string;
  /** The directory holding the entry: the root as given, or the root joined with the path below it. */
  parentPath: string;
  /** The same as parentPath (fs.Dirent's older name). */
  path: string;
  stats?: Stats;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

export interface WalkOptions {
  /** Metadata for each entry (entry.stats), read in the same pass. Default false. */
  stats?: boolean;
  /** Globs (fnmatch) of entries to leave out, with their subtrees; a glob with '/' is matched against the path below the root. */
  exclude?: string | string[];
  /** Deepest level yielded: 1 for the root's own entries, 0 for none; an integer up to
   *  2147483647, or Infinity. Default: no limit (Infinity); negative values throw a RangeError. */
  maxDepth?: number;
  /** false: leave out names starting with '.' and what is below them. Default true. */
  hidden?: boolean;
  /** Yield only entries of these types (directories are still entered). */
  types?: EntryType[];
  /** Depth-first by name (byte order), the same order on every run. Default false: no set order. */
  sort?: boolean;
  /** Aborts the walk: the pending or next step rejects with an AbortError. */
  signal?: AbortSignal;
  /** Follow symbolic links (loops are not entered). Default false (a root given as a link is followed). */
  followSymlinks?: boolean;
  /** 'throw' (default): the first error below the root ends the walk; 'ignore': skip it. */
  errors?: 'throw' | 'ignore';
  /** Entries per batch: an integer 1 to 65536. Default 2048, or 1024 with stats. */
  batchSize?: number;
  /** Batches queued ahead of the consumer before the walk's threads wait: 1 to 64. Default 8. */
  highWaterMark?: number;
  /** Walker threads: 0 (default) for the machine's parallelism, else 1 to 8. */
  workers?: number;
}

export interface WalkIterator<T> extends AsyncIterableIterator<T[]> {
  /** Cancels the walk; resolves once its threads are joined and its descriptors closed. */
  return(): Promise<IteratorResult<T[], undefined>>;
}

/** Async iterator of batches of Dirents (or relative path strings with withFileTypes: false).
 *  Bad arguments throw at once, as fs's do: TypeError (code ERR_INVALID_ARG_TYPE or
 *  ERR_INVALID_ARG_VALUE) or RangeError (ERR_OUT_OF_RANGE), naming the option. */
export function walk(path: string | Buffer | URL, options?: WalkOptions & { withFileTypes?: true }): WalkIterator<Dirent>;
export function walk(path: string | Buffer | URL, options: WalkOptions & { withFileTypes: false }): WalkIterator<string>;

export interface ReaddirOptions extends Omit<WalkOptions, 'batchSize' | 'highWaterMark'> {
  recursive?: boolean;
  withFileTypes?: boolean;
  encoding?: 'utf8' | 'utf-8';
}

type ReaddirResult<O> = O extends { withFileTypes: true } | { stats: true } ? Dirent[] : string[];

export function readdir<O extends ReaddirOptions>(path: string | Buffer | URL, options: O,
  callback: (err: NodeJS.ErrnoException | null, entries: ReaddirResult<O>) => void): void;
export function readdir(path: string | Buffer | URL,
  callback: (err: NodeJS.ErrnoException | null, entries: string[]) => void): void;
export function readdir<O extends ReaddirOptions = {}>(path: string | Buffer | URL, options?: O): Promise<ReaddirResult<O>>;
export function readdirSync<O extends ReaddirOptions = {}>(path: string | Buffer | URL, options?: O): ReaddirResult<O>;

export const promises: {
  readdir<O extends ReaddirOptions = {}>(path: string | Buffer | URL, options?: O): Promise<ReaddirResult<O>>;
};
