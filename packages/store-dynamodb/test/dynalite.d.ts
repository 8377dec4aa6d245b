// Why: dynalite ships no type declarations; the tests use only its factory.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    readonly createTableMs?: number;
    readonly deleteTableMs?: number;
    readonly updateTableMs?: number;
    readonly maxItemSizeKb?: number;
  }
  export default function dynalite(options?: DynaliteOptions): Server;
}
