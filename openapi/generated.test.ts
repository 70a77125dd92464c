import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parse } from 'yaml';
import { document } from './document.gen.js';
import { validatorModule } from './standalone.js';

const root = new URL('..', import.meta.url);

describe('generated files', () => {
  it('openapi/document.gen.ts holds exactly what openapi.yaml says (run `npm run generate`)', () => {
    expect(document).toEqual(parse(readFileSync(new URL('openapi.yaml', root), 'utf8')));
  });

  it('openapi/validators.gen.ts is what ajv precompiles from openapi.yaml (run `npm run generate`)', () => {
    const yaml = parse(readFileSync(new URL('openapi.yaml', root), 'utf8'));
    expect(validatorModule(yaml)).toBe(readFileSync(new URL('openapi/validators.gen.ts', root), 'utf8'));
  });

  it('openapi/api-types.gen.ts is what openapi-typescript makes of openapi.yaml (run `npm run generate`)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petkit-gen-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, 'api-types.gen.ts');
    execFileSync(
      process.execPath,
      [
        new URL('node_modules/openapi-typescript/bin/cli.js', root).pathname,
        new URL('openapi.yaml', root).pathname,
        '-o',
        out,
      ],
      { stdio: 'ignore' },
    );
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(new URL('openapi/api-types.gen.ts', root), 'utf8'));
  });
});
