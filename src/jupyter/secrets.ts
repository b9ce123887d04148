/**
 * Withholding secrets from what a tool call returns (docs/access.md,
 * "Secrets"): the filter every text a result carries from a notebook's cells
 * and outputs goes through, decided once per notebook and call, each value
 * withheld counted on the call for the Activity section.
 */
import type { ISharedNotebook } from '@jupyter/ydoc';

import { withholdSecrets, withholdSecretsInParts } from '../common/secrets';
import { WITHHOLD_SECRETS_DEFAULT } from '../access/secrets';
import { type ICallTrace } from './call';

/** What a result shows of a text: the text, or it with secrets withheld. */
export type TextFilter = (text: string) => string;

/** The filter that shows every text as it is. */
export const SHOW_TEXT: TextFilter = text => text;

/** Where a notebook's switch is decided (the resolver, with the setting). */
export interface ISecretsPolicy {
  /** Absent: the default (on), as for a notebook and setting that say nothing. */
  withholdsSecrets?(model: ISharedNotebook): boolean;
}

/** Whether the texts of `model` are withheld under `policy`. */
function withholds(policy: ISecretsPolicy, model: ISharedNotebook): boolean {
  return policy.withholdsSecrets?.(model) ?? WITHHOLD_SECRETS_DEFAULT;
}

/**
 * The filter of the texts a call returns from `model`: secrets withheld
 * when the notebook's switch (else the setting) says so, each one counted
 * on the call.
 */
export function secretFilter(
  policy: ISecretsPolicy,
  model: ISharedNotebook,
  call: ICallTrace
): TextFilter {
  if (!withholds(policy, model)) {
    return SHOW_TEXT;
  }
  return text => {
    const withheld = withholdSecrets(text);
    if (withheld.count > 0) {
      call.reportWithheld?.(withheld.count);
    }
    return withheld.text;
  };
}

/**
 * What a result shows of a text held in consecutive parts; `shown`, the
 * parts it returns (all when absent), is what the count is of.
 */
export type PartsFilter = (
  parts: readonly string[],
  shown?: readonly number[]
) => string[];

/** The filter that shows every part as it is. */
export const SHOW_PARTS: PartsFilter = parts => [...parts];

/**
 * {@link secretFilter} for a text held in parts (a comment anchor's prefix,
 * selected text and suffix): a value across two parts is withheld too.
 */
export function secretPartsFilter(
  policy: ISecretsPolicy,
  model: ISharedNotebook,
  call: ICallTrace
): PartsFilter {
  if (!withholds(policy, model)) {
    return SHOW_PARTS;
  }
  return (parts, shown) => {
    const withheld = withholdSecretsInParts(parts, shown);
    if (withheld.count > 0) {
      call.reportWithheld?.(withheld.count);
    }
    return withheld.parts;
  };
}
