/**
 * The tokens this extension's features share with each other, and the
 * interfaces behind them; with the public API (./api.ts, re-exported here),
 * what the features depend on of each other. Each implementation lives in
 * its feature folder. Not part of the public API: another extension imports
 * only what ./api.ts declares.
 */
import type { ISharedCell, ISharedNotebook } from '@jupyter/ydoc';
import type { DocumentRegistry } from '@jupyterlab/docregistry';
import type { INotebookModel, NotebookPanel } from '@jupyterlab/notebook';
import { Token } from '@lumino/coreutils';
import { type ISignal } from '@lumino/signaling';

import {
  type AgentAccess,
  type IAccessReading,
  type IAnnouncedAccess
} from './access/model';
// The review store's types are declared with the stored format, in
// review/format, which imports nothing of the app.
import type {
  ICreateThreadOptions,
  IMessageAuthor,
  IMessageOptions,
  IReviewCounts,
  IReviewThread,
  ThreadStatus
} from './review/format';
import {
  type IProposal,
  type IRunTarget,
  type ProposalKind,
  type ProposalOutcome
} from './propose/store';
import { type IOutputSelectionRecord } from './selection/visible';

export * from './api';

/** What a change of cell access did. */
export interface ICellAccessChange {
  /** The access the cells were given. */
  access: AgentAccess;
  /** How many cells' metadata was written. */
  changed: number;
}

/** What a change of notebook access did. */
export interface INotebookAccessChange {
  path: string;
  previous: IAccessReading;
  access: AgentAccess;
  changed: boolean;
  /**
   * Where it was written: the live model of a notebook open in this app, the
   * live model of one open in another tab of this browser, or the file.
   */
  where: 'live' | 'tab' | 'file';
  /** For `tab`: whether that tab saves it (false: it has unsaved edits). */
  saved?: boolean;
}

/**
 * The owner's agent access, as a service: read and write it per cell and
 * per notebook, find a notebook's open panel (one rule for every caller),
 * and hear of every change, whoever made it. The human's commands, the
 * markers and the Agent panel use it; no WebMCP tool can write through it.
 */
export interface IAgentAccess {
  /**
   * Emitted when the access of an open notebook or of its cells changed
   * (through this service, an undo, a hand edit of the metadata, or a
   * collaborator), and when a notebook that is not open was written.
   */
  readonly changed: ISignal<IAgentAccess, IAgentAccess.IChange>;
  /**
   * The restrictions other tabs of this browser hold unsaved, for the
   * readers of notebook files (src/access/announced.ts).
   */
  readonly announced: IAnnouncedAccess;
  /** The live panel open on a workspace path in this app, if any. */
  findPanel(path: string): NotebookPanel | null;
  /** A cell's access as its metadata says (invalid reads as `none`). */
  cellAccess(cell: ISharedCell): IAccessReading;
  /** A notebook's access: its live model when open, else its file. */
  notebookAccess(path: string): Promise<IAccessReading>;
  /** Give cells of a notebook one access, as one undo step. */
  setCellsAccess(
    notebook: ISharedNotebook,
    cells: readonly ISharedCell[],
    access: AgentAccess
  ): ICellAccessChange;
  /** One step of the cycle write → read → none on cells, anchored. */
  cycleCellsAccess(
    notebook: ISharedNotebook,
    cells: readonly ISharedCell[],
    anchor?: ISharedCell | null
  ): ICellAccessChange | null;
  /** Give a notebook an access. */
  setNotebookAccess(
    path: string,
    access: AgentAccess
  ): Promise<INotebookAccessChange>;
  /** One cycle step for notebooks: all take the next access of the first. */
  cycleNotebookAccess(
    paths: readonly string[]
  ): Promise<INotebookAccessChange[]>;
  /**
   * The owner's setting for notebooks whose own switch says nothing:
   * whether tool results withhold values in credential formats (on by
   * default; docs/access.md, "Secrets").
   */
  readonly withholdSecretsByDefault: boolean;
  /** Emitted when that setting changed. */
  readonly withholdSecretsByDefaultChanged: ISignal<IAgentAccess, boolean>;
  /**
   * Whether the tools withhold secrets from what they return of a
   * notebook: its own switch, else the setting.
   */
  withholdsSecrets(notebook: ISharedNotebook): boolean;
  /**
   * Set a notebook's own switch (null: it follows the setting); whether it
   * changed. Heard as a change of the notebook's access (`changed`).
   */
  setWithholdSecrets(notebook: ISharedNotebook, value: boolean | null): boolean;
}

