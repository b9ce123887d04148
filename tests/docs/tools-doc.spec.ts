/**
 * docs/tools.md against the code, so the reference cannot drift: the tools it
 * documents are the ones `buildTools` registers, their inputs and defaults are
 * the schemas', their descriptions the catalog's, and every error code it
 * names is one of the closed set. The structure this relies on is described
 * at the end of docs/tools.md ("How this file is checked").
 */
import * as fs from 'fs';
import * as path from 'path';

import { ERROR_CODES } from '../../src/common/errors';
import { LIMITS } from '../../src/limits';
import {
  TOOL_INPUT_SCHEMAS,
  TOOL_NAMES,
  TOOL_SPECS
} from '../../src/webmcp/specs';
import { buildTools } from '../../src/webmcp/tools';
import { type JSONSchema } from '../../src/webmcp/types';

const DOC = path.join(__dirname, '..', '..', 'docs', 'tools.md');

// ---------------------------------------------------------------------------
// Parsing docs/tools.md

interface IHeading {
  level: number;
  text: string;
  line: number;
}

interface IInputRow {
  property: string;
  type: string;
  default: string;
}

interface IToolSection {
  name: string;
  /** The first blockquote, its lines joined by spaces. */
  description: string | null;
  /** null when the section says `Inputs: none.` */
  inputs: IInputRow[] | null;
  saysNoInputs: boolean;
  /** The codes in backticks in the `Errors:` paragraph, or null without one. */
  errors: string[] | null;
  /** The `Errors:` paragraph as one line. */
  errorsText: string;
}

/** Split a markdown table row into its cells, keeping escaped pipes. */
function tableCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map(cell => cell.trim());
}

function isSeparatorRow(line: string): boolean {
  return /^\|[\s|:-]+\|$/.test(line.trim());
}

/** Lines of the file with fenced code blocks blanked, so `#` in code is not a heading. */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map(line => {
    const match = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence === null && match) {
      fence = match[1];
      return '';
    }
    if (fence !== null) {
      if (line.trim().startsWith(fence)) {
        fence = null;
      }
      return '';
    }
    return line;
  });
}

function headings(lines: string[]): IHeading[] {
  const found: IHeading[] = [];
  lines.forEach((line, index) => {
    const match = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (match) {
      found.push({ level: match[1].length, text: match[2], line: index });
    }
  });
  return found;
}

/** A heading that is one tool-like name in backticks, e.g. `jupyter_run_cells`. */
function toolHeadingName(text: string): string | null {
  const match = /^`(jupyter_[a-z_]+)`$/.exec(text);
  return match ? match[1] : null;
}

/** The lines under a heading, up to the next heading of level <= maxLevel. */
function sectionLines(
  lines: string[],
  all: IHeading[],
  heading: IHeading,
  maxLevel: number
): string[] {
  const next = all.find(
    other => other.line > heading.line && other.level <= maxLevel
  );
  return lines.slice(heading.line + 1, next ? next.line : lines.length);
}

/** Paragraphs: runs of non-blank lines. */
function paragraphs(lines: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (current.length) {
        out.push(current);
      }
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length) {
    out.push(current);
  }
  return out;
}

/** A code span that reads like an error code: upper-case words joined by `_`. */
function looksLikeCode(span: string): boolean {
  return /^[A-Z]{2,}(_[A-Z]+)*$/.test(span);
}

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map(match => match[1]);
}

