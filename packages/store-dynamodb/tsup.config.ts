// Why: ESM + CJS + d.ts like @repomem/core, which stays external (one copy of its classes and
// error type at run time), as does the AWS SDK (installed beside it, shared with other clients).
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  external: ['@repomem/core', '@aws-sdk/client-dynamodb'],
});
