/**
 * Text an agent wrote or a notebook holds, in the Agent panel's React views:
 * each bidirectional control, invisible and tag character drawn as a mark
 * naming its code point (the same marks as ../common/reveal-dom.ts draws in
 * the notebook's blocks), and the warning a row or thread shows at its top.
 */
import { type TranslationBundle } from '@jupyterlab/translation';
import * as React from 'react';

import { markText, splitInvisibles } from '../common/invisible';
import {
  invisibleWarningText,
  MARK_CLASS,
  WARNING_CLASS
} from '../common/reveal-dom';

/** The text, with every such character marked. */
export function Revealed(props: { text: string }): React.ReactElement {
  return (
    <>
      {splitInvisibles(props.text).map((piece, index) =>
        typeof piece === 'string' ? (
          <React.Fragment key={index}>{piece}</React.Fragment>
        ) : (
          <span
            key={index}
            className={`${MARK_CLASS} jp-mod-${piece.kind}`}
            data-code-point={piece.label}
            title={`${piece.label} ${piece.name}`}
          >
            {markText(piece)}
          </span>
        )
      )}
    </>
  );
}

/** The warning of a row or thread holding `count` such characters. */
export function InvisibleWarning(props: {
  count: number;
  trans: TranslationBundle;
}): React.ReactElement | null {
  if (props.count <= 0) {
    return null;
  }
  return (
    <p className={WARNING_CLASS} role="note">
      {invisibleWarningText(props.count, props.trans)}
    </p>
  );
}
