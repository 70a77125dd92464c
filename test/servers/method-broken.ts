// A broken server that one method alone exists to catch: the ablation test runs it with every method on
// (caught) and with only its own method off (missed). Each method's owner keeps its own list
// (broken-model.ts, broken-sequences.ts, broken-derived.ts, broken-http.ts).
import type { Ablatable } from '../../contract-tests/model/types.js';
import type { BrokenServer } from './broken.js';

export type MethodBrokenServer = BrokenServer & { readonly method: Ablatable };
