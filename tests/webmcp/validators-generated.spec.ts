/**
 * The validators compiled at build time (src/webmcp/validators.generated.ts)
 * must be what ajv compiles from the schemas today: the file is regenerated
 * and compared, and the generated functions and a freshly compiled runtime
 * Ajv must agree on many valid and invalid inputs for every tool.
 */
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import { join } from 'path';

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

import { ToolError } from '../../src/common/errors';
import {
  TOOL_INPUT_SCHEMAS,
  TOOL_NAMES,
  type ToolName
} from '../../src/webmcp/specs';
import { type JSONSchema } from '../../src/webmcp/types';
import {
  type CompiledValidator,
  InputValidator
} from '../../src/webmcp/validate';
import { COMPILED_VALIDATORS } from '../../src/webmcp/validators.generated';

const root = join(__dirname, '..', '..');

/** The options the validator used when it compiled the schemas at run time. */
const runtimeAjv = new Ajv({
  strict: true,
  allowUnionTypes: true,
  useDefaults: true,
  allErrors: false,
  verbose: true
});
const runtime = new Map<ToolName, ValidateFunction>();
const runtimeRecord = {} as Record<ToolName, CompiledValidator>;
for (const name of TOOL_NAMES) {
  runtime.set(name, runtimeAjv.compile(TOOL_INPUT_SCHEMAS[name]));
  runtimeRecord[name] = runtime.get(name)!;
}

/** Picks the test inputs: property schemas alone, where defaults mean nothing. */
const probeAjv = new Ajv({ strict: false, allowUnionTypes: true });

/** Values of every JSON type, and the edge cases of the keywords in use. */
const COMMON_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  100,
  101,
  1e9,
  '',
  'x',
  '😀',
  'cell',
  [],
  ['a'],
  [1],
  {},
  { a: 1 }
];

/** Candidate values for one schema: the common ones plus its own edges. */
function candidates(schema: JSONSchema): unknown[] {
  const values = [...COMMON_VALUES];
  if (Array.isArray(schema.enum)) {
    values.push(...(schema.enum as unknown[]), 'not-a-member');
  }
  for (const bound of ['minimum', 'maximum'] as const) {
    if (typeof schema[bound] === 'number') {
      const limit = schema[bound] as number;
      values.push(limit - 1, limit, limit + 1, limit + 0.5);
    }
  }
  if (schema.default !== undefined) {
    values.push(schema.default);
  }
  if (schema.type === 'array') {
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : 3;
    values.push(
      Array.from({ length: max }, (_, i) => `c${i}`),
      Array.from({ length: max + 1 }, (_, i) => `c${i}`),
      ['a', 7]
    );
  }
  if (schema.type === 'object') {
    const valid = validExample(schema);
    values.push(valid, ...variants(schema, valid));
  }
  return values;
}

/** An object the schema accepts: every property with a value it accepts. */
function validExample(schema: JSONSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
  const example: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const validate = probeAjv.compile(property);
    example[key] = candidates(property).find(candidate =>
      validate(copy(candidate))
    );
  }
  return example;
}

/** Only the required properties of the example. */
function minimalExample(
  schema: JSONSchema,
  example: Record<string, unknown>
): Record<string, unknown> {
  const required = (schema.required ?? []) as string[];
  return Object.fromEntries(required.map(key => [key, example[key]]));
}

/** The example with each property replaced, removed, and an unknown added. */
function variants(
  schema: JSONSchema,
  example: Record<string, unknown>
): Record<string, unknown>[] {
  const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
  const found: Record<string, unknown>[] = [
    minimalExample(schema, example),
    { ...example, unknown: 1 }
  ];
  for (const [key, property] of Object.entries(properties)) {
    const { [key]: _removed, ...rest } = example;
    found.push(rest);
    for (const value of candidates(property)) {
      found.push({ ...example, [key]: value });
    }
  }
  return found;
}

function copy<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

