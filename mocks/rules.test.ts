import { describe, expect, it } from 'vitest';
import { demoKeysFile, resolveKeys } from './keys.js';
import { memoryControl } from './memory-control.js';
import { MockOptionsError } from './options.js';
import {
  decideFire,
  isRuleFault,
  MAX_RULES,
  normalizeRule,
  normalizeRules,
  pickRule,
  type RequestFacts,
  type RuleContext,
  type RuleFault,
  type StoredRule,
  seededDraw,
  shownRule,
} from './rules.js';
import type { ActiveRule } from './state.js';

const PRIVATE_KEY = 'sk_live_4f9a8b7c6d5e4f3a2b1c';
const context: RuleContext = {
  seed: 42,
  keys: [...resolveKeys(demoKeysFile()), { key: PRIVATE_KEY, plan: 'pro', perMinute: 300, perDay: 10_000 }],
};

function stored(input: unknown): StoredRule {
  const rule = normalizeRule(input, context);
  if (isRuleFault(rule)) throw new Error(`refused: ${rule.message}`);
  return rule;
}

function fault(input: unknown): RuleFault {
  const rule = normalizeRule(input, context);
  if (!isRuleFault(rule)) throw new Error('armed a rule that should be refused');
  return rule;
}

const listing: RequestFacts = { operationId: 'listPets', method: 'GET', path: '/v1/pets', key: 'demo-free' };

