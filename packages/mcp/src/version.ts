// Why: the name and version the server reports to clients in the initialize handshake.

/** Server name reported to clients. */
export const MCP_SERVER_NAME = 'repomem';
/** Server version reported to clients (this package's version). */
export const MCP_SERVER_VERSION = '0.1.0';
/** MCP specification revision the server speaks (the SDK's latest; older revisions are negotiated down). */
export const MCP_PROTOCOL_REVISION = '2025-11-25';
