// Why: the service rejects a request for every constraint its model declares (required members,
// lengths, patterns, list and map sizes, enums, numeric ranges) and names each field it rejects;
// this walks a value against a model shape and produces the same field list, and the same walk
// checks the emulator's own responses so it cannot drift from the output shapes.
import type { AgentCoreMemoryModel, ModelShape } from './model.js';

/** One rejected field, as the service reports it in `ValidationException.fieldList`. */
export interface FieldIssue {
  /** Field path in the service's notation, e.g. `records.1.member.content.text`. */
  readonly name: string;
  /** The service's sentence, e.g. `Value at 'actorId' failed to satisfy constraint: ...`. */
  readonly message: string;
}

const patternCache = new Map<string, RegExp>();

function fullMatch(pattern: string): RegExp {
  let compiled = patternCache.get(pattern);
  if (!compiled) {
    // Java's String.matches semantics: the whole value must match. No `u` flag: the model's
    // classes such as `[a-zA-Z0-9-_/]` use a literal `-` that unicode mode rejects.
    compiled = new RegExp(`^(?:${pattern})$`);
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

function constraint(path: string, rule: string): FieldIssue {
  return { name: path, message: `Value at '${path}' failed to satisfy constraint: ${rule}` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, member: string): string {
  return path === '' ? member : `${path}.${member}`;
}

function checkLength(issues: FieldIssue[], path: string, length: number, shape: { min?: number; max?: number }): void {
  if (shape.min !== undefined && length < shape.min) {
    issues.push(constraint(path, `Member must have length greater than or equal to ${shape.min}`));
  }
  if (shape.max !== undefined && length > shape.max) {
    issues.push(constraint(path, `Member must have length less than or equal to ${shape.max}`));
  }
}

function walk(
  model: AgentCoreMemoryModel,
  shape: ModelShape,
  value: unknown,
  path: string,
  issues: FieldIssue[],
): void {
  switch (shape.type) {
    case 'string': {
      if (typeof value !== 'string') {
        issues.push(constraint(path, 'Member must be a string'));
        return;
      }
      checkLength(issues, path, value.length, shape);
      if (shape.pattern !== undefined && !fullMatch(shape.pattern).test(value)) {
        issues.push(constraint(path, `Member must satisfy regular expression pattern: ${shape.pattern}`));
      }
      if (shape.enum !== undefined && !shape.enum.includes(value)) {
        issues.push(constraint(path, `Member must satisfy enum value set: [${shape.enum.join(', ')}]`));
      }
      return;
    }
    case 'integer':
    case 'long':
    case 'double':
    case 'float': {
      const integral = shape.type === 'integer' || shape.type === 'long';
      if (typeof value !== 'number' || !Number.isFinite(value) || (integral && !Number.isInteger(value))) {
        issues.push(constraint(path, `Member must be ${integral ? 'an integer' : 'a number'}`));
        return;
      }
      if (shape.min !== undefined && value < shape.min) {
        issues.push(constraint(path, `Member must have value greater than or equal to ${shape.min}`));
      }
      if (shape.max !== undefined && value > shape.max) {
        issues.push(constraint(path, `Member must have value less than or equal to ${shape.max}`));
      }
      return;
    }
    case 'boolean':
      if (typeof value !== 'boolean') issues.push(constraint(path, 'Member must be a boolean'));
      return;
    case 'timestamp':
      // restJson1 sends timestamps in bodies as epoch seconds (with a fraction).
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        issues.push(constraint(path, 'Member must be a timestamp in epoch seconds'));
      }
      return;
    case 'blob':
      if (typeof value !== 'string') issues.push(constraint(path, 'Member must be base64 text'));
      return;
    case 'list': {
      if (!Array.isArray(value)) {
        issues.push(constraint(path, 'Member must be a list'));
        return;
      }
      checkLength(issues, path, value.length, shape);
      const member = model.shape(shape.member.shape);
      value.forEach((item, index) => {
        const itemPath = `${path}.${index + 1}.member`;
        if (item === null || item === undefined) {
          issues.push({
            name: itemPath,
            message: `Value null at '${itemPath}' failed to satisfy constraint: Member must not be null`,
          });
          return;
        }
        walk(model, member, item, itemPath, issues);
      });
      return;
    }
    case 'map': {
      if (!isRecord(value)) {
        issues.push(constraint(path, 'Member must be a map'));
        return;
      }
      const entries = Object.entries(value);
      checkLength(issues, path, entries.length, shape);
      const keyShape = model.shape(shape.key.shape);
      const valueShape = model.shape(shape.value.shape);
      for (const [key, item] of entries) {
        const keyIssues: FieldIssue[] = [];
        walk(model, keyShape, key, path, keyIssues);
        for (const issue of keyIssues) {
          issues.push({ name: path, message: issue.message.replace('Member must', 'Map keys must') });
        }
        const itemPath = `${path}.${key}`;
        if (item === null || item === undefined) {
          issues.push({
            name: itemPath,
            message: `Value null at '${itemPath}' failed to satisfy constraint: Member must not be null`,
          });
          continue;
        }
        walk(model, valueShape, item, itemPath, issues);
      }
      return;
    }
    case 'structure': {
      if (shape.document) {
        if (value === undefined) issues.push(constraint(path, 'Member must be a JSON document'));
        return;
      }
      if (!isRecord(value)) {
        issues.push(constraint(path, 'Member must be a structure'));
        return;
      }
      if (shape.union) {
        const set = Object.keys(shape.members).filter((name) => value[name] !== undefined && value[name] !== null);
        if (set.length !== 1) issues.push(constraint(path, 'Member must have exactly one union member set'));
      }
      for (const name of shape.required ?? []) {
        if (value[name] === undefined || value[name] === null) {
          const memberPath = join(path, name);
          issues.push({
            name: memberPath,
            message: `Value null at '${memberPath}' failed to satisfy constraint: Member must not be null`,
          });
        }
      }
      for (const [name, member] of Object.entries(shape.members)) {
        const item = value[name];
        if (item === undefined || item === null) continue;
        walk(model, model.shape(member.shape), item, join(path, name), issues);
      }
      return;
    }
  }
}

/**
 * Checks `value` against the model shape `shapeName` and returns every rejected field (empty
 * when valid). Unknown members are ignored, as the service does.
 */
export function validateShape(model: AgentCoreMemoryModel, shapeName: string, value: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  walk(model, model.shape(shapeName), value, '', issues);
  return issues;
}

/** The service's summary sentence for a field list: `2 validation errors detected: ...; ...`. */
export function validationMessage(issues: readonly FieldIssue[]): string {
  const count = issues.length;
  return `${count} validation error${count === 1 ? '' : 's'} detected: ${issues.map((issue) => issue.message).join('; ')}`;
}