describe('normalizeRule', () => {
  it('decides every field of a rule: the seed is the mock’s, the method upper-cased', () => {
    expect(stored({ operation: 'listPets', method: 'get', respond: { status: 429 } })).toEqual({
      operation: 'listPets',
      method: 'GET',
      path: null,
      key: undefined,
      times: null,
      after: 0,
      probability: null,
      seed: 42,
      respond: { status: 429 },
    });
    expect(
      stored({ key: null, times: 2, after: 1, probability: 0.5, seed: 7, respond: { fault: 'reset' } }),
    ).toMatchObject({
      operation: null,
      key: null,
      times: 2,
      after: 1,
      probability: 0.5,
      seed: 7,
    });
  });

  it('finds the operation of a method and an exact path, so a status can be checked against it', () => {
    expect(stored({ method: 'post', path: '/v1/pets', respond: { status: 507 } }).operation).toBe(
      'createPet',
    );
    expect(stored({ method: 'HEAD', path: '/v1/pets/3', respond: { status: 404 } }).operation).toBe('getPet');
  });

  it('refuses an undocumented status, listing the documented ones', () => {
    const refused = fault({ operation: 'listPets', respond: { status: 418 } });
    expect(refused.message).toBe(
      'Invalid rule: /respond/status 418 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503).',
    );
    expect(refused.details).toEqual([
      {
        path: '/respond/status',
        message: '418 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503)',
      },
    ]);
    expect(fault({ operation: 'getPet', respond: { status: 415 } }).message).toContain(
      '(documented: 400, 401, 404, 429, 500, 503)',
    );
  });

  it('refuses a status with no operation to document it', () => {
    expect(fault({ path: '/v1/pets/*', respond: { status: 500 } }).message).toBe(
      'Invalid rule: /respond/status needs an operation: give operation, or method and a path that routes to one (a status must be one the operation documents).',
    );
  });

  it('refuses a status and a fault together', () => {
    expect(fault({ operation: 'getPet', respond: { status: 500, fault: 'reset' } }).message).toBe(
      'Invalid rule: /respond holds a status and a fault: a rule answers with one or the other (delayMs may go with either).',
    );
  });

  it('refuses a key of no keys file, showing it as the journal does (a private key masked)', () => {
    const refused = fault({ key: 'sk_live_other_key_0000', respond: { fault: 'close' } });
    expect(refused.message).toBe('Invalid rule: /key sk_li… names no key of the keys file.');
    expect(JSON.stringify(refused)).not.toContain('other_key');
    expect(fault({ key: 'demo-nobody', respond: { fault: 'close' } }).message).toContain(
      '/key de… names no key',
    );
    expect(stored({ key: PRIVATE_KEY, respond: { fault: 'close' } }).key).toBe(PRIVATE_KEY);
  });

  it('never quotes a key inside a key of the wrong type', () => {
    for (const key of [[PRIVATE_KEY], { value: PRIVATE_KEY }, [[{ [PRIVATE_KEY]: 1 }]]]) {
      const refused = fault({ key, respond: { fault: 'close' } });
      expect(refused.message).toMatch(/^Invalid rule: \/key must be string,null; got /);
      expect(JSON.stringify(refused)).not.toContain('4f9a');
    }
  });

  it('never quotes a key its schema refuses', () => {
    const long = `sk_live_${'s'.repeat(600)}`;
    const refused = fault({ key: long, respond: { fault: 'close' } });
    expect(refused.message).toMatch(
      /^Invalid rule: \/key must NOT have more than 512 characters; got "sk_live_…"\.$/,
    );
    expect(JSON.stringify(refused)).not.toContain('sss');
  });

  it('refuses a method or a path that could match no request of the operation', () => {
    expect(fault({ operation: 'listPets', method: 'POST', respond: { delayMs: 1 } }).message).toBe(
      'Invalid rule: /method POST is not the method of listPets (GET): the rule would match nothing.',
    );
    expect(fault({ method: 'DELETE', respond: { delayMs: 1 } }).message).toBe(
      'Invalid rule: /method DELETE is the method of no operation: the rule would match nothing.',
    );
    expect(fault({ operation: 'getPet', path: '/pets/1', respond: { status: 404 } }).message).toBe(
      'Invalid rule: /path /pets/1 is no path of getPet (paths start /v1, as the journal shows them): the rule would match nothing.',
    );
    expect(fault({ operation: 'getPet', path: '/v1/pets', respond: { status: 404 } }).message).toBe(
      'Invalid rule: /path /v1/pets routes to listPets, not getPet: the rule would match nothing.',
    );
    // A path alone, or a prefix: armed (201) and never fired, before.
    expect(fault({ path: '/v1/nope', respond: { delayMs: 1 } }).message).toBe(
      'Invalid rule: /path /v1/nope is no path of any operation (paths start /v1, as the journal shows them): the rule would match nothing.',
    );
    expect(fault({ path: '/x/*', respond: { delayMs: 1 } }).message).toBe(
      'Invalid rule: /path no path of any operation begins /x/ (paths start /v1, as the journal shows them): the rule would match nothing.',
    );
    expect(fault({ operation: 'listPets', path: '/v1/pets/*', respond: { status: 500 } }).message).toBe(
      'Invalid rule: /path no path of listPets begins /v1/pets/ (paths start /v1, as the journal shows them): the rule would match nothing.',
    );
    expect(fault({ method: 'POST', path: '/v1/pets/1*', respond: { delayMs: 1 } }).message).toContain(
      'no path of an operation with POST begins /v1/pets/1',
    );
    for (const path of ['/v1/pets?limit=1', '/v1/pets#x', '/v1/pets?*'])
      expect(fault({ path, respond: { delayMs: 1 } }).message).toBe(
        `Invalid rule: /path ${path} holds a query or a fragment; a rule matches the path without them: the rule would match nothing.`,
      );
  });

  it('keeps a path beyond ASCII percent-encoded, as a request carries it, and refuses one no request has', () => {
    // Armed as written, it matched nothing: a request's target is ASCII (`ü` comes as %C3%BC).
    expect(stored({ operation: 'getPet', path: '/v1/pets/ü*', respond: { status: 404 } }).path).toBe(
      '/v1/pets/%C3%BC*',
    );
    expect(stored({ path: '/v1/pets/🐶', respond: { delayMs: 1 } }).path).toBe('/v1/pets/%F0%9F%90%B6');
    // Escapes written lower-case are the same path (RFC 3986 2.1): kept upper-case, as requests' are compared.
    expect(stored({ path: '/v1/pets/%c3%bc*', respond: { delayMs: 1 } }).path).toBe('/v1/pets/%C3%BC*');
    for (const path of ['/v1/pets/\u0000', '/v1/pets/a b'])
      expect(fault({ path, respond: { delayMs: 1 } }).message).toMatch(
        /^Invalid rule: \/path .* holds a space or a control character, which no request's path has: the rule would match nothing\.$/,
      );
    // Half of a character: said as it came, where it was quoted as a NUL it never held.
    expect(fault({ path: '/v1/pets/\ud800', respond: { delayMs: 1 } }).message).toBe(
      "Invalid rule: /path /v1/pets/\ud800 holds a lone surrogate (half of a character), which no request's path has: the rule would match nothing.",
    );
  });

  it('arms a path or a prefix some request of its operation can have', () => {
    for (const rule of [
      { path: '/v1/pets', respond: { delayMs: 1 } },
      { path: '/v1/pets/7', respond: { delayMs: 1 } },
      { path: '/v1/*', respond: { delayMs: 1 } },
      { path: '/v1/pe*', respond: { delayMs: 1 } },
      { operation: 'getPet', path: '/v1/pets/*', respond: { status: 404 } },
      { operation: 'getPet', path: '/v1/pets/12*', respond: { status: 404 } },
      { method: 'POST', path: '/v1/pets*', respond: { delayMs: 1 } },
    ])
      expect(stored(rule)).toMatchObject({ path: rule.path });
  });

  it("answers openapi.yaml's faults in the API's words, every one in details", () => {
    const refused = fault({ operation: 'feedPets', respond: {}, colour: 'red' });
    expect(refused.message).toBe('Invalid rule: /colour is not an allowed property (and 2 more).');
    expect(refused.details).toEqual([
      { path: '/colour', message: 'is not an allowed property' },
      { path: '/operation', message: 'must be one of "listPets", "createPet", "getPet"; got "feedPets"' },
      { path: '/respond', message: 'must NOT have fewer than 1 properties; got {}' },
    ]);
    expect(fault({ operation: 'listPets' }).message).toBe('Invalid rule: /respond is required.');
    expect(fault([]).message).toBe('Invalid rule: must be object; got [].');
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`x${i}`, i]));
    const many = fault({ ...wide, respond: { delayMs: 1 } });
    expect(many.message).toBe(
      'Invalid rule: /x0 is not an allowed property (and 29 more; details lists the first 20).',
    );
    expect(many.details).toHaveLength(20);
  });

  it('lists every fault a schema cannot see, not only the first', () => {
    const refused = fault({ operation: 'listPets', key: 'nobody', respond: { status: 418, fault: 'hang' } });
    expect(refused.message).toBe(
      'Invalid rule: /respond holds a status and a fault: a rule answers with one or the other (delayMs may go with either) (and 2 more).',
    );
    expect(refused.details?.map((detail) => detail.path)).toEqual(['/respond', '/respond/status', '/key']);
  });
});

