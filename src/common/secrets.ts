/**
 * Values in well-known credential formats, found in text and withheld:
 * each is replaced by a placeholder naming its kind
 * (`[secret withheld: GitHub token]`), so what a tool returns carries no
 * credential to the agent's model provider. Pure: no JupyterLab import.
 *
 * The patterns are this extension's own, written for what notebooks hold
 * (see docs/access.md, "Secrets"). Each kind looks for something only a
 * credential has (a vendor's prefix, a PEM armour line, a name the value is
 * assigned to), so hashes, UUIDs, base64 images and ids pass untouched.
 *
 * Within one text, distinct values of one kind get distinct placeholders
 * (the second is `[secret withheld: GitHub token 2]`) and equal values the
 * same one, so {@link restoreWithheld} can put every value back where an
 * edit kept its placeholder.
 */

/** One kind of credential. */
export interface ISecretKind {
  /** What the placeholder says was withheld. */
  readonly label: string;
  /**
   * Global pattern. With a capture group named `value`, only that group is
   * withheld (a URL's password, an assigned literal); else the whole match.
   */
  readonly pattern: RegExp;
  /** A further check of the value (a name, a placeholder-looking value). */
  readonly accept?: (match: RegExpExecArray) => boolean;
}

/** One value found: where it is in the text and its kind. */
export interface ISecretSpan {
  start: number;
  end: number;
  kind: ISecretKind;
}

/** The words a name ends with when what is assigned to it is a secret. */
const SECRET_NAME =
  /(?:^|_)(?:pass|passwd|password|passphrase|pwd|secret|token|api_?key|access_?key|secret_?key|private_?key|auth_?key|credentials?)$/;

/**
 * Whether a variable or key name holds a secret: its last word is one of
 * {@link SECRET_NAME}'s, in any case style (`db_password`, `apiKey`,
 * `GITHUB_TOKEN`), not a word that only contains one (`tokenizer`,
 * `max_tokens`, `token_count`, `secretary`).
 */
export function isSecretName(name: string): boolean {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase()
    .replace(/\d+$/, '');
  return SECRET_NAME.test(snake);
}

/**
 * Whether an assigned literal looks like a real value rather than a
 * placeholder for one: long enough, not a template (`${X}`, `{{x}}`,
 * `<your key>`), not one character repeated (`****`, `xxxx`), not already
 * withheld.
 */
function isLiteralValue(value: string): boolean {
  if (value.length < 4 || /^[$<{%]|^\[secret withheld/.test(value)) {
    return false;
  }
  return !/^(.)\1*$/.test(value);
}

/** The named group `value` of a match, or the whole match. */
function valueOf(match: RegExpExecArray): string {
  return match.groups?.value ?? match[0];
}

/**
 * The kinds, most specific first: where two kinds find the same value (a
 * GitHub token assigned to `token`), the earlier one names it.
 */
export const SECRET_KINDS: readonly ISecretKind[] = [
  {
    label: 'private key',
    // A PEM block, to its END line or, cut short, to the end of the text.
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----[^]*?(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----|$)/g
  },
  {
    label: 'AWS access key ID',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA)[A-Z2-7]{16}\b/g
  },
  {
    label: 'AWS secret access key',
    // 40 characters of base64 given to a name that says what it is.
    pattern:
      /aws_?secret(?:_?access)?_?key["']?\s*[:=]\s*["']?(?<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi
  },
  {
    label: 'Google API key',
    pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g
  },
  {
    label: 'GitHub token',
    pattern:
      /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b/g
  },
  {
    label: 'GitLab token',
    pattern:
      /\bgl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_.-]+)?/g
  },
  {
    label: 'Slack token',
    pattern:
      /\bxox[abposre]-(?:\d+-)+[A-Za-z0-9-]{8,}|https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g
  },
  {
    label: 'Stripe live key',
    pattern: /\b(?:sk|rk)_live_[A-Za-z0-9]{20,}\b/g
  },
  {
    label: 'Anthropic key',
    pattern: /\bsk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{80,}/g
  },
  {
    label: 'OpenAI key',
    // Project, service-account and admin keys, and the older ones marked by
    // the base64 of "OpenAI" in their middle.
    pattern:
      /\bsk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,})/g
  },
  {
    label: 'Hugging Face token',
    pattern: /\bhf_[A-Za-z]{30,40}\b/g
  },
  {
    label: 'JWT',
    // Header and payload are base64url JSON objects ("eyJ" is `{"`).
    pattern:
      /\beyJ[A-Za-z0-9_-]{8,}={0,2}\.eyJ[A-Za-z0-9_-]{8,}={0,2}\.[A-Za-z0-9_-]{16,}={0,2}/g
  },
  {
    label: 'password in URL',
    // scheme://user:password@host: the password only.
    pattern:
      /\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}:\/\/[^\s:/?#@"'`<>]{1,128}:(?<value>[^\s/?#@"'`<>]{1,256})@/g,
    accept: match => isLiteralValue(valueOf(match))
  },
  {
    label: 'assigned secret',
    // name = "literal", name: 'literal', "name": "literal",
    // os.environ["NAME"] = "literal", and NAME=literal on a line of its own
    // (.env files, %env, shell export).
    pattern:
      /(?<![A-Za-z0-9_-])(?<name>[A-Za-z_][A-Za-z0-9_-]{0,63})["']?\]?[ \t]*(?::=|==?|:)[ \t]*(?:(?<quote>["'`])(?<value>[^"'`\n\\]{1,512})\k<quote>|(?<=^[ \t]*(?:(?:export|set|%env|!export)[ \t]+)?[A-Za-z_][A-Za-z0-9_]*=)(?<value2>[^\s"'`#]{1,512})(?![^\s"'`#]))/gm,
    accept: match => {
      const groups = match.groups ?? {};
      const value = groups.value ?? groups.value2 ?? '';
      return (
        isSecretName(groups.name ?? '') &&
        isLiteralValue(value) &&
        !/\s/.test(value)
      );
    }
  }
];

