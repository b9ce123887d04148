/**
 * Review anchors in words, for the human: where a thread points ("Cell 3,
 * lines 2–4") and how its anchor stands now ("The commented text moved; it
 * was found again"). Shared by the Comments tab, the cell badges and the
 * new-comment dialog; every string goes through the translator.
 */
import { type TranslationBundle } from '@jupyterlab/translation';

import { LIMITS } from '../limits';
import { type IAnchorStatus } from './anchors';
import { commentBodyOverflow, type IThreadAnchor } from './format';

/** The short name of an anchor's state, for a label. */
export type AnchorStateName =
  'in-place' | 'moved' | 'text-gone' | 'cell-deleted' | 'output-changed';

/** The state an anchor's words describe. */
export function anchorStateName(status: IAnchorStatus): AnchorStateName {
  if (status.state === 'cell-missing') {
    return 'cell-deleted';
  }
  if (status.kind === 'output' && status.outputChanged) {
    return 'output-changed';
  }
  if (status.state === 'reanchored') {
    return 'moved';
  }
  if (status.state === 'orphaned') {
    return 'text-gone';
  }
  return 'in-place';
}

/** Where a thread points, from its anchor and where the anchor stands now. */
export function anchorPlace(
  anchor: IThreadAnchor,
  status: IAnchorStatus,
  trans: TranslationBundle
): string {
  if (status.cellIndex === null) {
    return trans.__('A deleted cell');
  }
  const cell = status.cellIndex + 1;
  if (anchor.kind === 'output') {
    return trans.__('Cell %1, output %2', cell, (status.outputIndex ?? 0) + 1);
  }
  if (anchor.kind === 'source-range') {
    const range = status.range ?? anchor.sourceRange;
    if (range) {
      const first = range.start.line + 1;
      // a range ending at column 0 ends with the line before it
      const last =
        range.end.column === 0 && range.end.line > range.start.line
          ? range.end.line
          : range.end.line + 1;
      return first === last
        ? trans.__('Cell %1, line %2', cell, first)
        : trans.__('Cell %1, lines %2–%3', cell, first, last);
    }
    return trans.__('Cell %1, selected text', cell);
  }
  return trans.__('Cell %1', cell);
}

/** A short label of an anchor's state. */
export function anchorStateLabel(
  name: AnchorStateName,
  trans: TranslationBundle
): string {
  switch (name) {
    case 'cell-deleted':
      return trans.__('cell deleted');
    case 'output-changed':
      return trans.__('output changed');
    case 'moved':
      return trans.__('moved');
    case 'text-gone':
      return trans.__('text gone');
    default:
      return trans.__('in place');
  }
}

/** A sentence saying how an anchor stands now. */
export function anchorStateSentence(
  anchor: IThreadAnchor,
  status: IAnchorStatus,
  trans: TranslationBundle
): string {
  switch (anchorStateName(status)) {
    case 'cell-deleted':
      return trans.__('The cell this thread is about was deleted.');
    case 'output-changed':
      return trans.__(
        'The output this thread is about changed or is gone since the comment.'
      );
    case 'moved':
      return trans.__('The commented text moved; it was found again.');
    case 'text-gone':
      return trans.__(
        'The commented text is no longer in the cell (or is there more than once).'
      );
    default:
      if (anchor.kind === 'source-range') {
        return trans.__('The commented text is where it was.');
      }
      if (anchor.kind === 'output') {
        return trans.__('The output is as it was when commented on.');
      }
      return trans.__('About the whole cell.');
  }
}

/** The words for who wrote a message: a person or the agent. */
export function authorKindLabel(
  kind: 'human' | 'agent',
  trans: TranslationBundle
): string {
  return kind === 'agent' ? trans.__('Agent') : trans.__('Person');
}

/**
 * Why a message a person wrote cannot be stored as it is, or null: blank,
 * or over the bound the agent's messages have too (MAX_COMMENT_BODY_BYTES
 * of UTF-8).
 */
export function messageProblem(
  body: string,
  trans: TranslationBundle
): string | null {
  if (body.trim() === '') {
    return trans.__('Write a message first.');
  }
  const bytes = commentBodyOverflow(body);
  if (bytes !== null) {
    return trans.__(
      'The message is %1 bytes of UTF-8; at most %2 are allowed.',
      bytes,
      LIMITS.MAX_COMMENT_BODY_BYTES
    );
  }
  return null;
}
