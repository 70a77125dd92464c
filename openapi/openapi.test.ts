import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ajvSource } from './ajv.js';
import {
  BAN_AFTER,
  BAN_MS,
  buildSpec,
  loadSpec,
  MAX_BODY_BYTES,
  type OpenApiDocument,
  PLAN_LIMITS,
  type Spec,
} from './index.js';

const spec = loadSpec();
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** Every example the document gives, with the validator it must pass: bodies, headers, parameters. */
function examplesOf(target: Spec): { where: string; faults: () => unknown[] }[] {
  const found: { where: string; faults: () => unknown[] }[] = [];
  for (const operation of target.operations) {
    for (const parameter of operation.parameters) {
      const example = (parameter.schema as { example?: unknown }).example;
      if (example !== undefined) {
        found.push({
          where: `${operation.id} ${parameter.name}`,
          faults: () => parameter.parse(String(example)).faults,
        });
      }
    }
    for (const body of operation.requestBody?.content.values() ?? []) {
      found.push({ where: `${operation.id} request body`, faults: () => body.validate(body.example) });
    }
    for (const response of operation.responses.values()) {
      for (const body of response.content.values()) {
        found.push({
          where: `${operation.id} ${response.status} body`,
          faults: () => body.validate(body.example),
        });
      }
    }
  }
  const schemas = (target.document.components?.schemas ?? {}) as Record<string, { example?: unknown }>;
  for (const [name, schema] of Object.entries(schemas)) {
    if (schema.example !== undefined) {
      found.push({ where: `schema ${name}`, faults: () => target.schema(name)(schema.example) });
    }
  }
  const headers = (target.document.components?.headers ?? {}) as Record<string, { example?: unknown }>;
  for (const operation of target.operations) {
    for (const response of operation.responses.values()) {
      for (const header of response.headers) {
        const example = headers[header.name]?.example;
        if (example !== undefined) {
          found.push({
            where: `${operation.id} ${response.status} ${header.name}`,
            faults: () => header.validate(String(example)),
          });
        }
      }
    }
  }
  return found;
}

describe('openapi.yaml', () => {
  it('gives every response body of every operation an example', () => {
    for (const operation of spec.operations) {
      for (const response of operation.responses.values()) {
        for (const body of response.content.values()) {
          expect(body.example, `${operation.id} ${response.status}`).toBeDefined();
        }
      }
    }
  });

  it('has examples that validate against their own schemas', () => {
    const examples = examplesOf(spec);
    expect(examples.length).toBeGreaterThan(30);
    for (const { where, faults } of examples) expect(faults(), where).toEqual([]);
  });

  it('catches a deliberately broken example', () => {
    // A copy of the document whose listPets 200 example has an id given as a string.
    const broken = structuredClone(spec.document) as { paths: Record<string, Record<string, unknown>> };
    const list = broken.paths['/pets']?.get as {
      responses: Record<string, { content: Record<string, { example: { id: unknown }[] }> }>;
    };
    const example = list.responses['200']?.content['application/json']?.example[1];
    if (example === undefined) throw new Error('the listPets 200 example has changed shape');
    example.id = '2';
    const document = broken as unknown as OpenApiDocument;
    const failing = examplesOf(buildSpec(document, ajvSource(document))).filter(
      ({ faults }) => faults().length > 0,
    );
    expect(failing.map(({ where }) => where)).toEqual(['listPets 200 body']);
  });

  it('declares the three rate-limit headers, required, on every response of every operation', () => {
    for (const operation of spec.operations) {
      for (const response of operation.responses.values()) {
        const declared = response.headers.filter((h) => h.required).map((h) => h.name);
        expect(declared, `${operation.id} ${response.status}`).toEqual(
          expect.arrayContaining(RATE_LIMIT_HEADERS),
        );
      }
    }
  });

  it('declares Retry-After on every 429, and gives every operation a 401 and a 429', () => {
    for (const operation of spec.operations) {
      expect(operation.responses.has('401'), operation.id).toBe(true);
      const tooMany = operation.responses.get('429');
      expect(
        tooMany?.headers.map((h) => h.name),
        operation.id,
      ).toContain('Retry-After');
    }
  });

  it('documents the statuses petkit decides for each operation (x-petkit-decision)', () => {
    const statuses = Object.fromEntries(spec.operations.map((o) => [o.id, [...o.responses.keys()].sort()]));
    expect(statuses).toEqual({
      listPets: ['200', '400', '401', '429', '500', '503'],
      createPet: ['201', '400', '401', '413', '415', '429', '500', '503', '507'],
      getPet: ['200', '400', '401', '404', '429', '500', '503'],
    });
  });

  it('signals getPet deprecation on every one of its responses', () => {
    for (const response of spec.operation('getPet').responses.values()) {
      if (['401', '429', '500', '503'].includes(response.status)) continue;
      expect(
        response.headers.map((h) => h.name),
        response.status,
      ).toEqual(expect.arrayContaining(['Sunset', 'Deprecation', 'Link']));
    }
  });

  it("keeps the mock's control API out of the operations the router, the suite and the proxy see", () => {
    const control = Object.entries(spec.document.paths).filter(([, item]) => item['x-petkit-control']);
    expect(control.map(([template]) => template)).toEqual(
      expect.arrayContaining(['/__petkit/rules', '/__petkit/rules/{ruleId}', '/__petkit/clock', '/']),
    );
    expect(spec.operations.map((operation) => operation.id)).toEqual(['listPets', 'createPet', 'getPet']);
    expect(spec.paths.map((path) => path.template)).toEqual(['/pets', '/pets/{petId}']);
    for (const pathname of ['/__petkit/rules', '/__petkit/rules/r1', '/__petkit/clock', '/'])
      expect(spec.matchPath(pathname), pathname).toBeUndefined();
    expect(() => spec.operation('controlArmRule')).toThrow('No operation "controlArmRule"');
  });

  it('describes the control API as the guard answers it, with examples its schemas accept', () => {
    // The same document with the control items read as operations, so their examples can be checked.
    const copy = structuredClone(spec.document) as { paths: Record<string, Record<string, unknown>> };
    for (const item of Object.values(copy.paths)) delete item['x-petkit-control'];
    const document = copy as unknown as OpenApiDocument;
    const whole = buildSpec(document, ajvSource(document));
    const control = whole.operations.filter((operation) => operation.id.startsWith('control'));
    expect(control.length).toBe(10);
    for (const operation of control) {
      expect(operation.requiresAuth, operation.id).toBe(false);
      expect(operation.responses.has('403'), operation.id).toBe(true);
      expect(
        operation.responses.get('429')?.headers.map((h) => h.name),
        operation.id,
      ).toContain('Retry-After');
    }
    const examples = examplesOf(whole).filter(({ where }) => where.startsWith('control'));
    expect(examples.length).toBeGreaterThan(15);
    for (const { where, faults } of examples) expect(faults(), where).toEqual([]);
  });

  it('marks the decisions it takes on the source with x-petkit-decision', () => {
    const text = readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8');
    expect(text.match(/x-petkit-decision: /g)?.length).toBeGreaterThanOrEqual(20);
  });
});

