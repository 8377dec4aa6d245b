// Why: run by local-embedder.test.ts in a child process whose every network entry point throws,
// so the test proves the packaged model loads and embeds with no network at all.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

const refuse = (what) => () => {
  throw new Error(`network disabled: ${what}`);
};
globalThis.fetch = refuse('fetch');
http.request = refuse('http.request');
http.get = refuse('http.get');
https.request = refuse('https.request');
https.get = refuse('https.get');
net.connect = refuse('net.connect');
net.createConnection = refuse('net.createConnection');
tls.connect = refuse('tls.connect');
dns.lookup = refuse('dns.lookup');

const { createLocalEmbedder } = await import(process.argv[2]);
const vectors = await createLocalEmbedder().embed(['vitest is flaky on CI', 'the test runner fails intermittently']);
const length = Math.hypot(...vectors[0]);
process.stdout.write(JSON.stringify({ count: vectors.length, dimensions: vectors[0].length, length }));
