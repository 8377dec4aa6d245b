// Why: a value the emulator stores or answers carries only the members the model declares for
// its shape, so a caller's extra keys never leak back and responses match the output shape.
import type { AgentCoreMemoryModel, ModelShape } from './model.js';

function project(model: AgentCoreMemoryModel, shape: ModelShape, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (shape.type) {
    case 'list': {
      if (!Array.isArray(value)) return value;
      const member = model.shape(shape.member.shape);
      return value.map((item) => project(model, member, item));
    }
    case 'map': {
      if (typeof value !== 'object' || Array.isArray(value)) return value;
      const valueShape = model.shape(shape.value.shape);
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, project(model, valueShape, item)]));
    }
    case 'structure': {
      if (shape.document || typeof value !== 'object' || Array.isArray(value)) return value;
      const source = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(shape.members)) {
        const projected = project(model, model.shape(member.shape), source[name]);
        if (projected !== undefined) out[name] = projected;
      }
      return out;
    }
    default:
      return value;
  }
}

/** `value` with every member the model does not declare for `shapeName` removed (deeply). */
export function projectToShape(model: AgentCoreMemoryModel, shapeName: string, value: unknown): unknown {
  return project(model, model.shape(shapeName), value);
}
