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

/** Metadata of an entry with `bigint: true`, as fs.BigIntStats: every number field a bigint
 *  (dev and ino exact beyond 2 ** 53), the *Ms times the ns times divided by 10 ** 6
 *  (truncated, as fs does). Read-only getters over the batch's arrays, as Stats. */
export class BigIntStats {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly mode: bigint;
  readonly nlink: bigint;
  readonly uid: bigint;
  readonly gid: bigint;
  readonly rdev: bigint;
  readonly size: bigint;
  readonly blocks: bigint;
  readonly atimeMs: bigint;
  readonly mtimeMs: bigint;
  readonly ctimeMs: bigint;
  readonly birthtimeMs: bigint;
  readonly atimeNs: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly birthtimeNs: bigint;
  readonly atime: Date;
  readonly mtime: Date;
  readonly ctime: Date;
  readonly birthtime: Date;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  /** The 17 bigint fields (dev ... birthtimeNs) as a plain object (JSON.stringify throws on
   *  a bigint, as it does for fs.BigIntStats). */
  toJSON(): {
    dev: bigint; ino: bigint; mode: bigint; nlink: bigint; uid: bigint; gid: bigint;
    rdev: bigint; size: bigint; blocks: bigint; atimeMs: bigint; mtimeMs: bigint;
    ctimeMs: bigint; birthtimeMs: bigint; atimeNs: bigint; mtimeNs: bigint; ctimeNs: bigint;
    birthtimeNs: bigint;
  };
}

/** A directory entry, as fs.Dirent; `stats` is there when the walk asked for stats (a
 *  BigIntStats with `bigint: true`); linkTarget, xattrs, linkGroup and linkFirst when it
 *  asked for them (linkTargets, xattrs, linkGroups), else undefined. */
export class Dirent<S extends Stats | BigIntStats = Stats> {
  name: string;
  /** The directory holding the entry: the root as given, or the root joined with the path below it. */
  parentPath: string;
  /** The same as parentPath (fs.Dirent's older name). */
  path: string;
  stats?: S;
  /** linkTargets: a symbolic link's target, as fs.readlinkSync gives it (bytes that are not
   *  UTF-8 decoded as U+FFFD, as names are); null for other entries and for a link whose
   *  target could not be read (an error of syscall 'readlink'). */
  linkTarget?: string | null;
  /** xattrs: the entry's extended attributes (its own, never a link's target's), name to
   *  value; null for a value longer than xattrValueMax; {} when it has none. */
  xattrs?: Record<string, Buffer | null>;
  /** linkGroups: for a non-directory with nlink > 1, the number of its group of hard links
   *  (the same for every link to one file; 1, 2, ... in walk order with sort; a bigint with
   *  bigint: true); null for other entries. */
  linkGroup?: (S extends BigIntStats ? bigint : number) | null;
  /** linkGroups: the path (parentPath joined with name) of the entry under which the walk
   *  met the group first; null in that entry itself and for entries without a group. */
  linkFirst?: string | null;
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
  /** Leave out what git ignores (.gitignore files, $GIT_DIR/info/exclude, the global excludes
   *  file; inside a git work tree only: frd_ignore(3)), before any stat: an ignored entry is
   *  not handed out and an ignored directory is not entered. Default false. */
  gitignore?: boolean;
  /** Errors below the root (an unreadable directory, a loop, an entry gone before its stat):
   *  'throw' (default): the first one ends the walk, as fs.readdir throws it; 'ignore':
   *  skip each and go on; 'collect': go on and keep each, as the Error fs would throw
   *  (message, code, errno, syscall, path), in walk()'s iterator's `errors` or in the
   *  `errors` property of readdir's result. An error of the root itself always throws. */
  errors?: 'throw' | 'ignore' | 'collect';
  /** With stats: the stats as fs.BigIntStats (`bigint: true` of fs.stat). Default false. */
  bigint?: boolean;
  /** Entries per batch: an integer 1 to 65536. Default 2048, or 1024 with stats. */
  batchSize?: number;
  /** Batches' worth of entries (highWaterMark * batchSize) the walk buffers ahead of the
   *  consumer before its threads wait: 1 to 64. Default 8. */
  highWaterMark?: number;
  /** Walker threads: 0 (default) for the machine's parallelism, else 1 to 8. */
  workers?: number;
  /** Each symbolic link's target in entry.linkTarget (readlinkat on its directory's
   *  descriptor, one call per link). Default false. */
  linkTargets?: boolean;
  /** Each entry's extended attributes in entry.xattrs (ACLs, system.posix_acl_*, and
   *  security.capability included; read relative to the directory's descriptor). Default false. */
  xattrs?: boolean;
  /** With xattrs: the longest value read, 1 to 65536 bytes (default 65536, Linux's
   *  largest); a longer value is null in entry.xattrs. */
  xattrValueMax?: number;
  /** Hard-link groups in entry.linkGroup and entry.linkFirst. Default false. */
  linkGroups?: boolean;
}