describe('normalizeRules (a rules file, the rules option)', () => {
  it('names the first bad rule by its index and its fault', () => {
    const rules = [
      { operation: 'listPets', respond: { status: 429 } },
      { operation: 'listPets', respond: { status: 418 } },
    ];
    expect(() => normalizeRules(rules, context)).toThrow(
      new MockOptionsError(
        'rules[1]/respond/status 418 is not a documented error status of listPets (documented: 400, 401, 429, 500, 503).',
      ),
    );
    expect(() => normalizeRules([{ respond: {} }, {}], context)).toThrow(
      'rules[0]/respond must NOT have fewer than 1 properties; got {}.',
    );
    expect(normalizeRules(rules.slice(0, 1), context)).toHaveLength(1);
  });

  it(`refuses more than ${MAX_RULES} rules`, () => {
    const rules = Array.from({ length: MAX_RULES + 1 }, () => ({ respond: { delayMs: 1 } }));
    expect(() => normalizeRules(rules, context)).toThrow(
      `rules holds 101 rules; at most ${MAX_RULES} are armed at once.`,
    );
  });
});

describe('shownRule', () => {
  const armed = (rule: StoredRule) => ({ ...rule, id: 'r3', enabled: true, matched: 5, fired: 2 });

  it('shows what was given, the key as the journal shows it, then the counts', () => {
    const shown = shownRule(
      armed(
        stored({ operation: 'getPet', key: PRIVATE_KEY, times: 3, respond: { status: 404, delayMs: 20 } }),
      ),
    );
    expect(shown).toEqual({
      id: 'r3',
      enabled: true,
      operation: 'getPet',
      key: 'sk_live…',
      times: 3,
      after: 0,
      respond: { status: 404, delayMs: 20 },
      matched: 5,
      fired: 2,
    });
    expect(JSON.stringify(shown)).not.toContain(PRIVATE_KEY);
    expect(Object.keys(shown)).toEqual([
      'id',
      'enabled',
      'operation',
      'key',
      'times',
      'after',
      'respond',
      'matched',
      'fired',
    ]);
  });

  it('shows a demo key in full, null as null, and the seed only where it draws', () => {
    expect(shownRule(armed(stored({ key: 'demo-pro', respond: { fault: 'reset' } }))).key).toBe('demo-pro');
    expect(shownRule(armed(stored({ key: null, respond: { fault: 'reset' } }))).key).toBeNull();
    expect(shownRule(armed(stored({ respond: { fault: 'reset' } })))).not.toHaveProperty('seed');
    expect(shownRule(armed(stored({ probability: 0.1, respond: { fault: 'reset' } })))).toMatchObject({
      probability: 0.1,
      seed: 42,
    });
  });
});

