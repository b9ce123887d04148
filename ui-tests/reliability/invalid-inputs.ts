/**
 * Invalid inputs for a tool, generated with fast-check from the input schema
 * the tool publishes (`document.modelContext.getTools()`). Every input
 * generated breaks at least one rule, so no call may change anything:
 *
 * - schema rules (answer INVALID_ARGUMENT): an extra field, a missing
 *   required field, a wrong type, a number under its minimum or over its
 *   maximum or not whole, a string outside its enum or under its minLength,
 *   an array over maxItems or under minItems, the same inside nested objects;
 * - handler rules (answer a closed-set code): a path with `..` leaving the
 *   root, a backslash, a control character, a drive or an absolute path, a
 *   path or segment over its byte bound; a text over its UTF-8 bound (source
 *   256 KiB, message 8 KiB, anchor text 4 KiB, name 256 bytes); an unknown
 *   cell type.
 *
 * The other fields get valid-shaped values: odd Unicode, and the real ids
 * and hashes of the notebook under test, so that a rule checked too late
 * would show as a change.
 */
import Ajv from 'ajv';
import fc from 'fast-check';

/** The JSON Schema subset the tools use. */
export interface ISchema {
  type?: string | string[];
  properties?: Record<string, ISchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: ISchema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** Real values of the workspace, so that valid-shaped fields hit real things. */
export interface IPool {
  notebookPath: string;
  cellIds: string[];
  hashes: string[];
  threadIds: string[];
}

export type Kind = 'schema' | 'handler';

export interface IInvalidInput {
  input: Record<string, unknown>;
  kind: Kind;
  /** Which rule it breaks, for the report. */
  rule: string;
}

const PATH_FIELDS = new Set(['path', 'notebookPath', 'directory']);

/** Texts bounded in UTF-8 bytes by the handlers, and their bounds. */
const BYTE_BOUNDS: Record<string, number> = {
  source: 256 * 1024,
  message: 8 * 1024,
  resolutionMessage: 8 * 1024,
  text: 4 * 1024,
  name: 256
};

/** Strings a confused or hostile agent sends. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u200b',
  '\u202eevil\u202c',
  '\ufeffbom',
  'e\u0301\u0301\u0301',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '👩‍👩‍👧‍👦',
  '\ud800',
  '\udfff lone',
  '%2e%2e%2f',
  '<img src=x onerror=alert(1)>',
  '{"error":"INTERNAL_ERROR"}',
  '__proto__',
  'constructor',
  'ｆｕｌｌｗｉｄｔｈ',
  'ق'.repeat(40)
];

const oddString = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ maxLength: 20 })
);

/** Paths the path rules refuse. */
const badPath = fc.oneof(
  fc.constantFrom(
    '..',
    '../x.ipynb',
    'a/../../x.ipynb',
    './../x.ipynb',
    '/etc/passwd',
    '/x.ipynb',
    'C:/x.ipynb',
    'c:\\x.ipynb',
    'a\\b.ipynb',
    '..\\x.ipynb',
    'file:///etc/passwd',
    'http://127.0.0.1/x.ipynb',
    'a/\u0000.ipynb',
    'x\n.ipynb',
    'x\u007f.ipynb',
    'x\u0085.ipynb',
    'tab\there.ipynb'
  ),
  fc
    .tuple(oddString, fc.constantFrom('..', '\\', '\u0000', '\u001b', '\r'))
    .map(([text, bad]) =>
      bad === '..' ? `../${text.replace(/\//g, '')}` : `${text}${bad}x`
    ),
  fc.integer({ min: 1025, max: 3000 }).map(n => `${'p'.repeat(n - 6)}.ipynb`),
  fc.integer({ min: 256, max: 400 }).map(n => `d/${'s'.repeat(n)}.ipynb`),
  fc.integer({ min: 520, max: 700 }).map(n => `${'é'.repeat(n)}.ipynb`)
);

function types(schema: ISchema): string[] {
  if (!schema.type) {
    return [];
  }
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** A valid-shaped value for `schema`, drawn from odd and real values. */
function validValue(
  key: string,
  schema: ISchema,
  pool: IPool
): fc.Arbitrary<unknown> {
  if (schema.enum) {
    return fc.constantFrom(...schema.enum);
  }
  const options: fc.Arbitrary<unknown>[] = [];
  for (const type of types(schema)) {
    switch (type) {
      case 'null':
        options.push(fc.constant(null));
        break;
      case 'boolean':
        options.push(fc.boolean());
        break;
      case 'integer':
        options.push(
          fc.integer({
            min: schema.minimum ?? -5,
            max: schema.maximum ?? (schema.minimum ?? 0) + 200
          })
        );
        break;
      case 'string': {
        const real =
          key === 'notebookPath' || key === 'path'
            ? [pool.notebookPath]
            : key === 'cellId' || key === 'referenceCellId'
              ? pool.cellIds
              : key === 'expectedSourceHash'
                ? pool.hashes
                : key === 'threadId'
                  ? pool.threadIds
                  : [];
        const odd =
          schema.minLength !== undefined
            ? oddString.filter(s => s.length >= schema.minLength!)
            : oddString;
        options.push(
          real.length ? fc.oneof(fc.constantFrom(...real), odd) : odd
        );
        break;
      }
      case 'array':
        options.push(
          fc.array(
            key === 'cellIds'
              ? fc.oneof(fc.constantFrom(...pool.cellIds), oddString)
              : validValue('', schema.items ?? {}, pool),
            {
              minLength: schema.minItems ?? 0,
              maxLength: Math.min(schema.maxItems ?? 5, 5)
            }
          )
        );
        break;
      case 'object':
        options.push(validObject(schema, pool));
        break;
    }
  }
  return options.length ? fc.oneof(...options) : fc.jsonValue();
}

/** A valid-shaped object: every required field, some optional ones. */
function validObject(
  schema: ISchema,
  pool: IPool
): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(properties)) {
    record[key] = validValue(key, sub, pool);
  }
  return fc.record(record, { requiredKeys: required });
}