function parseSection(name: string, lines: string[]): IToolSection {
  const blocks = paragraphs(lines);
  const quote = blocks.find(block => block[0].startsWith('>'));
  const description = quote
    ? quote.map(line => line.replace(/^>\s?/, '').trim()).join(' ')
    : null;

  const saysNoInputs = blocks.some(block =>
    /^Inputs:\s*none\.?$/.test(block.join(' ').trim())
  );
  const table = blocks.find(
    block =>
      block[0].trim().startsWith('|') &&
      /^property$/i.test(tableCells(block[0])[0] ?? '')
  );
  let inputs: IInputRow[] | null = null;
  if (table) {
    const header = tableCells(table[0]).map(cell => cell.toLowerCase());
    const typeColumn = header.indexOf('type');
    const defaultColumn = header.indexOf('default');
    expect({ section: name, typeColumn, defaultColumn }).toEqual({
      section: name,
      typeColumn: expect.any(Number),
      defaultColumn: expect.any(Number)
    });
    expect(typeColumn).toBeGreaterThan(0);
    expect(defaultColumn).toBeGreaterThan(0);
    inputs = table
      .slice(1)
      .filter(row => !isSeparatorRow(row))
      .map(row => {
        const cells = tableCells(row);
        const property = /^`([^`]+)`$/.exec(cells[0]);
        if (!property) {
          throw new Error(
            `${name}: the first column of "${row}" is not one name in backticks.`
          );
        }
        return {
          property: property[1],
          type: cells[typeColumn] ?? '',
          default: cells[defaultColumn] ?? ''
        };
      });
  }

  const errorBlock = blocks.find(block => block[0].startsWith('Errors:'));
  const errors = errorBlock
    ? codeSpans(errorBlock.join(' ')).filter(looksLikeCode)
    : null;
  const errorsText = errorBlock ? errorBlock.join(' ').trim() : '';
  return { name, description, inputs, saysNoInputs, errors, errorsText };
}

interface IParsedDoc {
  headings: IHeading[];
  sections: Map<string, IToolSection>;
  /** Every heading that names a tool, duplicates included. */
  toolHeadings: string[];
  /** Codes in the first column of the "Error codes" table. */
  errorTable: string[];
  /** Tool names listed under "Not registered yet". */
  notRegistered: string[];
  text: string;
}

function parseDoc(text: string): IParsedDoc {
  const lines = proseLines(text);
  const all = headings(lines);
  const sections = new Map<string, IToolSection>();
  const toolHeadings: string[] = [];
  for (const heading of all) {
    const name = toolHeadingName(heading.text);
    if (name) {
      toolHeadings.push(name);
      expect({ tool: name, level: heading.level }).toEqual({
        tool: name,
        level: 3
      });
      sections.set(
        name,
        parseSection(name, sectionLines(lines, all, heading, 3))
      );
    }
  }

  const errorHeading = all.find(
    heading => heading.level === 2 && heading.text === 'Error codes'
  );
  const errorTable = errorHeading
    ? sectionLines(lines, all, errorHeading, 2)
        .filter(line => line.trim().startsWith('|'))
        .filter(line => !isSeparatorRow(line))
        .slice(1)
        .map(line => /^`([A-Z_]+)`$/.exec(tableCells(line)[0])?.[1] ?? '?')
    : [];

  const pendingHeading = all.find(
    heading => heading.level === 2 && heading.text === 'Not registered yet'
  );
  const notRegistered = pendingHeading
    ? sectionLines(lines, all, pendingHeading, 2)
        .map(line => /^-\s+`(jupyter_[a-z_]+)`/.exec(line)?.[1])
        .filter((name): name is string => !!name)
    : [];

  return {
    headings: all,
    sections,
    toolHeadings,
    errorTable,
    notRegistered,
    text
  };
}

// ---------------------------------------------------------------------------
// What the code says

// buildTools only wires handlers; none runs here. The shipped extension always
// supplies an output-selection tracker (src/index.ts wires its plugin in), so a
// stand-in one is given, as in tests/webmcp/tools.spec.ts.
const services = { outputSelection: {} } as unknown as Parameters<
  typeof buildTools
>[0];

function registeredTools(): string[] {
  return buildTools(services).map(tool => tool.name);
}

function schemaProperties(name: string): Record<string, JSONSchema> {
  const schema = TOOL_INPUT_SCHEMAS[name as keyof typeof TOOL_INPUT_SCHEMAS];
  return (schema.properties ?? {}) as Record<string, JSONSchema>;
}

function schemaRequired(name: string): string[] {
  const schema = TOOL_INPUT_SCHEMAS[name as keyof typeof TOOL_INPUT_SCHEMAS];
  return (schema.required ?? []) as string[];
}

/**
 * The words a property's documented type must contain: its JSON types
 * (`string[]` for an array of strings) or else each enum value as JSON in
 * backticks,
 * its numeric bounds, and the names of a nested object's properties.
 */
function typeWords(property: JSONSchema): string[] {
  const words: string[] = [];
  // An enum's values stand for its type.
  const types = (
    property.enum ? [] : ([] as unknown[]).concat(property.type ?? [])
  ) as string[];
  for (const type of types) {
    if (type === 'array') {
      const items = (property.items ?? {}) as JSONSchema;
      words.push(`${String(items.type)}[]`);
    } else if (type === 'object') {
      words.push('object');
      words.push(...Object.keys((property.properties ?? {}) as object));
    } else {
      words.push(type);
    }
  }
  for (const value of (property.enum ?? []) as unknown[]) {
    words.push(`\`${JSON.stringify(value)}\``);
  }
  for (const key of ['minimum', 'maximum', 'minItems', 'maxItems'] as const) {
    if (typeof property[key] === 'number') {
      words.push(String(property[key]));
    }
  }
  return words;
}

