/**
 * One step of a shared model's undo history. Pure: the model is reached
 * through the one method of Yjs' undo manager this needs.
 */

/** What a YNotebook or a shared cell exposes of its Yjs undo manager. */
interface IUndoable {
  undoManager?: { stopCapturing(): void } | null;
}

/**
 * Run `write` as an undo step of its own in `model`'s history: whatever was
 * typed just before is closed off, and nothing done just after merges into
 * it. A model without an undo manager just runs `write`.
 */
export function asOwnUndoStep(model: object | null, write: () => void): void {
  const undo = (model as IUndoable | null)?.undoManager;
  undo?.stopCapturing();
  try {
    write();
  } finally {
    undo?.stopCapturing();
  }
}
