#!/usr/bin/env node
// Compiles the tools' input schemas (src/webmcp/specs.ts) into validation
// code with ajv's standalone mode, so the labextension carries the compiled
// functions and not the ajv compiler (about 35 KB gzipped). Writes
// src/webmcp/validators.generated.ts, which is committed: a fresh clone builds
// without running this, and tests/webmcp/validators-generated.spec.ts fails
// when the file no longer matches the schemas.
//
// Usage: node scripts/build-validators.mjs           write the file if stale
//        node scripts/build-validators.mjs --check   exit 1 if it is stale
//
// The schemas are TypeScript: each .ts module under src/ is transpiled to
// CommonJS in memory (typescript's transpileModule, no type checking) as it
// is required, so neither lib/ nor a previous build is needed.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..');
const target = join(root, 'src', 'webmcp', 'validators.generated.ts');

/**
 * The options InputValidator's contract rests on. `verbose` stays off: the
 * only verbose datum the validator used, the parent schema of an
 * additionalProperties error, it looks up from `schemaPath` instead, so the
 * generated code carries no copy of the schemas.
 */
export const AJV_OPTIONS = Object.freeze({
  strict: true,
  allowUnionTypes: true,
  useDefaults: true,
  allErrors: false
});

/** Loads src/webmcp/specs.ts (and what it imports) through typescript. */
function loadSchemas() {
  const ts = require('typescript');
  const extensions = require.extensions;
  const previous = extensions['.ts'];
  extensions['.ts'] = (module, filename) => {
    const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
      fileName: filename,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true
      }
    });
    module._compile(outputText, filename);
  };
  try {
    return require(join(root, 'src', 'webmcp', 'specs.ts'));
  } finally {
    if (previous) {
      extensions['.ts'] = previous;
    } else {
      delete extensions['.ts'];
    }
  }
}

/**
 * What ajv requires at run time besides the generated code. Only the UTF-16
 * aware string length (minLength/maxLength) is expected; the generated module
 * carries its own copy so it imports nothing. Any other helper is an error
 * here rather than a silent dependency on ajv in the bundle.
 */
const RUNTIME_HELPERS = {
  'ajv/dist/runtime/ucs2length': 'ucs2length'
};

const UCS2LENGTH = `
/** The length of a string in code points (a surrogate pair counts once), as JSON Schema's minLength and maxLength count. */
function ucs2length(text) {
  const units = text.length;
  let length = 0;
  let position = 0;
  while (position < units) {
    length++;
    const unit = text.charCodeAt(position++);
    if (unit >= 0xd800 && unit <= 0xdbff && position < units) {
      const next = text.charCodeAt(position);
      if ((next & 0xfc00) === 0xdc00) {
        position++;
      }
    }
  }
  return length;
}
`;

/** The text of src/webmcp/validators.generated.ts for the current schemas. */
export function generate() {
  const { default: Ajv } = require('ajv');
  const { default: standaloneCode } = require('ajv/dist/standalone');
  const { TOOL_NAMES, TOOL_INPUT_SCHEMAS } = loadSchemas();

  // `messages: false`: ajv's English message strings are left out of the
  // code. InputValidator words every error from its keyword and params; a
  // test compares its messages with those it gives on runtime Ajv, messages
  // on, so a keyword it cannot word fails there.
  const ajv = new Ajv({
    ...AJV_OPTIONS,
    messages: false,
    code: { source: true, esm: true, lines: true }
  });
  const ids = {};
  for (const name of TOOL_NAMES) {
    ajv.addSchema(TOOL_INPUT_SCHEMAS[name], name);
    ids[name] = name;
  }
  let code = standaloneCode(ajv, ids);

  const used = new Set();
  code = code.replace(
    /^const (\w+) = require\("([^"]+)"\)\.default;$/gm,
    (_, local, module) => {
      const helper = RUNTIME_HELPERS[module];
      if (!helper) {
        throw new Error(
          `The generated validators require ${module}; teach scripts/build-validators.mjs to inline it.`
        );
      }
      used.add(helper);
      return `const ${local} = ${helper};`;
    }
  );
  if (/\brequire\(|\bimport\b/.test(code)) {
    throw new Error('The generated validators still import something.');
  }
  code = code.replace(/^"use strict";\n?/, '');

  // ajv inlines a copy of each root schema (its messages quote e.g. an enum
  // from it); point them at TOOL_INPUT_SCHEMAS, in the bundle anyway.
  code = code.replace(
    /^export const (\w+) = (validate\d+);\nconst (schema\d+) = (.*);$/gm,
    (_, name, validate, schema, json) => {
      if (
        JSON.stringify(JSON.parse(json)) !==
        JSON.stringify(TOOL_INPUT_SCHEMAS[name])
      ) {
        throw new Error(`ajv's copy of the ${name} schema differs from it.`);
      }
      return `export const ${name} = ${validate};\nconst ${schema} = TOOL_INPUT_SCHEMAS.${name};`;
    }
  );
  if (/^const schema\d+ = [[{]/m.test(code)) {
    throw new Error(
      'The generated validators inline a schema they should import.'
    );
  }

  const entries = TOOL_NAMES.map(name => `  ${name},`).join('\n');
  return `/* eslint-disable */
// @ts-nocheck
// Generated by scripts/build-validators.mjs from src/webmcp/specs.ts with
// ajv's standalone code generation: do not edit; run
// \`node scripts/build-validators.mjs\` (npm run build:validators) instead.
import { type CompiledValidator } from './types';
import { TOOL_INPUT_SCHEMAS, type ToolName } from './specs';
${used.has('ucs2length') ? UCS2LENGTH : ''}
${code.trim()}

/** The compiled input validator of every tool. */
export const COMPILED_VALIDATORS: Readonly<Record<ToolName, CompiledValidator>> = {
${entries}
};
`;
}

const isMain =
  process.argv[1] &&
  import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const text = generate();
  let current = null;
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // Not generated yet.
  }
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(
        'src/webmcp/validators.generated.ts is stale: run node scripts/build-validators.mjs.'
      );
      process.exit(1);
    }
  } else if (current !== text) {
    writeFileSync(target, text);
    console.log('Wrote src/webmcp/validators.generated.ts');
  }
}