describe('pickRule', () => {
  /** A memory store with these rules armed in order (the last armed is the newest). */
  function armedStore(...inputs: unknown[]) {
    const store = memoryControl();
    for (const input of inputs) store.arm(stored(input));
    return store;
  }
  const pick = (store: ReturnType<typeof memoryControl>, facts: RequestFacts = listing) =>
    pickRule(store.view().rules, facts, store.fire) as ActiveRule | undefined;

  it('answers with the rule armed last among those that match', () => {
    const store = armedStore(
      { operation: 'listPets', respond: { status: 500 } },
      { operation: 'listPets', respond: { status: 503 } },
      { operation: 'getPet', respond: { status: 404 } },
    );
    expect(pick(store)?.id).toBe('r2');
    expect(store.list().map((rule) => [rule.id, rule.matched, rule.fired])).toEqual([
      ['r3', 0, 0],
      ['r2', 1, 1],
      ['r1', 0, 0],
    ]);
  });

  it('lets older rules try when the newest matches but does not fire, counting it', () => {
    const store = armedStore(
      { operation: 'listPets', respond: { status: 500 } },
      { operation: 'listPets', times: 1, respond: { status: 503 } },
    );
    expect([pick(store)?.id, pick(store)?.id, pick(store)?.id]).toEqual(['r2', 'r1', 'r1']);
    expect(store.list().map((rule) => [rule.id, rule.matched, rule.fired])).toEqual([
      ['r2', 3, 1],
      ['r1', 2, 2],
    ]);
  });

  it('skips a disabled rule, and tries it again once enabled', () => {
    const store = armedStore(
      { operation: 'listPets', respond: { status: 500 } },
      { operation: 'listPets', respond: { fault: 'reset' } },
    );
    store.enable('r2', false);
    expect(pick(store)?.id).toBe('r1');
    expect(store.list()[0]).toMatchObject({ id: 'r2', matched: 0 });
    store.enable('r2', true);
    expect(pick(store)?.id).toBe('r2');
  });

  it('lets `after` matching requests through first, then fires `times` times', () => {
    const store = armedStore({ after: 2, times: 2, respond: { fault: 'close' } });
    expect(Array.from({ length: 6 }, () => pick(store)?.id ?? '-')).toEqual(['-', '-', 'r1', 'r1', '-', '-']);
  });

  it('matches a key, no valid key (null), or any caller (absent)', () => {
    const store = armedStore(
      { respond: { delayMs: 1 } },
      { key: null, respond: { delayMs: 2 } },
      { key: 'demo-pro', respond: { delayMs: 3 } },
    );
    expect(pick(store, { ...listing, key: 'demo-pro' })?.id).toBe('r3');
    expect(pick(store, { ...listing, key: null })?.id).toBe('r2');
    expect(pick(store, { ...listing, key: 'demo-free' })?.id).toBe('r1');
  });

  it('matches a path exactly, or by its prefix when it ends in *; a GET rule answers HEAD too', () => {
    const store = armedStore(
      { path: '/v1/pets/*', respond: { delayMs: 1 } },
      { method: 'GET', path: '/v1/pets/7', respond: { delayMs: 2 } },
    );
    const get = (path: string, method = 'GET'): RequestFacts => ({
      operationId: 'getPet',
      method,
      path,
      key: null,
    });
    expect(pick(store, get('/v1/pets/7'))?.id).toBe('r2');
    expect(pick(store, get('/v1/pets/7', 'HEAD'))?.id).toBe('r2');
    expect(pick(store, get('/v1/pets/70'))?.id).toBe('r1');
    expect(pick(store, listing)).toBeUndefined();
  });

  it('waits for a store whose fire answers a promise, falling through the same way', async () => {
    const store = armedStore(
      { operation: 'listPets', respond: { status: 500 } },
      { operation: 'listPets', times: 1, respond: { status: 503 } },
    );
    const fire = (id: string) => Promise.resolve(store.fire(id));
    const picks = [];
    for (let i = 0; i < 2; i += 1) picks.push((await pickRule(store.view().rules, listing, fire))?.id);
    expect(picks).toEqual(['r2', 'r1']);
  });
});

describe('probability', () => {
  const draws = (seed: number, probability: number, n: number) => {
    const rule = stored({ probability, seed, respond: { fault: 'reset' } });
    let counts = { matched: 0, fired: 0 };
    const fired: number[] = [];
    for (let i = 0; i < n; i += 1) {
      const next = decideFire(rule, counts);
      counts = next;
      if (next.fires) fired.push(next.matched);
    }
    return fired;
  };

  it('fires for about that share of 1,000 requests, the same ones for the same seed', () => {
    const first = draws(42, 0.25, 1000);
    expect(first.length).toBeGreaterThan(200);
    expect(first.length).toBeLessThan(300);
    expect(draws(42, 0.25, 1000)).toEqual(first);
    expect(draws(43, 0.25, 1000)).not.toEqual(first);
    expect(draws(42, 0, 1000)).toEqual([]);
    expect(draws(42, 1, 1000)).toHaveLength(1000);
  });

  it('draws numbers in [0, 1) that depend on the seed and the count only', () => {
    for (let n = 1; n <= 1000; n += 1) {
      const draw = seededDraw(4_294_967_295, n);
      expect(draw).toBeGreaterThanOrEqual(0);
      expect(draw).toBeLessThan(1);
      expect(seededDraw(4_294_967_295, n)).toBe(draw);
    }
  });
});