/** What a validator leaves behind, without ajv's verbose-only fields. */
function outcome(
  validate: CompiledValidator | ValidateFunction,
  input: unknown
): { valid: boolean; data: unknown; error?: Record<string, unknown> } {
  const data = copy(input);
  const valid = validate(data) as boolean;
  const first = validate.errors?.[0] as ErrorObject | undefined;
  return {
    valid,
    data,
    ...(first
      ? {
          error: {
            keyword: first.keyword,
            instancePath: first.instancePath,
            schemaPath: first.schemaPath,
            // not the message: the generated code leaves ajv's strings
            // out (InputValidator words errors itself; the next test)
            params: first.params
          }
        }
      : {})
  };
}

describe('validators.generated.ts', () => {
  it('is what scripts/build-validators.mjs generates from the schemas', () => {
    const file = join(root, 'src', 'webmcp', 'validators.generated.ts');
    const before = readFileSync(file, 'utf8');
    let stale = '';
    try {
      execFileSync(
        process.execPath,
        [join(root, 'scripts', 'build-validators.mjs'), '--check'],
        { cwd: root, stdio: 'pipe' }
      );
    } catch (error) {
      stale = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(stale).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('imports neither ajv nor anything else but the schemas', () => {
    const text = readFileSync(
      join(root, 'src', 'webmcp', 'validators.generated.ts'),
      'utf8'
    );
    const imports = [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)].map(
      match => match[1]
    );
    expect(imports.sort()).toEqual(['./specs', './types']);
    expect(text).not.toMatch(/\brequire\(/);
    expect(text).not.toMatch(/['"]ajv/);
  });

  it('has one validator per tool', () => {
    expect(Object.keys(COMPILED_VALIDATORS).sort()).toEqual(
      [...TOOL_NAMES].sort()
    );
  });

  describe.each(TOOL_NAMES.map(name => [name]))('%s', name => {
    const schema = TOOL_INPUT_SCHEMAS[name];
    const inputs = [
      undefined,
      ...COMMON_VALUES,
      validExample(schema),
      ...variants(schema, validExample(schema))
    ];

    it('agrees with runtime Ajv on valid and invalid inputs', () => {
      const compiled = COMPILED_VALIDATORS[name];
      const fresh = runtime.get(name)!;
      let valid = 0;
      let invalid = 0;
      for (const input of inputs) {
        const expected = outcome(fresh, input);
        expect({ input, ...outcome(compiled, input) }).toEqual({
          input,
          ...expected
        });
        if (expected.valid) {
          valid++;
        } else {
          invalid++;
        }
      }
      expect(valid).toBeGreaterThan(0);
      expect(invalid).toBeGreaterThan(inputs.length / 4);
    });

    it('gives InputValidator the messages it gave with runtime Ajv', () => {
      const generated = new InputValidator(COMPILED_VALIDATORS);
      const withRuntime = new InputValidator(runtimeRecord);
      const result = (validator: InputValidator, input: unknown) => {
        try {
          return { args: validator.validate(name, input) };
        } catch (error) {
          expect(error).toBeInstanceOf(ToolError);
          const { message, details } = error as ToolError;
          return { message, details };
        }
      };
      for (const input of inputs) {
        expect(result(generated, input)).toEqual(result(withRuntime, input));
      }
    });

    it('names the properties ajv reports as the parent schema', () => {
      // The validator reads the properties an object accepts from the
      // schemaPath of an additionalProperties error; ajv's verbose mode
      // reports them as parentSchema.
      const validator = new InputValidator(COMPILED_VALIDATORS);
      let checked = 0;
      for (const input of inputs) {
        const { error } = outcome(runtime.get(name)!, input);
        if (error?.keyword !== 'additionalProperties') {
          continue;
        }
        checked++;
        const fresh = runtime.get(name)!;
        fresh(copy(input));
        const parent = fresh.errors![0].parentSchema as JSONSchema;
        const known = Object.keys(parent.properties as JSONSchema);
        let message = '';
        try {
          validator.validate(name, input);
        } catch (thrown) {
          message = (thrown as ToolError).message;
        }
        expect(message).toMatch(
          known.length
            ? new RegExp(` accepts only ${known.join(', ')}\\.$`)
            : / takes no arguments\.$/
        );
      }
      expect(checked).toBeGreaterThan(0);
    });
  });
});
