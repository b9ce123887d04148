import {
  findSecrets,
  isSecretName,
  mayHoldSecret,
  placeholder,
  restoreWithheld,
  SECRET_KINDS,
  withholdSecrets,
  withholdSecretsInParts
} from '../../src/common/secrets';
import { NEAR_MISSES, PEM_KEY, SECRET_SAMPLES } from '../fixtures/secrets';

describe('withholdSecrets', () => {
  it.each(SECRET_SAMPLES.map(sample => [sample.label, sample] as const))(
    'withholds a %s',
    (label, sample) => {
      const { text, count } = withholdSecrets(sample.line);
      expect(text).not.toContain(sample.secret);
      expect(text).toContain(placeholder(label));
      expect(count).toBe(1);
    }
  );

  it('has a sample of every kind', () => {
    const sampled = new Set(SECRET_SAMPLES.map(sample => sample.label));
    expect(SECRET_KINDS.map(kind => kind.label).sort()).toEqual(
      [...sampled].sort()
    );
  });

  it.each(NEAR_MISSES.map(miss => [miss.what, miss.line] as const))(
    'leaves %s alone',
    (_what, line) => {
      expect(withholdSecrets(line)).toEqual({
        text: line,
        count: 0,
        values: new Map()
      });
    }
  );

  it('keeps what is around a value: the name, the quotes, the URL', () => {
    expect(withholdSecrets('db_password = "correct-horse-42"').text).toBe(
      'db_password = "[secret withheld: assigned secret]"'
    );
    expect(
      withholdSecrets('postgresql://analyst:Tr0ub4dor-horse@db:5432/x').text
    ).toBe('postgresql://analyst:[secret withheld: password in URL]@db:5432/x');
    expect(withholdSecrets(`key = """\n${PEM_KEY}\n"""`).text).toBe(
      'key = """\n[secret withheld: private key]\n"""'
    );
  });

  it('withholds a private key cut short', () => {
    const cut = PEM_KEY.slice(0, 80);
    expect(withholdSecrets(`x\n${cut}`).text).toBe(
      'x\n[secret withheld: private key]'
    );
  });

  it('names a value once, by the most specific kind', () => {
    const token = SECRET_SAMPLES.find(s => s.label === 'GitHub token')!.secret;
    const { text, count } = withholdSecrets(`GITHUB_TOKEN = "${token}"`);
    expect(text).toBe('GITHUB_TOKEN = "[secret withheld: GitHub token]"');
    expect(count).toBe(1);
  });

  it('numbers distinct values of one kind, and repeats an equal one', () => {
    const source = [
      'a_token = "first-value-1"',
      'b_token = "second-value-2"',
      'c_token = "first-value-1"'
    ].join('\n');
    const { text, count, values } = withholdSecrets(source);
    expect(text).toBe(
      [
        'a_token = "[secret withheld: assigned secret]"',
        'b_token = "[secret withheld: assigned secret 2]"',
        'c_token = "[secret withheld: assigned secret]"'
      ].join('\n')
    );
    expect(count).toBe(3);
    expect([...values.values()]).toEqual(['first-value-1', 'second-value-2']);
  });

  it.each([
    ['password="hunter22"', 'hunter22'],
    ["login(user, password='hunter22')", 'hunter22'],
    ['os.environ["OPENAI_API_KEY"] = "abc123def456"', 'abc123def456'],
    ['  apiKey: "abc123def456",', 'abc123def456'],
    ['export CLIENT_SECRET=abc123def456', 'abc123def456'],
    ['%env HF_TOKEN=abc123def456', 'abc123def456'],
    ["print(r'''\nAPI_SECRET=abc123def456''')", 'abc123def456'],
    ['DB_PASSWORD=abc123def456 python app.py', 'abc123def456'],
    ['if password == "hunter22":', 'hunter22'],
    ['a = 1; token = "abc123def456"', 'abc123def456']
  ])('withholds the literal of %s', (line, secret) => {
    expect(withholdSecrets(line).text).not.toContain(secret);
  });

  it('finds nothing without the pre-check, and spans in order', () => {
    expect(mayHoldSecret('x = 1\nprint(x)')).toBe(false);
    const spans = findSecrets('a AKIAQ7XK2MPL4RZT6WNE b password="xyz123"');
    expect(spans.map(s => s.kind.label)).toEqual([
      'AWS access key ID',
      'assigned secret'
    ]);
  });
});

describe('isSecretName', () => {
  it.each(['password', 'db_password', 'apiKey', 'GITHUB_TOKEN', 'secret_key'])(
    'holds for %s',
    name => expect(isSecretName(name)).toBe(true)
  );
  it.each(['tokenizer', 'max_tokens', 'token_count', 'secretary', 'compass'])(
    'does not for %s',
    name => expect(isSecretName(name)).toBe(false)
  );
});

describe('restoreWithheld', () => {
  const original = 'token = "abc123def456"\nurl = "https://u:pw1234@h/"';

  it('puts back every value whose placeholder an edit kept', () => {
    const seen = withholdSecrets(original).text;
    const edited = seen.replace('url =', 'endpoint =') + '\nprint(token)';
    expect(restoreWithheld(original, edited)).toBe(
      'token = "abc123def456"\nendpoint = "https://u:pw1234@h/"\nprint(token)'
    );
  });

  it('puts a value back as often as the cell held it, never more', () => {
    const source = 'token = "abc123def456"';
    const seen = withholdSecrets(source).text;
    const copied = `${seen}\nsend("${placeholder('assigned secret')}")`;
    expect(restoreWithheld(source, copied)).toBe(
      `${source}\nsend("${placeholder('assigned secret')}")`
    );
    const twice = 'a_token = "abc123def456"\nb_token = "abc123def456"';
    const both = withholdSecrets(twice).text;
    expect(restoreWithheld(twice, both)).toBe(twice);
  });

  it('leaves an edit that dropped a placeholder as written', () => {
    expect(restoreWithheld(original, 'token = "new-value-99"')).toBe(
      'token = "new-value-99"'
    );
  });

  it('leaves a placeholder the original has no value for', () => {
    const edited = 'x = "[secret withheld: GitHub token]"';
    expect(restoreWithheld(original, edited)).toBe(edited);
  });
});

describe('withholdSecretsInParts', () => {
  it('finds a value the parts cut, and places its placeholder once', () => {
    const parts = ['x = 1\ntoken = "abc', '123def', '456"\nprint(x)'];
    const { parts: out, count } = withholdSecretsInParts(parts);
    expect(out.join('')).not.toContain('123def');
    expect(out).toEqual([
      'x = 1\ntoken = "[secret withheld: assigned secret]',
      '',
      '"\nprint(x)'
    ]);
    expect(count).toBe(1);
  });

  it('counts only the values in the parts a result shows', () => {
    const parts = [
      'a_token = "abc123def456"\n',
      'x = 1',
      '\nb_token = "def456abc123"'
    ];
    expect(withholdSecretsInParts(parts).count).toBe(2);
    expect(withholdSecretsInParts(parts, [1]).count).toBe(0);
    expect(withholdSecretsInParts(parts, [2]).count).toBe(1);
  });

  it('leaves parts without secrets as they are', () => {
    expect(withholdSecretsInParts(['a', 'b'])).toEqual({
      parts: ['a', 'b'],
      count: 0
    });
  });
});
