import { defineConfig } from 'vite';

export default defineConfig({
  // petkit/msw carries the mock's precompiled validators: one chunk of about 560 kB in MSW mode.
  build: { chunkSizeWarningLimit: 1000 },
});
