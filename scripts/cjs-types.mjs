// After tsc: petkit/msw's declarations again as .d.cts, for TypeScript projects that are CommonJS
// ("type": "commonjs", module NodeNext). msw ships one set of declarations for `import` and another
// for `require`; a CommonJS project gets the `require` set for its own `msw/node` import, so
// petkit/msw's types must name msw through `require` too, or setupServer(...createHandlers())
// compares two copies of msw's classes (TS2345). The same text in a .d.cts file does exactly that.
// At run time both resolve to the same ESM file (require(esm), Node >= 20.19).
import { copyFileSync } from 'node:fs';

copyFileSync(
  new URL('../dist/mocks/msw.d.ts', import.meta.url),
  new URL('../dist/mocks/msw.d.cts', import.meta.url),
);
