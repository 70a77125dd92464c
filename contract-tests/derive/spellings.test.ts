import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadSpec, type ParameterSpec } from '../../openapi/index.js';
import {
  emptyQuery,
  enumSpellings,
  integerSpellings,
  jsonIntegerSpellings,
  parameterSpellings,
  repeatedParameter,
  withRawNumber,
} from './spellings.js';

const spec = loadSpec();
const param = (operation: string, name: string): ParameterSpec => {
  const found = spec.operation(operation).parameters.find((p) => p.name === name);
  if (found === undefined) throw new Error(`${operation} has no ${name}`);
  return found;
};
const limit = param('listPets', 'limit');
const status = param('listPets', 'status');
const petId = param('getPet', 'petId');

/** The value a raw query spelling decodes to, as a server reads `name=raw` (URLSearchParams: + is a space). */
const fromQuery = (raw: string) => new URLSearchParams(`x=${raw}`).get('x') ?? '';
/** A path segment's value: percent-decoded, + itself. */
const fromPath = (raw: string) => decodeURIComponent(raw);

/** What the contract module makes of a spelling of a parameter: its value, or refused. */
function verdict(parameter: ParameterSpec, raw: string): { value: unknown } | 'refused' {
  const decoded = parameter.in === 'query' ? fromQuery(raw) : fromPath(raw);
  const parsed = parameter.parse(decoded);
  return parsed.faults.length > 0 ? 'refused' : { value: parsed.value };
}

describe('integer spellings', () => {
  it('every admitted spelling of a valid limit or petId parses to the value; every refused one is refused', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (l, id) => {
          for (const [parameter, v] of [
            [limit, l],
            [petId, id],
          ] as const) {
            for (const s of integerSpellings(parameter, v))
              expect(verdict(parameter, s.raw), `${parameter.name} ${s.raw}`).toEqual(s.means);
          }
        },
      ),
    );
  });

  it('spells 20 as the plan lists: 20 %32%30 20.0 %2B20, then 020 20e0 %2020 and empty, + a space in a query', () => {
    expect(integerSpellings(limit, 20).map((s) => s.raw)).toEqual([
      '20',
      '%32%30',
      '20.0',
      '020',
      '20e0',
      '%2020',
      '',
      '%2B20',
      '+20',
    ]);
    expect(integerSpellings(limit, 20).find((s) => s.raw === '+20')?.grammar).toBe('a + (a space)');
    expect(integerSpellings(petId, 20).find((s) => s.raw === '+20')?.grammar).toBe('a bare plus sign');
  });

  it('keeps tier 0 small: two admitted, two refused', () => {
    expect(
      integerSpellings(limit, 100)
        .filter((s) => s.tier === 0)
        .map((s) => s.raw),
    ).toEqual(['100', '%31%30%30', '100.0', '%2B100']);
  });
});

describe('enum spellings', () => {
  it('every spelling of each PetStatus value means it or is refused, as the contract module reads it', () => {
    for (const value of ['available', 'pending', 'sold']) {
      for (const s of enumSpellings(value)) expect(verdict(status, s.raw), s.raw).toEqual(s.means);
    }
  });
  it('derives by schema: an enum parameter gets enum spellings, an integer integer ones', () => {
    expect(parameterSpellings(status, 'sold').map((s) => s.raw)).toEqual([
      'sold',
      'Sold',
      '%73old',
      'sold+',
      '',
    ]);
    expect(parameterSpellings(status, 'sold').find((s) => s.raw === '')?.means).toBe('refused');
    expect(parameterSpellings(limit, 5)[0]?.raw).toBe('5');
  });
});

describe('emptyQuery', () => {
  it('gives every query parameter an empty value in one query, which the contract module refuses for each', () => {
    const empty = emptyQuery([limit, status, petId]);
    expect(empty).toMatchObject({ raw: 'limit=&status=', tier: 0, means: 'refused' });
    const query = new URLSearchParams(empty?.raw);
    for (const parameter of [limit, status])
      expect(parameter.parse(query.get(parameter.name) ?? undefined).faults, parameter.name).not.toEqual([]);
    expect(emptyQuery([petId])).toBeUndefined();
  });
});

describe('repeatedParameter', () => {
  it('repeats the pair, which the query then holds twice', () => {
    const r = repeatedParameter(limit, '5');
    expect(r.raw).toBe('limit=5&limit=5');
    expect(new URLSearchParams(r.raw).getAll('limit')).toEqual(['5', '5']);
    expect(r.means).toBe('refused');
  });
});

describe('JSON integer spellings', () => {
  it('each is JSON that parses to the value and passes the NewPet schema in categoryId', () => {
    const validate = spec.schema('NewPet');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (v) => {
        for (const s of jsonIntegerSpellings(v)) {
          const text = withRawNumber({ name: 'Biscuit', categoryId: 0 }, 'categoryId', s.raw);
          const parsed = JSON.parse(text) as { categoryId: number };
          expect(parsed.categoryId, s.raw).toBe(v);
          expect(validate(parsed), s.raw).toEqual([]);
        }
      }),
    );
  });
  it('spells 1 as 1 1.0 1e0 10E-1 0.1e1 1E+0', () => {
    expect(jsonIntegerSpellings(1).map((s) => s.raw)).toEqual(['1', '1.0', '1e0', '10E-1', '0.1e1', '1E+0']);
    expect(withRawNumber({ name: 'B', categoryId: 1 }, 'categoryId', '1.0')).toBe(
      '{"name":"B","categoryId":1.0}',
    );
  });
});
