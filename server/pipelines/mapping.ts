// Step inputs (docs/spec-decisions.md, Pipelines): a string starting with "/" is a JSON pointer
// (RFC 6901) into the run's context {trigger, steps: {<output_key>: output}}; {"$literal": v} is v as
// is; objects and arrays are mapped member by member (at most 8 levels); anything else is itself.
// A mapping may name one large output many times: its size is counted from the references first
// (mappedLength), and only an input within the limit is built.

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

// Characters JSON.stringify escapes: quote, backslash, controls and (lone) surrogates.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringLength(text: string): number {
  return ESCAPED.test(text) ? JSON.stringify(text).length : text.length + 2;
}

/**
 * Sizes of large values already measured during one run, by identity (a string by value), so that
 * a value named many times is measured once.
 */
export type SizeMemo = Map<unknown, number>;
const MEMO_FROM = 1024;

/**
 * The length of JSON.stringify(value) for a JSON value (what JSON.parse gives), counted without
 * building the text. Stops early: any result above `budget` means "more than budget".
 */
export function jsonLength(value: unknown, budget: number, memo?: SizeMemo): number {
  const known = memo?.get(value);
  if (known !== undefined) return known;
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= budget) {
    const item = stack.pop();
    if (item === null || item === undefined || typeof item === 'function' || typeof item === 'symbol') total += 4;
    else if (typeof item === 'string') total += stringLength(item);
    else if (typeof item !== 'object') total += JSON.stringify(item).length;
    else if (Array.isArray(item)) {
      total += 2 + Math.max(0, item.length - 1);
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
    } else {
      let members = 0;
      for (const [key, member] of Object.entries(item)) {
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        total += stringLength(key) + 1;
        members++;
        stack.push(member);
      }
      total += 2 + Math.max(0, members - 1);
    }
  }
  if (memo && stack.length === 0 && total >= MEMO_FROM && (typeof value === 'string' || typeof value === 'object')) {
    memo.set(value, total);
  }
  return total;
}

/**
 * The length of JSON.stringify(applyMapping(mapping, context)), counted from the references without
 * building the input (a mapping naming a 1 MiB output 400 times would build 400 MiB). Throws
 * MappingError as applyMapping does; any result above `budget` means "more than budget".
 */
export function mappedLength(mapping: unknown, context: unknown, budget: number, memo?: SizeMemo): number {
  let total = 0;
  const stack: { mapping: unknown; depth: number }[] = [{ mapping, depth: 0 }];
  while (stack.length > 0 && total <= budget) {
    const { mapping: item, depth } = stack.pop()!;
    if (depth > MAX_DEPTH) throw new MappingError('input_mapping is nested too deeply');
    if (typeof item === 'string') {
      total += item.startsWith('/') ? jsonLength(resolvePointer(context, item), budget - total, memo) : stringLength(item);
    } else if (Array.isArray(item)) {
      total += 2 + Math.max(0, item.length - 1);
      for (let i = item.length - 1; i >= 0; i--) stack.push({ mapping: item[i], depth: depth + 1 });
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      if (entries.length === 1 && entries[0]![0] === '$literal') {
        total += jsonLength(entries[0]![1], budget - total, memo);
        continue;
      }
      const kept = entries.filter(([key]) => key !== '__proto__');
      total += 2 + Math.max(0, kept.length - 1);
      for (const [key] of kept) total += stringLength(key) + 1;
      // In reverse, so that references are resolved (and a missing one reported) in applyMapping's order.
      for (let i = kept.length - 1; i >= 0; i--) stack.push({ mapping: kept[i]![1], depth: depth + 1 });
    } else {
      total += jsonLength(item, budget - total);
    }
  }
  return total;
}
