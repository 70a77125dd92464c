// The suite's reading of where its key stands in a text is the contract module's (openapi/key-search.ts),
// which petkit proxy reads the same way: kept here under its old name for redaction.ts and its test.
export {
  type Automaton,
  anchorsOf,
  automatonOf,
  base64Cores,
  decodedView,
  stretches,
  stretchFinder,
  type View,
} from '../openapi/key-search.js';
