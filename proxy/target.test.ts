import { describe, expect, it } from 'vitest';
import { placeTarget } from './target.js';

const UNDER_V1 = { origin: 'http://127.0.0.1:8080', prefix: '/api/v1' };
const BARE = { origin: 'http://127.0.0.1:8080', prefix: '' };

describe('placeTarget', () => {
  it.each([
    ['/v1/pets?limit=2', UNDER_V1, '/api/v1/pets?limit=2'],
    ['/v1', UNDER_V1, '/api/v1'],
    ['/v1?x=1', BARE, '/?x=1'],
    ['/v1/pets/7', BARE, '/pets/7'],
    ['/health', UNDER_V1, '/health'],
    ['/v1/pets?next=%2F%2Fhost&q=a/../b', BARE, '/pets?next=%2F%2Fhost&q=a/../b'],
    ['http://127.0.0.1:8080/v1/pets', UNDER_V1, '/api/v1/pets'],
    ['HTTP://127.0.0.1:8080', UNDER_V1, '/'],
    ['http://127.0.0.1:8080?x', BARE, '/?x'],
  ])('places %s at %o as %s', (target, upstream, path) => {
    expect(placeTarget(target, upstream, '/v1')).toMatchObject({ path });
  });

  it.each([
    ['http://127.0.0.1:9999/v1/pets', 'names another server'],
    ['https://127.0.0.1:8080/v1/pets', 'names another server'],
    ['http://127.0.0.1:8080@127.0.0.1:9999/', 'names another server'],
    ['http://127.0.0.1:99999/', 'names another server'],
    ['file:///etc/passwd', 'names another server'],
    ['*', 'must be a path'],
    ['127.0.0.1:9999', 'must be a path'],
    ['//127.0.0.1:9999/x', 'empty segment'],
    ['/v1//127.0.0.1:9999/x', 'empty segment'],
    ['/\\127.0.0.1:9999/x', 'backslash'],
    ['/v1/pets?q=\\', 'backslash'],
    ['/%2F%2F127.0.0.1:9999/x', 'encoded'],
    ['/v1/%5c127.0.0.1/x', 'encoded'],
    ['/v1/../x', '".." segment'],
    ['/v1/%2E%2e/x', '".." segment'],
    ['/v1/.', '".." segment'],
    ['/v1/pets#x', '"#"'],
    ['/v1/pets\u00e9', 'visible ASCII'],
    ['/v1/pets\u0000', 'visible ASCII'],
  ])('refuses %s (%s)', (target, why) => {
    const placed = placeTarget(target, UNDER_V1, '/v1');
    expect(placed).toEqual({ refusal: expect.stringContaining(why) });
  });
});