/**
 * The default a cell states: the JSON value of a leading code span, or
 * undefined when the cell is plain words (a default the handler applies).
 */
function documentedDefault(cell: string): { value: unknown } | undefined {
  const match = /^`([^`]*)`/.exec(cell.trim());
  if (!match) {
    return undefined;
  }
  try {
    return { value: JSON.parse(match[1]) };
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------

const doc = parseDoc(fs.readFileSync(DOC, 'utf-8'));
const registered = registeredTools();

describe('docs/tools.md', () => {
  it('has one section per registered tool, and no other tool heading', () => {
    expect(registered.length).toBeGreaterThan(0);
    expect([...doc.toolHeadings].sort()).toEqual([...registered].sort());
  });

  it('lists exactly the specified tools the code does not register', () => {
    const pending = TOOL_NAMES.filter(name => !registered.includes(name));
    expect([...doc.notRegistered].sort()).toEqual([...pending].sort());
  });

  it('names no unknown tool anywhere', () => {
    const named = new Set(
      [...doc.text.matchAll(/\bjupyter_[a-z_]+\b/g)].map(match => match[0])
    );
    const known = new Set<string>(TOOL_NAMES);
    expect([...named].filter(name => !known.has(name))).toEqual([]);
  });

  it.each(registered)('%s: quotes the catalog description verbatim', name => {
    const section = doc.sections.get(name);
    expect(section?.description).toBe(
      TOOL_SPECS[name as keyof typeof TOOL_SPECS].description
    );
  });

  it.each(registered)(
    '%s: documents exactly the schema properties, types and defaults',
    name => {
      const section = doc.sections.get(name)!;
      const properties = schemaProperties(name);
      const required = schemaRequired(name);
      const keys = Object.keys(properties);
      if (keys.length === 0) {
        expect({ name, saysNoInputs: section.saysNoInputs }).toEqual({
          name,
          saysNoInputs: true
        });
        expect(section.inputs).toBeNull();
        return;
      }
      expect(section.saysNoInputs).toBe(false);
      expect(section.inputs).not.toBeNull();
      const rows = section.inputs!;
      expect(rows.map(row => row.property).sort()).toEqual([...keys].sort());
      for (const row of rows) {
        const property = properties[row.property];
        const where = `${name}.${row.property}`;
        // The type: every JSON type, enum value, bound and nested name.
        for (const word of typeWords(property)) {
          expect({
            where,
            type: row.type,
            has: row.type.includes(word)
          }).toEqual({ where, type: row.type, has: true });
        }
        expect({ where, required: /\(required\)/.test(row.type) }).toEqual({
          where,
          required: required.includes(row.property)
        });
        // The default: the schema's, as JSON; words only when it has none.
        const stated = documentedDefault(row.default);
        if ('default' in property) {
          expect({ where, stated }).toEqual({
            where,
            stated: { value: property.default }
          });
        } else {
          expect({ where, stated }).toEqual({ where, stated: undefined });
        }
      }
    }
  );

  it.each(registered)(
    '%s: has an Errors line naming only codes of the closed set',
    name => {
      const errors = doc.sections.get(name)!.errors;
      expect(errors).not.toBeNull();
      // "Errors: none of its own." is the only way to name no code.
      const block = doc.sections.get(name)!.errorsText;
      if (errors!.length === 0) {
        expect(block).toMatch(/^Errors: none of its own\.$/);
      }
      const closed = new Set<string>(ERROR_CODES);
      expect(errors!.filter(code => !closed.has(code))).toEqual([]);
    }
  );

  it('has an error table listing exactly the closed set of codes', () => {
    expect(doc.errorTable).toEqual([...ERROR_CODES]);
  });

  it('names no error-like code outside the closed set in any tool section', () => {
    // Descriptions are quoted verbatim and may name non-error result codes
    // (PROPOSAL_DENIED), so they are left out.
    const closed = new Set<string>(ERROR_CODES);
    const limits = new Set<string>(Object.keys(LIMITS));
    const lines = proseLines(doc.text);
    for (const heading of doc.headings) {
      const name = toolHeadingName(heading.text);
      if (!name) {
        continue;
      }
      const body = sectionLines(lines, doc.headings, heading, 3)
        .filter(line => !line.startsWith('>'))
        .join('\n');
      const codes = codeSpans(body).filter(
        span => looksLikeCode(span) && !limits.has(span)
      );
      expect({
        name,
        unknown: codes.filter(code => !closed.has(code))
      }).toEqual({ name, unknown: [] });
    }
  });
});