/**
 * Something every kind needs: a text without any of it holds no secret,
 * and most cells are ruled out by this one linear test.
 */
const MAY_HOLD_SECRET =
  /PRIVATE KEY|AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIza|gh[pousr]_|github_pat_|gl[a-z]{1,5}-|xox[abposre]-|hooks\.slack|_live_|sk-|hf_|eyJ|:\/\/|pass|pwd|secret|token|key|credential/i;

/** Whether a text may hold a secret (a fast test before the full set). */
export function mayHoldSecret(text: string): boolean {
  return MAY_HOLD_SECRET.test(text);
}

/** The span a match withholds: its `value` group, or all of it. */
function spanOf(match: RegExpExecArray): { start: number; end: number } {
  const groups = match.indices?.groups;
  const value = groups?.value ?? groups?.value2;
  if (value) {
    return { start: value[0], end: value[1] };
  }
  return { start: match.index, end: match.index + match[0].length };
}

/**
 * Each kind's pattern with the `d` flag (the indices of its groups), made
 * once: a notebook read asks for every cell.
 */
const WITH_INDICES = SECRET_KINDS.map(
  kind => new RegExp(kind.pattern.source, `${kind.pattern.flags}d`)
);

/**
 * The secrets in a text, in order, none overlapping: where two kinds find
 * overlapping values, the one starting first is kept (at the same start,
 * the earlier kind of {@link SECRET_KINDS}).
 */