describe('the spellings openapi.yaml decides (x-petkit-decision)', () => {
  const document = loadSpec().document as unknown as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: Record<string, Record<string, Record<string, unknown>>>;
  };
  const decision = (node: Record<string, unknown> | undefined): string =>
    String(node?.['x-petkit-decision'] ?? '');
  const component = (kind: string, name: string) => decision(document.components[kind]?.[name]);

  it('an integer parameter is percent-decoded, then written as a JSON integer', () => {
    for (const name of ['Limit', 'PetId']) {
      expect(component('parameters', name), name).toMatch(/Percent-decoded first .* JSON integer/);
    }
    expect(component('parameters', 'Limit')).toContain(
      '+5, 05, 20.0, 2e1, a leading space or an empty value is a 400, not the default',
    );
    expect(component('parameters', 'PetId')).toContain('+1, 01, 1.0 or 1e0 is a 400');
  });

  it('a query parameter given twice is a 400', () => {
    for (const name of ['Limit', 'StatusFilter']) {
      expect(component('parameters', name), name).toContain(
        'given twice, even with equal values, it is a 400',
      );
    }
  });

  it('unknown query parameters are ignored and names are case-sensitive', () => {
    expect(decision(document.paths['/pets']?.get)).toContain(
      'does not name is ignored, and names are case-sensitive',
    );
    expect(decision(document.paths['/pets/{petId}']?.get)).toContain('Query parameters are ignored');
  });

  it('an enum parameter is compared exactly, a query + being a space', () => {
    expect(component('parameters', 'StatusFilter')).toContain(
      "compared exactly after decoding, where a query's + is a space",
    );
  });

  it('the Bearer grammar: scheme in any case, 1*SP, the key exact and whole', () => {
    const bearer = component('securitySchemes', 'bearerAuth');
    expect(bearer).toContain(
      'scheme matches in any case and is followed by one or more spaces (RFC 9110 §11.4, 1*SP)',
    );
    expect(bearer).toContain('key is compared exactly and whole (RFC 6750 §2.1, b64token)');
  });

  it('a whole-valued JSON number is the integer it equals', () => {
    expect(component('schemas', 'CategoryId')).toContain('1.0, 1e0, 10E-1 are 1');
  });

  it('application/json in any case with any parameters; the body read as UTF-8', () => {
    const media = component('responses', 'UnsupportedMediaType');
    expect(media).toContain('any case and with any parameters (RFC 9110 §8.3.1)');
    expect(media).toContain('read as UTF-8 (RFC 8259 §8.1)');
  });

  it('a member name given twice: the last wins', () => {
    expect(component('schemas', 'NewPet')).toContain('read as its last value');
  });
});

describe('the limits openapi.yaml states in words', () => {
  it('PayloadTooLarge says the body limit of MAX_BODY_BYTES, in KiB and in its example', () => {
    const response = loadSpec().document.components?.responses?.PayloadTooLarge as {
      description: string;
      content: { 'application/json': { example: { message: string } } };
    };
    expect(response.description).toContain(`larger than ${MAX_BODY_BYTES / 1024} KiB`);
    expect(response.content['application/json'].example.message).toContain(`${MAX_BODY_BYTES} bytes`);
  });

  it("the description's rate limits by plan are PLAN_LIMITS", () => {
    const n = (value: number) => value.toLocaleString('en-US');
    const { free, pro, business } = PLAN_LIMITS;
    expect(String(loadSpec().document.info.description).replace(/\s+/g, ' ')).toContain(
      `Free ${n(free.perMinute)} / ${n(free.perDay)}; Pro ${n(pro.perMinute)} / ${n(pro.perDay)}; ` +
        `Business ${n(business.perMinute)} / ${n(business.perDay)}; Enterprise custom.`,
    );
  });

  it('TooManyRequests bans after BAN_AFTER requests while limited, for BAN_MS', () => {
    const tooMany = loadSpec().document.components?.responses?.TooManyRequests as Record<string, string>;
    expect(tooMany['x-petkit-decision']).toContain(
      `More than ${BAN_AFTER} requests while limited within one window ban the key for ${BAN_MS / 60_000} minutes`,
    );
  });
});
