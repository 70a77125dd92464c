import { buildSpec, type Spec } from './build.js';
import { document } from './document.gen.js';

let cached: Spec | undefined;

/**
 * petkit's contract, read from openapi.yaml (through its generated module, so it loads without fs in
 * the browser too). Built on first use and shared for the rest of the process: the validators are
 * compiled once. The Spec is immutable, so sharing it keeps two mocks independent.
 */
export function loadSpec(): Spec {
  cached ??= buildSpec(document);
  return cached;
}
