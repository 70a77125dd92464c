// The one request the 'http' method sends of its own: a method the document does not give a path, to an
// id no pet has (nothing to lose even on a target with an unshown delete). The http judge holds its 405
// to RFC 9110 §15.5.6 (Allow); any other answer is not judged here. Not sent with --read-only.
import type { Context } from '../context.js';

/** The largest id a JSON number holds exactly: no store has reached it. */
const NO_SUCH_ID = Number.MAX_SAFE_INTEGER;

export async function methodProbe(context: Context): Promise<void> {
  if (!context.methodOn('http') || context.readOnly || !context.selected('http_semantics')) return;
  for (const path of context.spec.paths) {
    const operation = [...path.operations.values()].find((o) => context.tested(o.id));
    if (operation === undefined || path.operations.has('DELETE')) continue;
    const ids = Object.fromEntries(
      operation.parameters.filter((p) => p.in === 'path').map((p) => [p.name, NO_SUCH_ID]),
    );
    if (Object.keys(ids).length === 0) continue; // a collection: DELETE there could mean something else
    await context.send(
      { operationId: operation.id, method: 'DELETE', path: operation.expand(ids) },
      { retry: false },
    );
  }
}
