// The node flags the `petkit` command runs with: its shebang's (`#!/usr/bin/env -S node FLAGS…`). The
// bench runs the ceilings and the shared mode's replicas with the same, so that a ratio compares
// servers run alike (the same young generation, heap growth and idle collections), not V8's settings.
import { readFileSync } from 'node:fs';

const SHEBANG = /^#!\/usr\/bin\/env -S node((?:[ \t]+--[a-z][a-z0-9-]*(?:=\S+)?)*)[ \t]*$/;

/** The node flags of the script `file`'s shebang line. */
export function shebangFlags(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const end = text.indexOf('\n');
  const first = end < 0 ? text : text.slice(0, end);
  const flags = SHEBANG.exec(first)?.[1];
  if (flags === undefined) throw new Error(`${file}: its first line is not "#!/usr/bin/env -S node FLAGS…"`);
  return flags.split(/[ \t]+/).filter((flag) => flag !== '');
}