export interface WalkIterator<T> extends AsyncIterableIterator<T[]> {
  /** Cancels the walk; resolves once its threads are joined and its descriptors closed. */
  return(): Promise<IteratorResult<T[], undefined>>;
  /** With errors: 'collect', the errors met below the root so far: each one is here before
   *  the batch of the entries listed after it is yielded, and all of them once the
   *  iteration has ended. Empty in the other modes. */
  readonly errors: NodeJS.ErrnoException[];
}

/** Async iterator of batches of Dirents (or relative path strings with withFileTypes: false).
 *  Bad arguments throw at once, as fs's do: TypeError (code ERR_INVALID_ARG_TYPE or
 *  ERR_INVALID_ARG_VALUE) or RangeError (ERR_OUT_OF_RANGE), naming the option. */
export function walk(path: string | Buffer | URL, options: WalkOptions & { withFileTypes: false }): WalkIterator<string>;
export function walk(path: string | Buffer | URL, options: WalkOptions & { withFileTypes?: true; bigint: true }): WalkIterator<Dirent<BigIntStats>>;
export function walk(path: string | Buffer | URL, options?: WalkOptions & { withFileTypes?: true }): WalkIterator<Dirent>;

export interface ReaddirOptions extends Omit<WalkOptions, 'batchSize' | 'highWaterMark'> {
  recursive?: boolean;
  withFileTypes?: boolean;
  encoding?: 'utf8' | 'utf-8';
}

type ReaddirEntries<O> = O extends { withFileTypes: true } | { stats: true } | { linkTargets: true }
  | { xattrs: true } | { linkGroups: true }
  ? (O extends { bigint: true } ? Dirent<BigIntStats>[] : Dirent[])
  : string[];
/** readdir's result: with errors: 'collect', the array has the errors met below the root. */
type ReaddirResult<O> = O extends { errors: 'collect' }
  ? ReaddirEntries<O> & { errors: NodeJS.ErrnoException[] }
  : ReaddirEntries<O>;

export function readdir<O extends ReaddirOptions>(path: string | Buffer | URL, options: O,
  callback: (err: NodeJS.ErrnoException | null, entries: ReaddirResult<O>) => void): void;
export function readdir(path: string | Buffer | URL,
  callback: (err: NodeJS.ErrnoException | null, entries: string[]) => void): void;
export function readdir<O extends ReaddirOptions = {}>(path: string | Buffer | URL, options?: O): Promise<ReaddirResult<O>>;
export function readdirSync<O extends ReaddirOptions = {}>(path: string | Buffer | URL, options?: O): ReaddirResult<O>;

export const promises: {
  readdir<O extends ReaddirOptions = {}>(path: string | Buffer | URL, options?: O): Promise<ReaddirResult<O>>;
};
