// Why: public entry of @repomem/github/testing: a loopback GitHub API for tests of the mirror sync.
/** Package name, for messages. */
export const TESTING_PACKAGE_NAME = '@repomem/github/testing';
