// Why: public entry of @repomem/store-agentcore (filled in by the AgentCore store work).
/** Package name, for messages. */
export const PACKAGE_NAME = '@repomem/store-agentcore';
