#!/usr/bin/env node
// What binding.gyp compiles of the frd C library, found by directory so that files added,
// renamed or moved in the library need no change here: every .c file below decode/, lib/
// and walker/, and platform/'s backend for this OS (as CMakeLists.txt picks it). The
// library's sources are those of the frd checkout this folder sits in (bindings/node of a
// clone), else the copy `npm pack` put in ./frd (scripts/vendor.js). Run by gyp:
//   node scripts/frd-sources.js sources        the .c files, relative to this folder
//   node scripts/frd-sources.js include_dirs   the library's include folders
//   node scripts/frd-sources.js configure DIR  writes frd_config.h and frd_version.h (from
//                                              cmake/*.h.in, the probes run with the C
//                                              compiler) into DIR and prints DIR
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const pkg = path.resolve(__dirname, '..');

/** The frd source tree this package builds from (absolute), or throws saying why none. */
function frdRoot() {
  const checkout = path.resolve(pkg, '..', '..');
  const inCheckout = fs.existsSync(path.join(checkout, 'lib', 'include', 'frd.h')) &&
    fs.existsSync(path.join(checkout, 'bindings', 'node')) &&
    fs.realpathSync(path.join(checkout, 'bindings', 'node')) === fs.realpathSync(pkg);
  if (inCheckout) return checkout;
  const vendored = path.join(pkg, 'frd');
  if (fs.existsSync(path.join(vendored, 'lib', 'include', 'frd.h'))) return vendored;
  throw new Error(`frd: the C sources of frd are neither in ${vendored} nor in a frd checkout ` +
    'around this folder: install from a tarball made by `npm pack` in bindings/node, or from ' +
    'that folder of a frd checkout');
}

// Every file below `dir` whose name ends with `ext`, sorted (the order of the link line).
// (By hand: readdir's `recursive` is newer than Node 18.0.)
function filesBelow(dir, ext) {
  const out = [];
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...filesBelow(p, ext));
    else if (d.isFile() && d.name.endsWith(ext)) out.push(p);
  }
  return out.sort();
}

/** platform/'s sources for this OS: CMakeLists.txt's FRD_BACKEND "auto". */
function backendSources(platform = process.platform) {
  if (platform === 'linux') return ['linux.c', 'unix.c', 'xattr_unix.c'];
  if (platform === 'win32') return ['win.c'];
  return ['posix.c', 'unix.c', 'xattr_unix.c'];
}

/** The library's .c files (absolute paths). */
function sources(root = frdRoot()) {
  return [
    ...['decode', 'lib', 'walker'].flatMap((d) => filesBelow(path.join(root, d), '.c')),
    ...backendSources().map((f) => path.join(root, 'platform', f)),
  ];
}

/** The include folders of the library's own sources (CMakeLists.txt's frd_objects). */
function includeDirs(root = frdRoot()) {
  return ['lib/include', 'lib', 'platform', 'decode', 'walker'].map((d) => path.join(root, d));
}

/** frd's version, from project(frd VERSION x.y.z) in its CMakeLists.txt. */
function frdVersion(root = frdRoot()) {
  const cmake = fs.readFileSync(path.join(root, 'CMakeLists.txt'), 'utf8');
  const m = /project\(\s*frd\s+VERSION\s+(\d+)\.(\d+)\.(\d+)/.exec(cmake);
  if (!m) throw new Error(`frd: no project(frd VERSION x.y.z) in ${root}/CMakeLists.txt`);
  return { major: +m[1], minor: +m[2], patch: +m[3], string: `${m[1]}.${m[2]}.${m[3]}` };
}

// Whether the C compiler builds `code` with the library's feature macros (CMake's
// check_symbol_exists and check_struct_has_member do the same: compile, and link).
function compiles(code, dir) {
  const src = path.join(dir, 'probe.c');
  fs.writeFileSync(src, code);
  const cc = process.env.CC || 'cc';
  const defs = process.platform === 'darwin' ? ['-D_DARWIN_C_SOURCE'] : ['-D_GNU_SOURCE'];
  const r = spawnSync(cc, [...defs, '-D_FILE_OFFSET_BITS=64', src, '-o', path.join(dir, 'probe')],
    { stdio: 'ignore' });
  return r.status === 0;
}

// The values of cmake/frd_config.h.in's probes (0 or 1 each).
function probes() {
  if (process.platform === 'win32') {
    return { FRD_HAS_DIRENT_D_TYPE: 0, FRD_HAS_STATX: 0, FRD_HAS_BACKSLASH_SEPARATOR: 1 };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frd-probe-'));
  try {
    return {
      FRD_HAS_DIRENT_D_TYPE: +compiles('#include <dirent.h>\nint main(void) { struct dirent d; ' +
        '(void)sizeof(d.d_type); return 0; }\n', dir),
      FRD_HAS_STATX: +compiles('#include <sys/stat.h>\nint main(void) { return statx != 0 ? 0 : 1; }\n', dir),
      FRD_HAS_BACKSLASH_SEPARATOR: 0,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// cmake/NAME.in with its @VAR@ replaced (configure_file's @ONLY), written to out/NAME if
// it differs (so make does not rebuild what did not change).
function configureFile(root, name, vars, out) {
  const text = fs.readFileSync(path.join(root, 'cmake', `${name}.in`), 'utf8')
    .replace(/@([A-Za-z0-9_]+)@/g, (all, k) => {
      if (!(k in vars)) throw new Error(`frd: cmake/${name}.in: no value for @${k}@`);
      return String(vars[k]);
    });
  const dest = path.join(out, name);
  if (!fs.existsSync(dest) || fs.readFileSync(dest, 'utf8') !== text) fs.writeFileSync(dest, text);
}

/** Writes frd_config.h and frd_version.h into `out` (made if missing). */
function configure(out, root = frdRoot()) {
  fs.mkdirSync(out, { recursive: true });
  const v = frdVersion(root);
  configureFile(root, 'frd_config.h', probes(), out);
  configureFile(root, 'frd_version.h', {
    FRD_VERSION_HEX: v.major * 10000 + v.minor * 100 + v.patch,
    PROJECT_VERSION: v.string,
    PROJECT_VERSION_MAJOR: v.major,
    PROJECT_VERSION_MINOR: v.minor,
    PROJECT_VERSION_PATCH: v.patch,
  }, out);
}

module.exports = { frdRoot, sources, includeDirs, frdVersion, configure };

if (require.main === module) {
  const [cmd, arg] = process.argv.slice(2);
  // gyp takes the paths relative to binding.gyp's folder; forward slashes on every OS.
  const rel = (p) => path.relative(pkg, p).split(path.sep).join('/');
  if (cmd === 'sources') {
    console.log(sources().map(rel).join('\n'));
  } else if (cmd === 'include_dirs') {
    console.log(includeDirs().map(rel).join('\n'));
  } else if (cmd === 'configure' && arg) {
    const out = path.resolve(arg);
    configure(out);
    console.log(rel(out));
  } else {
    console.error('usage: frd-sources.js sources | include_dirs | configure DIR');
    process.exit(2);
  }
}
