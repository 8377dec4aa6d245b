// Why: `repomem --version` reports the package version; the JSON import is inlined by the
// bundler so printing it costs no file read at startup.
import packageJson from '../package.json' with { type: 'json' };

/** Version of the `@repomem/cli` package. */
export const CLI_VERSION: string = packageJson.version;
