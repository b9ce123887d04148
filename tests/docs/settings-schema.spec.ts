import { readdirSync, readFileSync } from 'fs';
import * as path from 'path';

import { TOOL_NAMES } from '../../src/webmcp/schemas';

const ROOT = path.resolve(__dirname, '../..');

interface ISchema {
  additionalProperties?: boolean;
  properties: Record<
    string,
    {
      title?: string;
      description?: string;
      items?: { enum?: string[] };
      [key: string]: unknown;
    }
  >;
}

function schema(name: string): ISchema {
  return JSON.parse(
    readFileSync(path.join(ROOT, 'schema', `${name}.json`), 'utf-8')
  ) as ISchema;
}

/** The plugin ids whose activation loads settings (`.load(<plugin>.id)`). */
function pluginsWithSettings(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(file);
      } else if (/\.tsx?$/.test(entry.name)) {
        const text = readFileSync(file, 'utf-8');
        if (/\.load\(\s*[A-Za-z]*[pP]lugin\.id\s*\)/.test(text)) {
          for (const match of text.matchAll(
            /id: '(jupyterlite-webmcp:[^']+)'/g
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

  it('offers exactly the 22 tools to turn off, none by default', () => {
    const disabled = schema('webmcp').properties.disabledTools;
    expect(disabled.items?.enum).toEqual([...TOOL_NAMES]);
    expect(disabled.items?.enum).toHaveLength(22);
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
    for (const name of ['webmcp', 'agent-panel']) {
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
});
