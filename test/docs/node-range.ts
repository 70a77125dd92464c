// Whether a Node.js version satisfies an `engines.node` range, in the forms package-lock.json holds
// (`>=20.19`, `^20.17.0 || >=23.5.0`, `>= 10.*`, `4.x`, `*`): `||` of space-separated comparators
// `>=`, `>`, `<`, `<=`, `^` or none, over versions whose missing or `x`/`*` parts are wildcards.
// Another form throws, so that a range this cannot read fails its test rather than pass it.
const COMPARATOR = /^(>=|<=|>|<|\^)?(\d+|[x*])(?:\.(\d+|[x*]))?(?:\.(\d+|[x*]))?$/;

export function satisfies(version: string, range: string): boolean {
  const node = version.replace(/^v/, '').split('.').map(Number);
  return range.split('||').some((set) =>
    set
      .trim()
      .replace(/(>=|<=|>|<|\^)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => {
        if (comparator === '*' || comparator === '') return true;
        const match = COMPARATOR.exec(comparator);
        if (match === null) throw new Error(`cannot read the engines range ${JSON.stringify(range)}`);
        const [, op = '', ...parts] = match;
        // The parts given, up to the first wildcard; the rest compare as 0 (or match anything, for `=`).
        const given: number[] = [];
        for (const part of parts) {
          if (part === undefined || part === 'x' || part === '*') break;
          given.push(Number(part));
        }
        let order = 0;
        for (let i = 0; i < 3 && order === 0; i += 1) {
          if (op === '' && i >= given.length) break;
          order = (node[i] ?? 0) - (given[i] ?? 0);
        }
        if (op === '>=') return order >= 0;
        if (op === '>') return order > 0;
        if (op === '<') return order < 0;
        if (op === '<=') return order <= 0;
        if (op === '^') return order >= 0 && node[0] === given[0];
        return order === 0;
      }),
  );
}