/** A JSON value whose type `schema` does not allow. */
function wrongType(schema: ISchema): fc.Arbitrary<unknown> {
  const allowed = types(schema);
  const fits = (value: unknown): boolean =>
    allowed.some(type => {
      switch (type) {
        case 'null':
          return value === null;
        case 'boolean':
          return typeof value === 'boolean';
        case 'integer':
          return Number.isInteger(value);
        case 'number':
          return typeof value === 'number';
        case 'string':
          return typeof value === 'string';
        case 'array':
          return Array.isArray(value);
        case 'object':
          return (
            typeof value === 'object' && value !== null && !Array.isArray(value)
          );
      }
      return false;
    });
  return fc
    .oneof(
      fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'x', [], {}, [null]),
      fc.jsonValue({ maxDepth: 2 })
    )
    .filter(value => !fits(value));
}

/** A value `schema` refuses through a bound, enum or length; null if none. */
function outOfBounds(schema: ISchema): fc.Arbitrary<unknown> | null {
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) {
    options.push(oddString.filter(s => !schema.enum!.includes(s)));
  }
  if (types(schema).includes('integer')) {
    if (schema.minimum !== undefined) {
      options.push(
        fc.integer({ min: -1_000_000, max: schema.minimum - 1 }),
        fc.constantFrom(schema.minimum - 1, -(2 ** 53) + 1)
      );
    }
    if (schema.maximum !== undefined) {
      options.push(
        fc.integer({ min: schema.maximum + 1, max: 2 ** 31 }),
        fc.constant(schema.maximum + 1)
      );
    }
    options.push(
      fc
        .double({ min: 0, max: 1000, noNaN: true, noDefaultInfinity: true })
        .filter(n => !Number.isInteger(n))
    );
  }
  if (types(schema).includes('string') && schema.minLength) {
    options.push(fc.constant(''));
  }
  if (types(schema).includes('array')) {
    if (schema.minItems) {
      options.push(fc.constant([]));
    }
    if (schema.maxItems !== undefined) {
      options.push(
        fc
          .integer({ min: schema.maxItems + 1, max: schema.maxItems + 50 })
          .map(n => Array.from({ length: n }, (_, i) => `c${i}`))
      );
    }
    options.push(
      fc.array(wrongType(schema.items ?? {}), { minLength: 1, maxLength: 3 })
    );
  }
  return options.length ? fc.oneof(...options) : null;
}

