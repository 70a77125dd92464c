// The requests the 'http' method sends past Node's fetch: two GETs on one raw keep-alive connection, the
// second with Connection: close, their answers read byte for byte and held to RFC 9112's framing
// (framing.ts). Node's fetch (undici) drops bytes after a complete answer and unfolds a folded header
// line, so a server that writes an answer twice, or folds its headers, passes every other check; a
// client that keeps those bytes (urllib3, a reverse proxy) reads them as the answer to its next
// request. Two requests of the budget, GETs only (sent with --read-only too), paced and counted as
// any other, each exchange judged and recorded as any other too.

import type { WireOutgoing, WireStep } from '../client.js';
import type { Context } from '../context.js';
import { toWireCurl } from '../exchange.js';
import { type FramingFault, RFC9112, shown } from './framing.js';

/** The requests of the probe, and the operations they are findings of. */
function requests(context: Context): WireOutgoing[] {
  const list: WireOutgoing = { operationId: 'listPets', method: 'GET', path: '/pets' };
  const pet = context.knownPets[0];
  const second: WireOutgoing =
    pet !== undefined && context.tested('getPet')
      ? {
          operationId: 'getPet',
          method: 'GET',
          path: context.spec.operation('getPet').expand({ petId: String(pet.id) }),
          close: true,
        }
      : // Another answer than the first, so that a copy of the first is told from it.
        { ...list, query: { limit: '1' }, close: true };
  return [list, second];
}

/** What the bytes after a message say, or undefined when nothing came after it. */
function extraBytes(step: WireStep, next: WireStep | undefined): FramingFault | undefined {
  if (step.after.length === 0) return undefined;
  const status = step.exchange.response?.status;
  const copy = step.raw !== undefined && step.after.subarray(0, step.raw.length).equals(step.raw);
  return {
    cause: 'bytes after a complete response (a client that keeps them reads them as its next answer)',
    message:
      `${step.after.length} bytes came after the ${status ?? ''} response ended by its framing` +
      `${copy ? ', the same response again' : ''}, before ${
        next === undefined ? 'the connection closed' : 'the next request was sent'
      }: ${shown(step.afterText, 60)}`,
    expected: 'nothing after a response but the answer to the next request',
    because: RFC9112.oneAnswer,
    ...(status === undefined ? {} : { status }),
  };
}

export async function wireProbe(context: Context): Promise<void> {
  if (!context.methodOn('http') || !context.selected('http_semantics')) return;
  if (!context.tested('listPets')) return;
  const outgoings = requests(context);
  // Two requests, and one more should the target close the kept connection as the second leaves: sent
  // when the budget has them after the first pass (every check's cases once), as the second pass's
  // generated cases are; a default run at 60 a minute has none left.
  if (context.budgetLeft() < outgoings.length + 1) return;
  const steps = await context.sendOnWire(outgoings);
  const curl = toWireCurl(
    steps.map((step) => step.exchange.request),
    steps.some((step) => step.exchange.response?.headers['content-encoding'] !== undefined),
  );
  // Judged once the run's requests are over: an answer Node's fetch refused as not HTTP/1.1 is already
  // a finding, in fetch's words, and the same bytes on the wire are not another.
  context.atEnd(() => judge(context, steps, curl));
}

function judge(context: Context, steps: readonly WireStep[], curl: string): void {
  const judged = new Set<string>();
  const fail = (step: WireStep, fault: FramingFault) => {
    judged.add(step.exchange.operationId);
    context.failed('http_semantics', step.exchange, {
      message: fault.message,
      expected: fault.expected,
      cause: fault.cause,
      because: [fault.because],
      case: `on the wire: ${step.exchange.request.method} ${new URL(step.exchange.request.url).pathname}${
        step.reused ? ', on the connection kept from the request before' : ''
      }`,
      curl,
    });
  };
  for (const [index, step] of steps.entries()) {
    const operationId = step.exchange.operationId;
    if (!context.tested(operationId)) continue;
    if (step.fault !== undefined) {
      if (!context.refusedByFetch(operationId)) fail(step, step.fault);
      continue;
    }
    if (step.unjudged !== undefined) continue;
    const before = steps[index - 1];
    let faulted = false;
    // A copy of the answer before, to a request that asked something else: the answer came twice,
    // after a pause long enough that it was not yet there when this request left.
    if (
      before?.raw !== undefined &&
      step.raw !== undefined &&
      step.reused &&
      before.exchange.request.url !== step.exchange.request.url &&
      step.raw.equals(before.raw)
    ) {
      fail(step, {
        cause: 'bytes after a complete response (a client that keeps them reads them as its next answer)',
        message: `the answer to ${step.exchange.request.method} ${new URL(step.exchange.request.url).pathname} is, byte for byte, the answer to the request before it (${new URL(before.exchange.request.url).pathname}): the target sent that answer twice`,
        expected: 'the answer to this request',
        because: RFC9112.oneAnswer,
        ...(step.exchange.response === null ? {} : { status: step.exchange.response.status }),
      });
      faulted = true;
    }
    const extra = extraBytes(step, steps[index + 1]);
    if (extra !== undefined && !faulted) {
      fail(step, extra);
      faulted = true;
    }
    if (step.closed === false) {
      fail(step, {
        cause: 'the connection kept open after an answer to Connection: close',
        message: `the request carried Connection: close; the target answered ${step.exchange.response?.status ?? ''} and kept the connection open past the --timeout`,
        expected: 'the connection closed after the answer',
        because: RFC9112.close,
      });
      faulted = true;
    }
    if (!faulted && !judged.has(operationId)) context.passed('http_semantics', operationId);
  }
}
