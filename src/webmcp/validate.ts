/**
 * Validation of tool arguments against the input schemas, with defaults
 * filled in and every failure reported as INVALID_ARGUMENT in plain English.
 *
 * The schemas are compiled at build time (scripts/build-validators.mjs, ajv's
 * standalone code generation) into validators.generated.ts, so the bundle
 * carries the compiled functions and not the ajv compiler.
 */
import { ToolError } from '../common/errors';
import { TOOL_INPUT_SCHEMAS, TOOL_NAMES, type ToolName } from './specs';
import { type JSONSchema } from './types';

/** How much of a caller-supplied name a message may echo. */
const MAX_ECHO_CHARS = 64;

/** A JSON-like value object. */
type JSONObject = Record<string, unknown>;

import type { CompiledValidator, IValidationError } from './types';

export type { CompiledValidator, IValidationError } from './types';

/**
 * Validates arguments against the compiled input schemas: ours, compiled at
 * build time, and those of tools other extensions add (`add`).
 * The caller's arguments are never mutated: defaults go into a deep copy.
 */
export class InputValidator {
  /**
   * @param validators - The compiled schemas of our tools: those generated
   *   at build time (./validators.generated.ts), or a loader of them, called
   *   at the first `ready` (the page loads them with the tools' handlers);
   *   tests pass validators compiled by ajv at run time.
   * @param schemas - The schemas they were compiled from, which the messages
   *   quote (the properties an object accepts).
   */
  constructor(
    validators: OurValidators | (() => Promise<OurValidators>),
    schemas: Readonly<Record<ToolName, JSONSchema>> = TOOL_INPUT_SCHEMAS
  ) {
    const known = typeof validators === 'function' ? null : validators;
    this._load = typeof validators === 'function' ? validators : null;
    for (const name of TOOL_NAMES) {
      this._entries.set(name, {
        validator: known ? known[name] : null,
        schema: schemas[name]
      });
    }
  }

  /**
   * Resolves once the validator of `name` is at hand (at once, but for our
   * tools' before their loader has answered); rejects when the loader fails,
   * which is tried again at the next call.
   */
  async ready(name: string): Promise<void> {
    const load = this._load;
    if (!load || this._entries.get(name)?.validator !== null) {
      return;
    }
    this._loading ??= load().then(
      loaded => {
        for (const tool of TOOL_NAMES) {
          const entry = this._entries.get(tool);
          if (entry && entry.validator === null) {
            entry.validator = loaded[tool];
          }
        }
        this._load = null;
      },
      (reason: unknown) => {
        this._loading = null;
        throw reason;
      }
    );
    await this._loading;
  }

  /** Whether it knows the schema of `name`. */
  has(name: string): boolean {
    return this._entries.has(name);
  }

  /** Knows another tool's schema, until the result is called. */
  add(
    name: string,
    validator: CompiledValidator,
    schema: JSONSchema
  ): () => void {
    const entry = { validator, schema };
    this._entries.set(name, entry);
    return () => {
      if (this._entries.get(name) === entry) {
        this._entries.delete(name);
      }
    };
  }

  /**
   * The validated arguments of a call, defaults filled in. `undefined` and
   * `null` count as `{}`. Throws INVALID_ARGUMENT with `{ field, rule }`.
   */
  validate(name: string, input: unknown): JSONObject {
    const entry = this._entries.get(name);
    if (!entry) {
      throw new Error(`No input schema for tool "${echo(String(name))}".`);
    }
    if (input === undefined || input === null) {
      input = {};
    }
    if (typeof input !== 'object' || Array.isArray(input)) {
      throw new ToolError(
        'INVALID_ARGUMENT',
        `Invalid arguments: must be an object of named arguments, not ${describe(input)}.`,
        { field: '', rule: 'type' }
      );
    }
    const args = copyJSON(input, new WeakSet()) as JSONObject;
    const { validator, schema } = entry;
    if (validator === null) {
      throw new Error(
        `The validator of tool "${echo(String(name))}" is not loaded yet (call ready first).`
      );
    }
    if (!validator(args)) {
      const error = validator.errors?.[0];
      throw error
        ? toToolError(error, schema)
        : new ToolError('INVALID_ARGUMENT', 'Invalid arguments.', {
            field: '',
            rule: 'unknown'
          });
    }
    return args;
  }

  private _load: (() => Promise<OurValidators>) | null;
  private _loading: Promise<void> | null = null;
  private readonly _entries = new Map<
    string,
    { validator: CompiledValidator | null; schema: JSONSchema }
  >();
}

/** The compiled validators of our tools, by name. */
type OurValidators = Readonly<Record<ToolName, CompiledValidator>>;