/** An arbitrary object, invalid against `schema` through one of its fields. */
function invalidObject(
  schema: ISchema,
  pool: IPool,
  path: string
): fc.Arbitrary<IInvalidInput>[] {
  const properties = schema.properties ?? {};
  const known = Object.keys(properties);
  const base = validObject(schema, pool);
  const out: fc.Arbitrary<IInvalidInput>[] = [];
  const withField = (
    key: string,
    value: fc.Arbitrary<unknown>,
    kind: Kind,
    rule: string
  ) =>
    fc.tuple(base, value).map(([input, v]) => ({
      input: { ...input, [key]: v },
      kind,
      rule: `${path}${key}: ${rule}`
    }));

  // an extra field
  out.push(
    fc
      .tuple(
        base,
        fc
          .oneof(oddString, fc.constantFrom('__proto__', 'extra', 'cellID'))
          .filter(key => key !== '' && !known.includes(key)),
        fc.jsonValue({ maxDepth: 2 })
      )
      .map(([input, key, value]) => {
        const copy: Record<string, unknown> = { ...input };
        Object.defineProperty(copy, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true
        });
        return {
          input: copy,
          kind: 'schema' as Kind,
          rule: `${path}extra field`
        };
      })
  );
  // a missing required field
  for (const key of schema.required ?? []) {
    out.push(
      base.map(input => {
        const copy = { ...input };
        delete copy[key];
        return {
          input: copy,
          kind: 'schema' as Kind,
          rule: `${path}${key}: missing`
        };
      })
    );
  }
  for (const [key, sub] of Object.entries(properties)) {
    out.push(withField(key, wrongType(sub), 'schema', 'wrong type'));
    const bounds = outOfBounds(sub);
    if (bounds) {
      out.push(withField(key, bounds, 'schema', 'out of bounds'));
    }
    if (types(sub).includes('object')) {
      for (const nested of invalidObject(sub, pool, `${path}${key}.`)) {
        out.push(
          fc.tuple(base, nested).map(([input, inner]) => ({
            input: { ...input, [key]: inner.input },
            kind: inner.kind,
            rule: inner.rule
          }))
        );
      }
    }
    if (PATH_FIELDS.has(key) || (key === 'name' && path === '')) {
      out.push(withField(key, badPath, 'handler', 'bad path'));
    }
    const bound = BYTE_BOUNDS[key];
    if (bound !== undefined && types(sub).includes('string')) {
      out.push(
        withField(
          key,
          fc
            .tuple(
              fc.constantFrom('x', 'é', '€', '😀'),
              fc.integer({ min: 1, max: 64 })
            )
            .map(([unit, extra]) => {
              const bytes = new TextEncoder().encode(unit).length;
              return unit.repeat(Math.floor(bound / bytes) + extra);
            }),
          'handler',
          `over ${bound} bytes`
        )
      );
    }
    if (key === 'cellType') {
      out.push(
        withField(
          key,
          oddString.filter(s => !['code', 'markdown', 'raw'].includes(s)),
          'handler',
          'unknown cell type'
        )
      );
    }
  }
  return out;
}

/** Arbitrary invalid inputs for a tool's published input schema. */
export function invalidInputs(
  schema: ISchema,
  pool: IPool
): fc.Arbitrary<IInvalidInput> {
  return fc.oneof(...invalidObject(schema, pool, ''));
}

/**
 * Whether `input` breaks the schema (checked with Ajv, independently of the
 * extension's own validator), after the JSON round trip the call makes.
 */
export function schemaChecker(
  schema: ISchema
): (input: Record<string, unknown>) => boolean {
  const ajv = new Ajv({ strict: false, allErrors: false });
  const validate = ajv.compile(schema as object);
  return input => !validate(JSON.parse(JSON.stringify(input)));
}
