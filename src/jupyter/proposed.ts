/**
 * What the tools share when Propose mode reviews their action: the early
 * ABORTED of a call whose signal fired before it started, and the answer
 * each way a proposal can end without being applied. A tool runs every
 * check it makes before acting first, then stages its proposal, so a doomed
 * call fails at once and the human never sees it.
 */
import { ToolError } from '../common/errors';
import { noActiveNotebookError, notebookNotFoundError } from '../access/policy';
import { type ProposalKind, type ProposalOutcome } from '../propose/store';
import { type IProposals } from '../tokens';
import { type NotebookResolver } from './notebook';

/**
 * A call whose signal fired before it started answers ABORTED before any
 * other check when the notebook reviews its kind (there the call honours its
 * signal). The mode is read from the notebook without opening it; a
 * notebook the agent may not see answers as before.
 */
export async function abortedIfReviewed(
  resolver: NotebookResolver,
  notebookPath: string | null | undefined,
  proposals: IProposals,
  kind: ProposalKind
): Promise<void> {
  const notebook = await resolver.resolveNotebook(notebookPath, {
    intent: 'read'
  });
  try {
    if (proposals.reviews(notebook.model, kind)) {
      throw new ToolError(
        'ABORTED',
        'The call was aborted before it started; nothing was proposed.'
      );
    }
  } finally {
    notebook.release();
  }
}

/**
 * The answer of a proposal that ended without being accepted or denied:
 * stale (the re-check on Accept refused it), hidden (the owner hid the
 * notebook: answered exactly as for a hidden notebook) or withdrawn (the
 * call's signal fired).
 */
export function notApplied(
  outcome: Extract<ProposalOutcome, { kind: 'stale' | 'hidden' | 'withdrawn' }>,
  notebook: { path: string },
  addressedByPath: boolean
): unknown {
  switch (outcome.kind) {
    case 'stale':
      return outcome.error;
    case 'hidden':
      return addressedByPath
        ? notebookNotFoundError(notebook.path)
        : noActiveNotebookError();
    case 'withdrawn':
      return new ToolError(
        'ABORTED',
        'The call was aborted before the human decided; the proposal was withdrawn.',
        { proposalId: outcome.proposal.id }
      );
  }
}

/**
 * The answer of a proposal the human (or the app, for them) denied: a normal
 * result, not an error, the same for every kind, with what names the kind's
 * target (`cellId`, `cellIds` or `action`).
 */
export function deniedResult<T extends object>(
  outcome: { proposal: { id: string }; reason: string | null },
  target: T
): { status: 'denied'; code: 'PROPOSAL_DENIED'; proposalId: string } & T & {
    reason: string | null;
  } {
  return {
    status: 'denied',
    code: 'PROPOSAL_DENIED',
    proposalId: outcome.proposal.id,
    ...target,
    reason: outcome.reason
  };
}
