// Why: placeholder for the memory policy module (being written); exports the mode type the facade needs.
/** Memory access mode for a run. */
export type MemoryMode = 'enabled' | 'read-only' | 'disabled';
