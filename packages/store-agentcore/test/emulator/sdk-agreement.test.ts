// Why: the shipped model and the installed SDK client must describe the same service: every
// operation of the model has the same method, path and success status in the client's own
// operation schema, and the same input and output member names, so an SDK upgrade that moves a
// route or adds a member shows up here instead of as a silent mismatch in the adapter.
import * as sdk from '@aws-sdk/client-bedrock-agentcore';
import { describe, expect, it } from 'vitest';
import { agentCoreMemoryModel } from '../../src/testing/index.js';

const exported = sdk as unknown as Record<string, unknown>;

/** The client's static schema for `name` (operation `[9, ns, name, traits, input, output]`). */
function schema(name: string): readonly unknown[] {
  const found = exported[`${name}$`];
  if (!Array.isArray(found)) throw new Error(`the SDK exports no schema ${name}$`);
  return found;
}

function resolve(value: unknown): readonly unknown[] {
  const resolved = typeof value === 'function' ? (value as () => unknown)() : value;
  if (!Array.isArray(resolved)) throw new Error('unexpected SDK schema form');
  return resolved;
}

/** `[method, path, status]` from an operation schema's traits. */
function httpTrait(operation: readonly unknown[]): unknown {
  const traits = operation[3];
  if (typeof traits !== 'object' || traits === null) return undefined;
  return Object.values(traits).find(
    (value) =>
      Array.isArray(value) && value.length === 3 && typeof value[0] === 'string' && typeof value[2] === 'number',
  );
}

/** Member names of a structure schema `[3, ns, name, traits, memberNames, memberSchemas, required]`. */
function memberNames(structure: readonly unknown[]): string[] {
  const names = structure[4];
  if (!Array.isArray(names)) throw new Error('unexpected SDK structure schema form');
  return names.map(String).sort();
}

describe('the shipped model agrees with the installed @aws-sdk/client-bedrock-agentcore', () => {
  const model = agentCoreMemoryModel();

  for (const route of model.routes) {
    it(`${route.operation}: route, status and members`, () => {
      const operation = schema(route.operation);
      expect(httpTrait(operation)).toEqual([route.method, route.requestUri, route.responseCode]);
      const operationModel = model.operation(route.operation);
      expect(memberNames(resolve(operation[4]))).toEqual(
        Object.keys(model.structure(operationModel.input.shape).members).sort(),
      );
      expect(memberNames(resolve(operation[5]))).toEqual(
        Object.keys(model.structure(operationModel.output.shape).members).sort(),
      );
    });
  }

  it('every structure of the model has the same member names in the SDK', () => {
    const compared: string[] = [];
    for (const [name, shape] of Object.entries(model.model.shapes)) {
      if (shape.type !== 'structure' || shape.document) continue;
      const found = exported[`${name}$`];
      if (!Array.isArray(found)) continue;
      expect(memberNames(found), name).toEqual(Object.keys(shape.members).sort());
      compared.push(name);
    }
    expect(compared.length).toBeGreaterThan(60);
  });
});
