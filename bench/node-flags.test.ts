import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testDir } from '../test/support/temp-dir.js';
import { shebangFlags } from './node-flags.js';
import { PETKIT_BIN, SERVERS } from './servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const sourceFlags = shebangFlags(join(root, 'cli/main.ts'));

describe("the petkit command's node flags", () => {
  it('are the same in its shebang, its build, `npm start` and the bench ceilings', () => {
    expect(sourceFlags).toEqual([
      '--max-semi-space-size=8',
      '--heap-growing-percent=50',
      '--no-memory-reducer',
      '--max-inlined-bytecode-size=920',
      '--max-inlined-bytecode-size-cumulative=4600',
    ]);
    expect(shebangFlags(join(root, PETKIT_BIN))).toEqual(sourceFlags);
    const start = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
    ).scripts.start;
    expect(start).toBe(`node ${sourceFlags.join(' ')} ${PETKIT_BIN} mock`);
    for (const id of ['ceiling', 'ceiling-work'] as const) {
      const { args } = SERVERS.find((s) => s.id === id)?.command(1, { root, keysFile: 'k.json' }) ?? {
        args: [],
      };
      expect(args.slice(0, sourceFlags.length)).toEqual(sourceFlags);
      expect(args[sourceFlags.length]).toBe('dist/bench/ceiling-main.js');
    }
    // The line docs/performance.md gives for profiling the mock runs it as the command runs.
    const docs = readFileSync(join(root, 'docs/performance.md'), 'utf8');
    const profiling = docs.split('\n').filter((line) => line.startsWith('node --cpu-prof '));
    expect(profiling).toEqual([expect.stringMatching(/^node --cpu-prof (.*) dist\/bin\/petkit\.js mock /)]);
    expect(profiling[0]?.slice('node --cpu-prof '.length).split(' dist/bin/petkit.js')[0]).toBe(
      sourceFlags.join(' '),
    );
  });

  it('are flags this node takes: the command runs with them', () => {
    const out = execFileSync(process.execPath, [...sourceFlags, join(root, PETKIT_BIN), '--version'], {
      encoding: 'utf8',
    });
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('are read from a first line of `#!/usr/bin/env -S node FLAGS…` only, else an error names the file', () => {
    const dir = testDir('petkit-flags-');
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(shebangFlags(file('none.js', '#!/usr/bin/env -S node\nx'))).toEqual([]);
    expect(shebangFlags(file('one.js', '#!/usr/bin/env -S node --a-b=1  --c \n'))).toEqual([
      '--a-b=1',
      '--c',
    ]);
    for (const [name, text] of [
      ['plain.js', '#!/usr/bin/env node\n'],
      ['later.js', '\n#!/usr/bin/env -S node --a\n'],
      ['other.js', '#!/usr/bin/env -S deno --a\n'],
      ['script.js', '#!/usr/bin/env -S node --a script.js\n'],
      ['empty.js', ''],
    ] as const) {
      const path = file(name, text);
      expect(() => shebangFlags(path)).toThrow(
        `${path}: its first line is not "#!/usr/bin/env -S node FLAGS…"`,
      );
    }
  });
});
