import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';

import { TOOL_NAMES, type ToolName, TOOL_SPECS } from '../../src/webmcp/specs';

const ROOT = path.resolve(__dirname, '../..');

interface ISchema {
  additionalProperties?: boolean;
  properties: Record<
    string,
    {
      title?: string;
      description?: string;
      items?: { oneOf?: { const?: string; title: string; pattern?: string }[] };
      [key: string]: unknown;
    }
  >;
}

function schema(name: string): ISchema {
  return JSON.parse(
    readFileSync(path.join(ROOT, 'schema', `${name}.json`), 'utf-8')
  ) as ISchema;
}

/**
 * The plugin ids named in source files that read settings (a `.load(` of
 * anything but the translation domain).
 */
function pluginsWithSettings(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(file);
      } else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(file, 'utf-8');
        if (/\.load\(\s*(?!'jupyterlite-webmcp')[A-Za-z_.]+\s*\)/.test(text)) {
          for (const match of text.matchAll(
            /'(jupyterlite-webmcp:[a-z-]+)'/g
          )) {
            found.push(match[1]);
          }
        }
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  return found;
}

describe('settings schemas', () => {
  it('belong to plugins that read them (a schema file is named after its plugin)', () => {
    const files = readdirSync(path.join(ROOT, 'schema'))
      .filter(name => name.endsWith('.json'))
      .map(name => `jupyterlite-webmcp:${name.replace(/\.json$/, '')}`)
      .sort();
    const loaders = pluginsWithSettings();
    for (const file of files) {
      expect({ file, loaded: loaders.includes(file) }).toEqual({
        file,
        loaded: true
      });
    }
  });

  it("offers our tools to turn off, and other extensions' by name; none by default", () => {
    const disabled = schema('webmcp').properties.disabledTools;
    const all = disabled.items?.oneOf ?? [];
    const choices = all.filter(choice => choice.const !== undefined);
    expect(choices.map(choice => choice.const)).toEqual([...TOOL_NAMES]);
    // one more choice: a name outside ours, as another extension's tool has
    const others = all.filter(choice => choice.const === undefined);
    expect(others).toHaveLength(1);
    const pattern = new RegExp(others[0].pattern ?? '$^');
    expect(pattern.test('example_word_count')).toBe(true);
    expect(TOOL_NAMES.some(name => pattern.test(name))).toBe(false);
    for (const choice of choices) {
      // labelled with the tool's own title
      expect(choice.title).toBe(
        `${choice.const}: ${TOOL_SPECS[choice.const as ToolName].title}`
      );
    }
    expect(disabled.default).toEqual([]);
    expect(disabled.uniqueItems).toBe(true);
  });

  it('bounds the Activity history', () => {
    const size = schema('agent-panel').properties.activityHistorySize;
    expect(size).toMatchObject({
      type: 'integer',
      minimum: 1,
      default: 100
    });
  });

  it('says what each setting does, and refuses unknown keys', () => {
    const names = readdirSync(path.join(ROOT, 'schema'))
      .filter(name => name.endsWith('.json'))
      .map(name => name.replace(/\.json$/, ''));
    expect(names.sort()).toEqual([
      'access',
      'agent-panel',
      'propose',
      'relay',
      'webmcp'
    ]);
    for (const name of names) {
      const value = schema(name);
      expect(value.additionalProperties).toBe(false);
      for (const [key, property] of Object.entries(value.properties)) {
        expect({
          key,
          title: !!property.title,
          description: !!property.description
        }).toEqual({
          key,
          title: true,
          description: true
        });
      }
    }
  });

  it('withholds secrets by default', () => {
    const setting = schema('access').properties.withholdSecrets;
    expect(setting.type).toBe('boolean');
    expect(setting.default).toBe(true);
  });
});
