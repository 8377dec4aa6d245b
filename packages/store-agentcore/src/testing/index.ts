// Why: public entry of @repomem/store-agentcore/testing: the wire-level AgentCore Memory emulator.
/** Package name, for messages. */
export const TESTING_PACKAGE_NAME = '@repomem/store-agentcore/testing';
