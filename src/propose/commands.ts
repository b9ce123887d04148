/**
 * The human's commands of Propose mode: toggle the current notebook's mode,
 * or set it. No tool reaches them (tools call the semantic layer, never
 * commands). With no notebook current they are disabled.
 */
import type { CommandRegistry } from '@lumino/commands';
import type { IDisposable } from '@lumino/disposable';
import { DisposableSet } from '@lumino/disposable';
import type { TranslationBundle } from '@jupyterlab/translation';

import type { IProposals } from '../tokens';
import { isProposeMode } from './notebook-mode';

/** The ids of Propose mode's commands. */
export namespace CommandIDs {
  /** Switch between Direct and Propose mode. */
  export const toggleProposeMode = 'jupyterlite-webmcp:toggle-propose-mode';
  /** Set the mode: `{mode: 'direct' | 'propose'}`. */
  export const setProposeMode = 'jupyterlite-webmcp:set-propose-mode';
}

/** Add the two commands; disposing the result removes them. */
export function addProposeCommands(
  commands: CommandRegistry,
  proposals: IProposals,
  trans: TranslationBundle
): IDisposable {
  const set = new DisposableSet();
  const changed = () => {
    commands.notifyCommandChanged(CommandIDs.toggleProposeMode);
    commands.notifyCommandChanged(CommandIDs.setProposeMode);
  };
  proposals.modeChanged.connect(changed);
  set.add({
    isDisposed: false,
    dispose() {
      proposals.modeChanged.disconnect(changed);
    }
  });
  set.add(
    commands.addCommand(CommandIDs.toggleProposeMode, {
      label: trans.__('Propose Mode for Agent Edits'),
      caption: trans.__(
        "For this notebook: on, the agent's cell edits wait for your Accept or Deny; off (Direct), they apply at once."
      ),
      isToggled: () => proposals.mode === 'propose',
      isEnabled: () => proposals.hasNotebook,
      describedBy: { args: { type: 'object', properties: {} } },
      execute: () => {
        proposals.setMode(proposals.mode === 'propose' ? 'direct' : 'propose');
      }
    })
  );
  set.add(
    commands.addCommand(CommandIDs.setProposeMode, {
      label: args =>
        args.mode === 'direct'
          ? trans.__('Switch Agent Edits to Direct Mode')
          : args.mode === 'propose'
            ? trans.__('Switch Agent Edits to Propose Mode')
            : trans.__('Set the Mode of Agent Edits'),
      caption: args =>
        args.mode === 'direct'
          ? trans.__("The agent's cell edits apply at once.")
          : trans.__("The agent's cell edits wait for your Accept or Deny."),
      isToggled: args => args.mode === proposals.mode,
      isEnabled: () => proposals.hasNotebook,
      describedBy: {
        args: {
          type: 'object',
          properties: {
            mode: {
              type: 'string',
              enum: ['direct', 'propose'],
              description: trans.__(
                'direct: agent edits apply at once; propose: they wait for review.'
              )
            }
          },
          required: ['mode']
        }
      },
      execute: args => {
        if (!isProposeMode(args.mode)) {
          throw new Error(
            `set-propose-mode needs {mode: 'direct' | 'propose'}, not ${JSON.stringify(args.mode)}`
          );
        }
        proposals.setMode(args.mode);
      }
    })
  );
  return set;
}
