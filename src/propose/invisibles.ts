/**
 * How many invisible or direction-changing characters a proposal puts in
 * front of the owner (../common/invisible.ts): what its block and its row in
 * the Proposals section warn of, folded parts included. Counted once per
 * proposal (the Proposals section renders its rows again on every change),
 * and without a diff when neither source holds any such character.
 */
import { countInvisibles, hasInvisibles } from '../common/invisible';
import { sourceDiff } from './diff';
import { type IProposal } from './store';

const counted = new WeakMap<IProposal, number>();

export function proposalInvisibles(proposal: IProposal): number {
  let count = counted.get(proposal);
  if (count === undefined) {
    count = countOf(proposal);
    counted.set(proposal, count);
  }
  return count;
}

function countOf(proposal: IProposal): number {
  switch (proposal.kind) {
    case 'update': {
      if (
        !hasInvisibles(proposal.original) &&
        !hasInvisibles(proposal.proposed)
      ) {
        return 0;
      }
      // every line of the diff but the removed ones is a line of the
      // proposed source, unchanged lines folded away included
      let removed = 0;
      for (const row of sourceDiff(proposal.original, proposal.proposed).rows) {
        if (row.kind === 'delete') {
          removed += countInvisibles(row.text);
        }
      }
      return countInvisibles(proposal.proposed) + removed;
    }
    case 'insert':
      return countInvisibles(proposal.proposed);
    case 'delete':
      return countInvisibles(proposal.original);
    case 'run':
      return proposal.cells.reduce(
        (sum, cell) => sum + countInvisibles(cell.source),
        0
      );
    default:
      return 0;
  }
}