export namespace IAgentAccess {
  /** One change of access. */
  export interface IChange {
    /** The notebook's workspace path. */
    path: string;
    /** Whether the notebook's own access or its cells' changed. */
    scope: 'notebook' | 'cells';
    /** For `cells`: the ids of the cells whose access changed. */
    cellIds: string[];
  }
}

/** The token of the agent access service. */
export const IAgentAccess = new Token<IAgentAccess>(
  'jupyterlite-webmcp:IAgentAccess',
  "The owner's agent access per cell and per notebook: read, write, and hear of changes."
);

/** The record of the text the human last selected inside one output. */
export interface IOutputSelectionTracker {
  /** The current record, or null when nothing is recorded. */
  readonly current: IOutputSelectionRecord | null;
  /** Emitted when the record changes. */
  readonly changed: ISignal<unknown, void>;
}

/** The tracker of the text the human selects inside one rendered output. */
export const IOutputSelectionTracker = new Token<IOutputSelectionTracker>(
  'jupyterlite-webmcp:IOutputSelectionTracker',
  'Records the text the human selects inside one rendered cell output.'
);

/**
 * The review threads stored in notebooks (under the notebook metadata key
 * `jupyterlite_webmcp_review`). `threads` and `counts` are as the agent may
 * see them: a thread anchored to a cell the owner hid (`none`) is neither
 * listed nor counted. The rest is unfiltered: callers check access first.
 * Works on any notebook model, a live one or one built from its file; writes
 * are merged so that collaborators writing at once lose nothing (see
 * docs/review-format.md). What a read returns is read-only: the lists are
 * new arrays, but the threads' messages and anchors are shared by every read
 * until the notebook changes, and frozen.
 */
export interface IReviewStore {
  /**
   * Emitted after every write of this store, and after every change another
   * browser made to a notebook this store wrote to, once merged.
   */
  readonly changed: ISignal<IReviewStore, { model: ISharedNotebook }>;
  /** The agent-visible threads of a notebook, in stored order. */
  threads(model: ISharedNotebook): IReviewThread[];
  /** How many agent-visible threads a notebook has, and how many are open. */
  counts(model: ISharedNotebook): IReviewCounts;
  /** Every thread of a notebook, hidden ones included (the human side). */
  allThreads(model: ISharedNotebook): IReviewThread[];
  /** A thread by id, whatever its cell's access; null when there is none. */
  getThread(model: ISharedNotebook, threadId: string): IReviewThread | null;
  /** Create an open thread with its first message; returns it as stored. */
  createThread(
    model: ISharedNotebook,
    options: ICreateThreadOptions
  ): IReviewThread;
  /** Append a message; throws for an unknown thread id. */
  reply(
    model: ISharedNotebook,
    threadId: string,
    options: IMessageOptions
  ): IReviewThread;
  /**
   * Resolve (with an optional closing message) or reopen (appending nothing)
   * a thread; throws for an unknown thread id.
   */
  setStatus(
    model: ISharedNotebook,
    threadId: string,
    status: ThreadStatus,
    closing?: { body: string; author: IMessageAuthor } | null,
    now?: Date
  ): IReviewThread;
}

/** The token of the review store. */
export const IReviewStore = new Token<IReviewStore>(
  'jupyterlite-webmcp:IReviewStore',
  'The review threads stored in notebooks, as the agent may see them.'
);

/** Direct: agent edits apply at once. Propose: they wait for the human. */
export type ProposeMode = 'direct' | 'propose';

/**
 * Propose mode: each notebook's Direct/Propose mode, the human's switch on
 * the current notebook, and the proposals that wait for their Accept or
 * Deny. The mode is stored in the notebook (shared by every browser of it);
 * only the human's commands and the Agent panel change it;
 * `jupyter_update_cell` reads the mode of the notebook it edits, stages
 * proposals through `propose` and never reports the mode itself.
 */
