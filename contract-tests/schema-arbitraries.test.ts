import fc from 'fast-check';
import { expect, test } from 'vitest';
import { loadSpec } from '../openapi/index.js';
import {
  boundaryValues,
  invalidArbitrary,
  invalidExamples,
  invalidParameterArbitrary,
  invalidParameterExamples,
  validArbitrary,
  validParameterExamples,
} from './schema-arbitraries.js';

const spec = loadSpec();
const newPet = spec.schema('NewPet');
const schema = spec.operation('createPet').requestBody?.content.get('application/json')?.schema ?? {};
const limit = spec.operation('listPets').parameters.find((parameter) => parameter.name === 'limit');
const status = spec.operation('listPets').parameters.find((parameter) => parameter.name === 'status');
const petId = spec.operation('getPet').parameters.find((parameter) => parameter.name === 'petId');

test('generated NewPets are all valid, unicode among them', () => {
  const samples = fc.sample(validArbitrary(spec.document, schema), { seed: 1, numRuns: 300 });
  expect(samples.every((value) => newPet(value).length === 0)).toBe(true);
  expect(samples.some((value) => /[^\x20-\x7e]/.test((value as { name: string }).name))).toBe(true);
});

test('the boundaries: every status, names of 1 and 100 code points, emoji, the smallest and largest categoryId', () => {
  const values = boundaryValues(spec.document, schema) as Record<string, unknown>[];
  expect(values.every((value) => newPet(value).length === 0)).toBe(true);
  expect(new Set(values.map((value) => value.status))).toEqual(
    new Set([undefined, 'available', 'pending', 'sold']),
  );
  const lengths = values.map((value) => [...String(value.name)].length);
  expect(Math.min(...lengths)).toBe(1);
  expect(Math.max(...lengths)).toBe(100);
  expect(values.map((value) => value.name)).toContain('🐾'.repeat(100));
  expect(values.map((value) => value.categoryId)).toEqual(
    expect.arrayContaining([1, Number.MAX_SAFE_INTEGER]),
  );
});

test('hand-derived invalid NewPets: each required field missing, wrong types, out of range, unknown properties', () => {
  const cases = invalidExamples(spec.document, schema, newPet);
  const values = cases.map((value) => value.value);
  expect(values.length).toBeGreaterThan(20);
  expect(values.every((value) => newPet(value).length > 0)).toBe(true);
  expect(values).toContainEqual({ categoryId: 1 });
  expect(values).toContainEqual({ name: 'a' });
  expect(values).toContainEqual({ name: 'a', categoryId: 1, id: 1 });
  expect(values).toContainEqual({ name: 'a', categoryId: 1, status: 'available-not-in-enum' });
  expect(values).toContainEqual({ name: 'a'.repeat(101), categoryId: 1 });
  expect(values).toContainEqual({ name: 'a', categoryId: 0 });
  expect(values).toContainEqual({ name: 'a', categoryId: 'text' });
});

test('each invalid case says what is invalid in it, and its kind; an integer written as a string is one', () => {
  const cases = invalidExamples(spec.document, schema, newPet);
  const byValue = (value: unknown) => cases.find((c) => JSON.stringify(c.value) === JSON.stringify(value));
  expect(byValue({ name: 'a'.repeat(101), categoryId: 1 })).toMatchObject({
    kind: 'name over maxLength',
    what: 'name has 101 characters > maxLength 100',
  });
  expect(byValue({ name: 'a', categoryId: 1, id: 1 })).toMatchObject({ what: 'unknown property id' });
  expect(byValue({ categoryId: 1 })).toMatchObject({ kind: 'missing name' });
  expect(byValue({ name: 'a', categoryId: '3' })).toMatchObject({
    kind: 'integer as a string for categoryId',
    what: 'categoryId is the string "3", not an integer',
  });
  expect(byValue({ name: 'a', categoryId: 0 })).toMatchObject({ what: 'categoryId is 0 < minimum 1' });
});

test('generated invalid NewPets all fail the schema, numeric strings among them', () => {
  const samples = fc.sample(invalidArbitrary(spec.document, schema, newPet), { seed: 2, numRuns: 200 });
  expect(samples.every((value) => newPet(value.value).length > 0)).toBe(true);
  expect(samples.some((value) => value.kind === 'integer as a string for categoryId')).toBe(true);
  expect(new Set(samples.map((value) => value.kind)).size).toBeGreaterThan(5);
});

test('parameters: limit 1 and 100 valid, 0 and 101 not; every status; petIds past int64 rejected', () => {
  if (limit === undefined || status === undefined || petId === undefined)
    throw new Error('parameters missing');
  expect(validParameterExamples(spec.document, limit)).toEqual(['1', '100']);
  expect(validParameterExamples(spec.document, status)).toEqual(['available', 'pending', 'sold']);
  expect(invalidParameterExamples(limit)).toEqual(expect.arrayContaining(['0', '101', '1.5', 'abc', '-1']));
  expect(invalidParameterExamples(status)).toEqual(expect.arrayContaining(['adopted', 'AVAILABLE']));
  expect(invalidParameterExamples(petId)).toEqual(
    expect.arrayContaining(['abc', '1.5', '9223372036854775808']),
  );
  for (const parameter of [limit, status, petId]) {
    const samples = fc.sample(invalidParameterArbitrary(parameter), { seed: 3, numRuns: 100 });
    expect(samples.every((raw) => parameter.parse(raw).faults.length > 0)).toBe(true);
  }
});
