/**
 * Validators for the tools other extensions add, compiled when added.
 *
 * Our own tools' validators are generated at build time; another
 * extension's schema is only known at run time, so it needs a JSON Schema
 * compiler in the page. Bundling ajv's would add about 35 KB (gzipped) to
 * every page; JupyterLab already carries ajv behind the settings registry,
 * and `DefaultSchemaValidator` of `@jupyterlab/settingregistry` (a shared
 * package, so not in our bundle) is its public face. It validates a plugin's
 * settings: here a tool's arguments are those settings, its input schema
 * their schema. Like our generated validators it reports the first error
 * (ajv's default) and fills defaults in.
 */
import {
  DefaultSchemaValidator,
  type ISchemaValidator,
  type ISettingRegistry
} from '@jupyterlab/settingregistry';

import {
  type CompiledValidator,
  type IValidationError,
  type JSONSchema
} from './types';

let shared: DefaultSchemaValidator | null = null;
let added = 0;

/**
 * A validator of `schema` with the same contract as a generated one:
 * returns whether `data` is valid, fills defaults into `data`, leaves the
 * first error in `errors`.
 */
export function compileToolSchema(
  name: string,
  schema: JSONSchema
): CompiledValidator {
  shared ??= new DefaultSchemaValidator();
  const validator = shared;
  // a key of its own: a tool added again may come with another schema
  const id = `jupyterlite-webmcp-tool:${name}#${++added}`;
  const validate: CompiledValidator = (data: unknown): boolean => {
    const plugin = {
      id,
      schema: schema as ISettingRegistry.ISchema,
      raw: JSON.stringify(data),
      data: { composite: {}, user: {} },
      version: ''
    } as ISettingRegistry.IPlugin;
    const errors = validator.validateData(plugin, true);
    if (errors && errors.length > 0) {
      validate.errors = errors.map(toValidationError);
      return false;
    }
    validate.errors = null;
    if (data && typeof data === 'object') {
      Object.assign(data, plugin.data.composite);
    }
    return true;
  };
  return validate;
}

function toValidationError(error: ISchemaValidator.IError): IValidationError {
  return {
    keyword: Array.isArray(error.keyword)
      ? error.keyword.join(',')
      : error.keyword,
    instancePath: error.instancePath ?? '',
    schemaPath: error.schemaPath,
    params: (error.params as Record<string, unknown> | undefined) ?? {},
    message: error.message
  };
}