export interface IProposals {
  /** The current notebook's mode (the setting's mode when none is open). */
  readonly mode: ProposeMode;
  /** Whether a notebook is current, for the switch to act on. */
  readonly hasNotebook: boolean;
  /** A notebook's mode: its own, or the setting's when it stores none. */
  modeOf(notebook: ISharedNotebook): ProposeMode;
  /**
   * Whether a kind of agent action waits for the human in a notebook: it is
   * in Propose mode, and the deployment's `reviewed` setting lists the kind.
   */
  reviews(notebook: ISharedNotebook, kind: ProposalKind): boolean;
  /** The kinds reviewed in Propose mode. */
  readonly reviewed: readonly ProposalKind[];
  /** A notebook's key, as its proposals carry it. */
  notebookKey(context: DocumentRegistry.IContext<INotebookModel>): string;
  /**
   * The cells the human allowed to run again while their code is unchanged
   * (kept in the page, never in the file); a cell that changed is dropped.
   */
  allowances(
    context: DocumentRegistry.IContext<INotebookModel>
  ): IProposals.IAllowance[];
  /** Whether every cell given may run without review (its hash allowed). */
  isAllowed(
    context: DocumentRegistry.IContext<INotebookModel>,
    cells: readonly IProposals.IAllowance[]
  ): boolean;
  /** The human takes a cell's allowance back. */
  revokeAllowance(
    context: DocumentRegistry.IContext<INotebookModel>,
    cellId: string
  ): boolean;
  /** Emitted with a notebook's key when its allowances change. */
  readonly allowancesChanged: ISignal<IProposals, string>;
  /** Emitted when the current notebook's mode changes, or another notebook becomes current. */
  readonly modeChanged: ISignal<IProposals, ProposeMode>;
  /**
   * Switch the current notebook's mode (the human's commands), stored in
   * the notebook; false when no notebook is current.
   */
  setMode(mode: ProposeMode): boolean;
  /** Emitted when a proposal is staged or settles. */
  readonly changed: ISignal<IProposals, IProposal>;
  /** The proposals waiting for the human. */
  pending(): readonly IProposal[];
  /**
   * Stage a proposal on a cell of an open notebook and wait for it to end.
   * Throws PROPOSAL_ALREADY_PENDING, or ABORTED when the signal has fired.
   */
  propose(request: IProposals.IRequest): Promise<ProposalOutcome>;
  /**
   * The human accepts a proposal (null when it is no longer pending); for a
   * run, `allowAgain` lets its cells run again while their code is unchanged.
   */
  accept(
    id: string,
    options?: IProposals.IAcceptOptions
  ): ProposalOutcome | null;
  /** The human denies a proposal, with a reason or none. */
  deny(id: string, reason: string | null): ProposalOutcome | null;
}

export namespace IProposals {
  /** What `propose` needs. */
  export interface IRequest {
    /** What the proposal would do (default `update`). */
    kind?: ProposalKind;
    /** The panel of the notebook (any of its views). */
    panel: NotebookPanel;
    /**
     * The cell the block sits at (the edited, deleted or first run cell, the
     * cell an insert goes next to); null in a notebook with no cell.
     */
    cellId: string | null;
    /** The cells it acts on (default `[cellId]`; none for an insert). */
    cellIds?: readonly string[];
    /** The cell's current source (update, delete). */
    original?: string;
    /** The source the agent proposes (update, insert). */
    proposed?: string;
    /** `insert`: the new cell's type, and where it goes from `cellId`. */
    cellType?: string;
    position?: 'above' | 'below';
    /** `run`: the code cells to run, in order, with the hash of each source. */
    cells?: readonly IRunTarget[];
    /** `run`, `kernel`: the kernel's name as the notebook shows it. */
    kernelName?: string | null;
    /** `kernel`: the action. */
    action?: 'restart' | 'interrupt';
    /** The tool call's abort signal: when it fires, the proposal is withdrawn. */
    signal: AbortSignal;
    /**
     * Runs on Accept, before the outcome settles: applies an edit, or checks
     * that a run or a kernel action may still go ahead; throws (writing
     * nothing) when it must not, and the proposal is recorded as stale.
     */
    apply: () => void;
  }

  /** How the human accepts. */
  export interface IAcceptOptions {
    /** For a run: allow its cells to run again while their code is unchanged. */
    allowAgain?: boolean;
  }

  /** A cell allowed to run again without review, with the hash it may run with. */
  export interface IAllowance {
    cellId: string;
    sourceHash: string;
  }
}

/** The token of Propose mode. */
export const IProposals = new Token<IProposals>(
  'jupyterlite-webmcp:IProposals',
  'Propose mode: the human-only Direct/Propose switch and the proposals waiting for review.'
);