/**
 * A deep copy of plain objects and arrays. Properties holding `undefined` are
 * left out, as JSON would; a cycle is refused.
 */
function copyJSON(value: unknown, ancestors: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (ancestors.has(value)) {
    throw new ToolError(
      'INVALID_ARGUMENT',
      'Invalid arguments: they contain a cycle, which JSON cannot express.',
      { field: '', rule: 'cycle' }
    );
  }
  ancestors.add(value);
  let copy: unknown;
  if (Array.isArray(value)) {
    copy = value.map(item => copyJSON(item, ancestors));
  } else {
    const target: JSONObject = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) {
        // defineProperty keeps a "__proto__" key an ordinary (unknown) key.
        Object.defineProperty(target, key, {
          value: copyJSON(item, ancestors),
          enumerable: true,
          writable: true,
          configurable: true
        });
      }
    }
    copy = target;
  }
  ancestors.delete(value);
  return copy;
}

/** At most MAX_ECHO_CHARS code points of caller input. */
function echo(text: string): string {
  if (text.length <= MAX_ECHO_CHARS) {
    return text;
  }
  const points = Array.from(text.slice(0, MAX_ECHO_CHARS * 2));
  return points.length <= MAX_ECHO_CHARS
    ? points.join('')
    : points.slice(0, MAX_ECHO_CHARS).join('') + '…';
}

function describe(value: unknown): string {
  if (Array.isArray(value)) {
    return 'an array';
  }
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** `/anchor/selection/start` → `anchor.selection.start`; `/cellIds/2` → `cellIds[2]`. */
function fieldOf(instancePath: string, child?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map(segment => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) {
    segments.push(child);
  }
  let field = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) {
      field += `[${segment}]`;
    } else {
      field += field ? `.${segment}` : segment;
    }
  }
  return field;
}

function quoteList(values: unknown[]): string {
  return values.map(value => JSON.stringify(value)).join(', ');
}

/**
 * The subschema at an ajv schemaPath's parent, e.g. the schema owning
 * `#/properties/anchor/additionalProperties`: what ajv's `verbose` option
 * reports as `parentSchema`, without compiling a copy of it into the code.
 */
function parentSchemaOf(schema: JSONSchema, schemaPath: string): JSONSchema {
  let node: unknown = schema;
  for (const segment of schemaPath.split('/').slice(1, -1)) {
    const key = decodeURIComponent(segment)
      .replace(/~1/g, '/')
      .replace(/~0/g, '~');
    node =
      node && typeof node === 'object'
        ? (node as Record<string, unknown>)[key]
        : undefined;
  }
  return node && typeof node === 'object' ? (node as JSONSchema) : {};
}

/** The first ajv error as INVALID_ARGUMENT, naming the field and the rule. */
function toToolError(error: IValidationError, schema: JSONSchema): ToolError {
  const params = error.params as Record<string, unknown>;
  const rule = error.keyword;
  if (rule === 'required') {
    const field = echo(
      fieldOf(error.instancePath, String(params.missingProperty))
    );
    return new ToolError(
      'INVALID_ARGUMENT',
      `Missing required argument "${field}".`,
      { field, rule }
    );
  }
  if (rule === 'additionalProperties') {
    const field = echo(
      fieldOf(error.instancePath, String(params.additionalProperty))
    );
    const parent = parentSchemaOf(schema, error.schemaPath);
    const known = Object.keys((parent.properties ?? {}) as JSONSchema);
    const owner = error.instancePath
      ? `"${fieldOf(error.instancePath)}"`
      : 'this tool';
    const accepts = known.length
      ? `${owner} accepts only ${known.join(', ')}`
      : `${owner} takes no arguments`;
    return new ToolError(
      'INVALID_ARGUMENT',
      `Unknown argument "${field}": ${accepts}.`,
      { field, rule }
    );
  }
  const field = echo(fieldOf(error.instancePath));
  return new ToolError(
    'INVALID_ARGUMENT',
    `Invalid argument "${field}": ${ruleText(error, params)}.`,
    { field, rule }
  );
}

function ruleText(
  error: IValidationError,
  params: Record<string, unknown>
): string {
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(params.type)
        ? params.type.map(String)
        : String(params.type).split(',');
      return `must be ${types.join(' or ')}`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(params.comparison)} ${String(params.limit)}`;
    case 'enum':
      return `must be one of ${quoteList(params.allowedValues as unknown[])}`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'minItems':
      return params.limit === 1
        ? 'must not be empty'
        : `must have at least ${String(params.limit)} items`;
    case 'minLength':
      return params.limit === 1
        ? 'must not be empty'
        : `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    default:
      return error.message ?? `fails the "${error.keyword}" rule`;
  }
}
