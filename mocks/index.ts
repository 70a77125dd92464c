// petkit's mock (`petkit`): the runtime-agnostic core (core.ts, all that a browser gets) and the Node
// parts: startServer, the node:http adapter, and loadKeysFile and loadPetsFile, which read a keys file and a fixtures file from disk.
// Everything else under mocks/ is internal on purpose; the MSW adapter is `petkit/msw` (msw.ts).

export type { ControlOptions } from './control-guard.js';
export * from './core.js';
export { isDemoKey, keyLabel } from './key-label.js';
export { loadKeysFile } from './keys-file.js';
export {
  type RunningServer,
  type ServerOptions,
  type ServerTimeouts,
  startServer,
} from './node-server.js';
export { loadPetsFile } from './pets-file.js';
