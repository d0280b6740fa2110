// Step inputs (docs/spec-decisions.md, Pipelines): a string starting with "/" is a JSON pointer
// (RFC 6901) into the run's context {trigger, steps: {<output_key>: output}}; {"$literal": v} is v as
// is; objects and arrays are mapped member by member (at most 8 levels); anything else is itself.

export class MappingError extends Error {}

const MAX_DEPTH = 8;

function own(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Resolves a JSON pointer; throws MappingError when it leads nowhere. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) throw new MappingError(`${pointer} is not a JSON pointer`);
  let current: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length)
        throw new MappingError(`${pointer} resolves to nothing`);
      current = current[Number(token)];
    } else if (current !== null && typeof current === 'object' && own(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      throw new MappingError(`${pointer} resolves to nothing`);
    }
  }
  return current;
}

export function applyMapping(mapping: unknown, context: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new MappingError('input_mapping is nested too deeply');
  if (typeof mapping === 'string') return mapping.startsWith('/') ? resolvePointer(context, mapping) : mapping;
  if (Array.isArray(mapping)) return mapping.map((item) => applyMapping(item, context, depth + 1));
  if (mapping !== null && typeof mapping === 'object') {
    const entries = Object.entries(mapping);
    if (entries.length === 1 && entries[0]![0] === '$literal') return entries[0]![1];
    const out: Record<string, unknown> = {};
    for (const [key, value] of entries) {
      if (key === '__proto__') continue;
      out[key] = applyMapping(value, context, depth + 1);
    }
    return out;
  }
  return mapping;
}