export function findSecrets(text: string): ISecretSpan[] {
  if (!mayHoldSecret(text)) {
    return [];
  }
  const found: ISecretSpan[] = [];
  for (const [index, kind] of SECRET_KINDS.entries()) {
    const pattern = WITH_INDICES[index];
    pattern.lastIndex = 0; // shared: findSecrets runs to its end unbroken
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      if (match[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      if (kind.accept && !kind.accept(match)) {
        // Look again inside the match: `a = "x"; token = "y"` starts a
        // first match at `a` that is refused.
        pattern.lastIndex = match.index + 1;
        continue;
      }
      found.push({ ...spanOf(match), kind });
    }
  }
  const order = (a: ISecretSpan, b: ISecretSpan) =>
    a.start - b.start ||
    SECRET_KINDS.indexOf(a.kind) - SECRET_KINDS.indexOf(b.kind);
  found.sort(order);
  const kept: ISecretSpan[] = [];
  for (const span of found) {
    const last = kept[kept.length - 1];
    if (!last || span.start >= last.end) {
      kept.push(span);
    }
  }
  return kept;
}

/** The placeholder of the `n`th distinct value of a kind in one text. */
export function placeholder(label: string, n = 1): string {
  return n === 1
    ? `[secret withheld: ${label}]`
    : `[secret withheld: ${label} ${n}]`;
}

/** A text with its secrets withheld. */
export interface IWithheldText {
  text: string;
  /** How many values were replaced. */
  count: number;
  /** Each placeholder used, with the value it stands for. */
  values: Map<string, string>;
}

/**
 * The placeholder of each span of `text`: numbered per kind in order of
 * first appearance, the same for equal values.
 */
function placeholdersOf(
  text: string,
  spans: readonly ISecretSpan[]
): { names: string[]; values: Map<string, string> } {
  const byValue = new Map<string, string>();
  const perKind = new Map<string, number>();
  const values = new Map<string, string>();
  const names = spans.map(({ start, end, kind }) => {
    const value = text.slice(start, end);
    const key = `${kind.label}\u0000${value}`;
    let name = byValue.get(key);
    if (name === undefined) {
      const n = (perKind.get(kind.label) ?? 0) + 1;
      perKind.set(kind.label, n);
      name = placeholder(kind.label, n);
      byValue.set(key, name);
      values.set(name, value);
    }
    return name;
  });
  return { names, values };
}

/** Replace every secret in a text by its placeholder. */
export function withholdSecrets(text: string): IWithheldText {
  const spans = findSecrets(text);
  if (spans.length === 0) {
    return { text, count: 0, values: new Map() };
  }
  const { names, values } = placeholdersOf(text, spans);
  let out = '';
  let at = 0;
  spans.forEach(({ start, end }, i) => {
    out += text.slice(at, start) + names[i];
    at = end;
  });
  return { text: out + text.slice(at), count: spans.length, values };
}

/** Every placeholder, whatever its label. */
const PLACEHOLDER = /\[secret withheld: [^\]\n]{1,80}\]/g;

/**
 * The source an edit means: `edited` with the placeholders that withholding
 * `original` made put back to the values they stand for, each as many times
 * as the withheld original holds it (in order), so an edit can keep a value
 * where it was but not copy it elsewhere (a second copy stays the
 * placeholder's text). A placeholder the original has no value for stays
 * as written.
 */
export function restoreWithheld(original: string, edited: string): string {
  if (!edited.includes('[secret withheld: ')) {
    return edited;
  }
  const withheld = withholdSecrets(original);
  if (withheld.values.size === 0) {
    return edited;
  }
  const left = new Map<string, number>();
  for (const name of withheld.text.match(PLACEHOLDER) ?? []) {
    left.set(name, (left.get(name) ?? 0) + 1);
  }
  return edited.replace(PLACEHOLDER, name => {
    const value = withheld.values.get(name);
    const times = left.get(name) ?? 0;
    if (value === undefined || times === 0) {
      return name;
    }
    left.set(name, times - 1);
    return value;
  });
}

/**
 * Withhold the secrets of a text held in consecutive parts (a comment
 * anchor's prefix, selected text and suffix): found in the whole, so a
 * value the parts' borders cut is found too. A value's placeholder goes
 * where the value starts, and what of it lies in later parts is dropped.
 * `shown`: the indexes of the parts a result shows, for the count.
 */
export function withholdSecretsInParts(
  parts: readonly string[],
  shown?: readonly number[]
): {
  parts: string[];
  /** How many values lay (at least in part) in the parts `shown` (all). */
  count: number;
} {
  const whole = parts.join('');
  const spans = findSecrets(whole);
  if (spans.length === 0) {
    return { parts: [...parts], count: 0 };
  }
  const { names } = placeholdersOf(whole, spans);
  const out: string[] = [];
  const counted = new Set<number>();
  let offset = 0;
  parts.forEach((part, index) => {
    const from = offset;
    const to = offset + part.length;
    let text = '';
    let at = from;
    spans.forEach(({ start, end }, i) => {
      if (end <= from || start >= to) {
        return;
      }
      text += whole.slice(at, Math.max(start, from));
      if (start >= from) {
        text += names[i];
      }
      at = Math.min(end, to);
      if (!shown || shown.includes(index)) {
        counted.add(i);
      }
    });
    out.push(text + whole.slice(at, to));
    offset = to;
  });
  return { parts: out, count: counted.size };
}
