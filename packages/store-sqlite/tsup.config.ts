// Why: ESM + CJS + d.ts like @repomem/core. `node:sqlite` is a builtin that exists only with the
// `node:` prefix, so it is listed as external explicitly and the build is checked to import it
// literally (a bundler stripping the prefix would produce `sqlite`, which does not resolve).
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  external: ['node:sqlite', '@repomem/core'],
  // tsup strips `node:` by default; `sqlite` without the prefix is not a builtin.
  removeNodeProtocol: false,
});
