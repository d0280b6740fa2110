import fc from 'fast-check';

// The hostile values the schema-driven fuzz sends (issue 9, item 4): control characters, lone
// surrogates, 100 KB strings, extreme and over-precise numbers, the wrong structure, deep nesting,
// prototype keys. Values that must be sent as raw JSON text (deep nesting) are `Raw`.

/** JSON text inserted as is where a value goes. */
export class Raw {
  constructor(readonly text: string) {}
}

export const KB100 = 'x'.repeat(100 * 1024);
const deepArray = (depth: number) => new Raw('['.repeat(depth) + ']'.repeat(depth));
const deepObject = (depth: number) => new Raw('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** Strings: each is sent wherever a string goes (body, query, path). */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u0002\u001f\u007f',
  '\t\r\n',
  '\u2028\u2029',
  '\u200b\ufeff',
  '\ud800',
  'x\udc00y',
  '\udbff\udfff',
  '𝕏🦀',
  'é'.normalize('NFD'),
  KB100,
  '%00',
  '%',
  '../../etc/passwd',
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e308',
  '9007199254740993',
  '-9007199254740993',
  '0.1234567',
  '0x',
  '0x' + 'f'.repeat(40),
  '0x' + 'g'.repeat(40),
  '00000000-0000-0000-0000-000000000000',
];

/** Numbers: ±2^53 and beyond, -1, 0, 1e308, money with 7 decimals, the smallest double. */
export const HOSTILE_NUMBERS = [
  2 ** 53,
  -(2 ** 53),
  2 ** 53 + 2,
  -1,
  0,
  -0,
  1,
  1e308,
  -1e308,
  5e-324,
  0.1234567,
  1.0000001,
  99.9999999,
  1e21,
  2 ** 31,
  2 ** 63,
];

/** Anything in place of any JSON value. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      [],
      {},
      [{}],
      [[]],
      { a: 1 },
      ['x'],
      [1, 2, 3],
      deepArray(1000),
      deepObject(1000),
      deepArray(31),
      JSON.parse('{"__proto__": {"polluted": true}}'),
      { constructor: { prototype: { polluted: true } } },
      { toString: 'x', valueOf: 1, hasOwnProperty: null },
      Array.from({ length: 5000 }, (_, i) => i),
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

/** Whole request bodies, sent as raw text. */
export const HOSTILE_BODIES = [
  '',
  ' ',
  'null',
  'true',
  '0',
  '"text"',
  '[]',
  '{}',
  '[{}]',
  '{',
  '{"a":',
  '[1,2',
  '{"a":1}}',
  'nul',
  '\u0000',
  '{"a":"\u0000"}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '1e999',
  '-1e999',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '['.repeat(1000) + ']'.repeat(1000),
  '{"a":'.repeat(1000) + '1' + '}'.repeat(1000),
  '\ufeff{}',
  '{"a":1,"a":2}',
  `{"a":"${KB100}"}`,
];

/** Content types sent in place of application/json (null: none at all). */
export const CONTENT_TYPES: (string | null)[] = [
  null,
  '',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/jsonx',
  'APPLICATION/JSON',
  '*/*',
  'application/merge-patch+json',
];

/** Header values: what a Headers object can carry (no NUL, CR, LF; Latin-1). */
export const HOSTILE_HEADER_VALUES = [
  '',
  ' ',
  'x',
  '\u0001\u001f\u007f',
  '\t',
  'ÿþ',
  'Bearer',
  'Bearer ',
  'Bearer x',
  'Basic dXNlcjpwYXNz',
  'bearer vs_' + 'A'.repeat(43),
  'ck_' + 'A'.repeat(46),
  '0x' + '1'.repeat(40),
  '0x' + '00'.repeat(65),
  'hello 1700000000',
  '-1',
  '9007199254740993',
  '1e308',
  KB100,
  'a, b',
  '127.0.0.1, 10.0.0.1',
  '::1',
];

/** Headers the API reads besides those the document names. */
export const READ_HEADERS = [
  'authorization',
  'x-api-key',
  'x-agent-address',
  'x-agent-message',
  'x-message-signature',
  'idempotency-key',
  'x-request-id',
  'x-forwarded-for',
  'last-event-id',
  'accept',
  'content-length',
];

/** Query parameter names that are not in any document but are sent anyway. */
export const EXTRA_QUERY_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a[]', 'a[b]', '', '\u0000'];

/**
 * Percent-encodes like encodeURIComponent, but lone surrogates are written as their (invalid)
 * three-byte UTF-8 form instead of throwing, so they reach the server as they are.
 */
export function encodeComponent(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16).toUpperCase()}%${(0x80 | ((code >> 6) & 0x3f)).toString(16).toUpperCase()}%${(0x80 | (code & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(value[i]!);
    }
  }
  return out;
}

/** Encoded forms that no encoder produces: broken escapes, overlong NUL, encoded slashes. */
export const RAW_ENCODED = ['%', '%zz', '%C0%80', '%ED%A0%80', '%2F', '%2e%2e', '%00', '%FF%FE', 'a%20b', '%E2%80%AE'];
