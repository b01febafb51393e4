// Type-checked by test/types.test.js (tsc --noEmit --strict): the declarations of index.d.ts
// accept what the README shows and refuse what the options do not allow (@ts-expect-error
// lines fail the check when their line is accepted).
import * as frd from '../..';
import type { BigIntStats, Dirent, Stats } from '../..';

export async function usage(): Promise<void> {
  const names: string[] = await frd.readdir('/usr', { recursive: true });
  const dirents: Dirent[] = frd.readdirSync('/usr', { recursive: true, withFileTypes: true });
  const withStats = await frd.readdir('/usr', { recursive: true, stats: true });
  const size: number | undefined = withStats[0].stats?.size;
  const big = frd.readdirSync('/usr', { recursive: true, stats: true, bigint: true });
  const ino: bigint | undefined = big[0].stats?.ino;
  const ns: bigint | undefined = big[0].stats?.mtimeNs;
  // @ts-expect-error: with bigint, ino is a bigint
  const notNumber: number | undefined = big[0].stats?.ino;

  const collected = frd.readdirSync('/usr', { recursive: true, errors: 'collect' });
  const firstError: NodeJS.ErrnoException | undefined = collected.errors[0];
  const code: string | undefined = firstError?.code;
  const plain = frd.readdirSync('/usr', { recursive: true });
  // @ts-expect-error: without errors: 'collect' the result has no errors
  void plain.errors;
  // @ts-expect-error: no such mode
  frd.walk('/usr', { errors: 'warn' });
  // @ts-expect-error: bigint is a boolean
  frd.walk('/usr', { bigint: 1 });

  const it = frd.walk('/usr', { stats: true, errors: 'collect', signal: new AbortController().signal });
  for await (const batch of it) {
    for (const e of batch) {
      const s: Stats | undefined = e.stats;
      void s?.mtimeMs;
    }
  }
  const errs: NodeJS.ErrnoException[] = it.errors;
  for await (const batch of frd.walk('/usr', { stats: true, bigint: true })) {
    const s: BigIntStats | undefined = batch[0]?.stats;
    void s?.size;
  }
  for await (const batch of frd.walk('/usr', { withFileTypes: false })) {
    const rel: string | undefined = batch[0];
    void rel;
  }
  frd.readdir('/usr', { recursive: true, errors: 'collect' }, (err, entries) => {
    void err?.code;
    void entries.errors.length;
  });
  const backup = frd.readdirSync('/usr', { recursive: true, linkTargets: true, xattrs: true,
    xattrValueMax: 4096, linkGroups: true });
  const target: string | null | undefined = backup[0].linkTarget;
  const value: Buffer | null | undefined = backup[0].xattrs?.['user.x'];
  const group: number | null | undefined = backup[0].linkGroup;
  const first: string | null | undefined = backup[0].linkFirst;
  for await (const batch of frd.walk('/usr', { linkGroups: true, bigint: true })) {
    const g: bigint | null | undefined = batch[0]?.linkGroup;
    // @ts-expect-error: with bigint, linkGroup is a bigint
    const n: number | null | undefined = batch[0]?.linkGroup;
    void [g, n];
  }
  // @ts-expect-error: xattrValueMax is a number
  frd.walk('/usr', { xattrs: true, xattrValueMax: '4096' });
  void [names, dirents, size, ino, ns, notNumber, code, errs, target, value, group, first];
}
