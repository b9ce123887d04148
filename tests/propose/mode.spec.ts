/**
 * Each notebook's Propose mode: stored beside its access, read as the
 * setting's mode when absent, switched by the human on the current notebook
 * only, and shared with every browser of the notebook through its Yjs
 * document.
 */
import { type ISharedNotebook, YNotebook } from '@jupyter/ydoc';
import { Signal } from '@lumino/signaling';
import * as Y from 'yjs';

import {
  ACCESS_METADATA_KEY,
  readNotebookAccess
} from '../../src/access/model';
import {
  readNotebookMode,
  setNotebookMode,
  withNotebookMode
} from '../../src/propose/notebook-mode';
import { ProposalService } from '../../src/propose/service';
import type { ProposeMode } from '../../src/tokens';
import { silenceKnownWarnings } from '../quiet';

silenceKnownWarnings();

describe('the stored mode', () => {
  it('is absent until the human switches, and unknown values read as absent', () => {
    expect(readNotebookMode(undefined)).toBeNull();
    expect(readNotebookMode({ version: 1, notebookAccess: 'read' })).toBeNull();
    expect(readNotebookMode({ version: 1, proposeMode: 'maybe' })).toBeNull();
    expect(readNotebookMode('garbage')).toBeNull();
    expect(readNotebookMode({ version: 1, proposeMode: 'propose' })).toBe(
      'propose'
    );
  });

  it('keeps what else the notebook stores there, and never widens access', () => {
    expect(
      withNotebookMode(
        { version: 1, notebookAccess: 'read', other: 1 },
        'direct'
      )
    ).toEqual({
      version: 1,
      notebookAccess: 'read',
      other: 1,
      proposeMode: 'direct'
    });
    expect(withNotebookMode(undefined, 'propose')).toEqual({
      version: 1,
      proposeMode: 'propose'
    });
    // a malformed value hides the notebook; switching the mode keeps it hidden
    const rewritten = withNotebookMode(['not', 'an', 'object'], 'propose');
    expect(readNotebookAccess(rewritten).access).toBe('none');
    expect(readNotebookMode(rewritten)).toBe('propose');
  });
});

describe('ProposalService modes', () => {
  const models: YNotebook[] = [];
  const services: ProposalService[] = [];
  const notebook = () => {
    const model = YNotebook.create();
    models.push(model);
    return model;
  };
  /** A service whose current notebook the test sets. */
  const serviceOn = (mode: ProposeMode = 'direct') => {
    const changed = new Signal<object, unknown>({});
    let current: ISharedNotebook | null = null;
    const service = new ProposalService({
      mode,
      notebooks: { current: () => current, currentChanged: changed }
    });
    services.push(service);
    const seen: ProposeMode[] = [];
    service.modeChanged.connect((_, m) => seen.push(m));
    return {
      service,
      seen,
      show(model: ISharedNotebook | null) {
        current = model;
        changed.emit(model);
      }
    };
  };

  afterEach(() => {
    services.splice(0).forEach(s => s.dispose());
    models.splice(0).forEach(m => m.dispose());
  });

  it("follows the current notebook's own mode, the setting's where it stores none", () => {
    const { service, seen, show } = serviceOn('direct');
    const a = notebook();
    const b = notebook();
    expect(service.hasNotebook).toBe(false);
    expect(service.setMode('propose')).toBe(false);
    expect(service.mode).toBe('direct');

    show(a);
    expect(service.setMode('propose')).toBe(true);
    expect(service.mode).toBe('propose');
    expect(readNotebookMode(a.getMetadata(ACCESS_METADATA_KEY))).toBe(
      'propose'
    );
    // another notebook keeps its own (here: the setting's) mode
    show(b);
    expect(service.mode).toBe('direct');
    expect(service.modeOf(a)).toBe('propose');
    expect(b.getMetadata(ACCESS_METADATA_KEY)).toBeUndefined();
    show(a);
    // each notebook made current is announced (the switch may now act)
    expect(seen).toEqual(['direct', 'propose', 'direct', 'propose']);

    // the setting moves notebooks that store none, not those that do
    service.setDefaultMode('propose');
    expect(service.modeOf(b)).toBe('propose');
    expect(service.modeOf(a)).toBe('propose');
    service.setMode('direct');
    service.setDefaultMode('propose');
    expect(service.modeOf(a)).toBe('direct');
  });

  it('is one value for every browser of the notebook', () => {
    const a = notebook();
    // the second browser's copy starts from the first's document
    const b = new YNotebook();
    models.push(b);
    Y.applyUpdate(b.ydoc, Y.encodeStateAsUpdate(a.ydoc));
    a.setMetadata(ACCESS_METADATA_KEY, { version: 1, notebookAccess: 'read' });
    const first = serviceOn();
    const second = serviceOn();
    first.show(a);
    second.show(b);
    const sync = (from: YNotebook, to: YNotebook) =>
      Y.applyUpdate(
        to.ydoc,
        Y.encodeStateAsUpdate(from.ydoc, Y.encodeStateVector(to.ydoc))
      );
    sync(a, b);

    first.service.setMode('propose');
    sync(a, b);
    // the other browser's switch and its agent's edits follow at once
    expect(second.service.mode).toBe('propose');
    expect(second.service.modeOf(b)).toBe('propose');
    expect(second.seen).toEqual(['direct', 'propose']);
    // and the notebook's access, written beside it, is untouched
    expect(readNotebookAccess(b.getMetadata(ACCESS_METADATA_KEY)).access).toBe(
      'read'
    );

    second.service.setMode('direct');
    sync(b, a);
    expect(first.service.mode).toBe('direct');
    expect(first.seen).toEqual(['direct', 'propose', 'direct']);
  });

  it('writes nothing when the notebook is already in that mode', () => {
    const model = notebook();
    setNotebookMode(model, 'propose');
    let updates = 0;
    model.ydoc.on('update', () => updates++);
    expect(setNotebookMode(model, 'propose')).toBe(false);
    expect(updates).toBe(0);
    expect(setNotebookMode(model, 'direct')).toBe(true);
    expect(updates).toBe(1);
  });
});
