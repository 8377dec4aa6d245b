// Why: public entry of @repomem/mcp (filled in by the MCP server work).
/** Package name, for messages. */
export const PACKAGE_NAME = '@repomem/mcp';
