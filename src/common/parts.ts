/**
 * The parts of the extension that come in chunks of their own, fetched when
 * first needed or once the page is idle (docs/architecture.md, "A small
 * start"), and what the page knows of the ones that failed to load.
 *
 * A chunk can fail to load: the page is offline, or a cache still holds the
 * previous version's entry after an upgrade. The part is then missing, the
 * rest works, and the status-bar item names what is missing; loading it
 * again is tried at its next use (the bundler forgets a failed chunk).
 */
import type { CommandRegistry } from '@lumino/commands';
import { type IDisposable } from '@lumino/disposable';

import { ToolError } from './errors';

/** A part that could not be loaded, and why, in the loader's words. */
export interface IMissingPart {
  /** What the owner would call it, e.g. "the notebook tools". */
  readonly part: string;
  /** The loader's message (the chunk's URL and the network's answer). */
  readonly reason: string;
}

/** How long a hold keeps the later parts waiting at most. */
const MAX_HOLD_MS = 10_000;

/** Loads parts once each and keeps the ones that failed. */
export class Parts {
  /**
   * A loader of `part`: the first call starts `load`, later calls share its
   * promise; a failure is kept (`missing`) and the next call tries again.
   */
  lazy<T>(part: string, load: () => Promise<T>): () => Promise<T> {
    let loading: Promise<T> | null = null;
    return () => {
      loading ??= load().then(
        loaded => {
          this._setMissing(part, null);
          const back = this._back;
          this._back = [];
          back.forEach(listener => listener());
          return loaded;
        },
        (reason: unknown) => {
          loading = null;
          console.warn(
            `jupyterlite-webmcp: ${part} could not be loaded.`,
            reason
          );
          this._setMissing(part, messageOf(reason));
          throw new PartMissingError(part, reason);
        }
      );
      return loading;
    };
  }

  /**
   * Holds the parts that load once the page is idle until `until` settles:
   * the page's start (the tools registered) comes first.
   */
  holdUntil(until: Promise<unknown>, atMostMs = MAX_HOLD_MS): void {
    const before = this._hold;
    // never for ever: a start that does not end must not keep the rest out
    const capped = Promise.race([
      until.catch(() => undefined),
      new Promise<void>(resolve => setTimeout(resolve, atMostMs))
    ]);
    this._hold = Promise.all([before, capped]).then(() => undefined);
  }

  /** Resolves once every hold has settled: the start is over. */
  get started(): Promise<void> {
    return this._hold;
  }

  /** The parts whose last load failed, in the order they failed. */
  get missing(): readonly IMissingPart[] {
    return [...this._missing.entries()].map(([part, reason]) => ({
      part,
      reason
    }));
  }

  /** Calls `listener` whenever `missing` changes, until disposed. */
  onChange(listener: () => void): IDisposable {
    this._listeners.add(listener);
    let disposed = false;
    return {
      get isDisposed() {
        return disposed;
      },
      dispose: () => {
        disposed = true;
        this._listeners.delete(listener);
      }
    };
  }

  /**
   * Calls `listener` once, the next time a part loads (the page is back
   * online, or a call fetched the chunk again): what failed before can try
   * again without a reload.
   */
  onceBack(listener: () => void): void {
    this._back.push(listener);
  }

  private _setMissing(part: string, reason: string | null): void {
    const had = this._missing.get(part) ?? null;
    if (had === reason) {
      return;
    }
    if (reason === null) {
      this._missing.delete(part);
    } else {
      this._missing.set(part, reason);
    }
    for (const listener of [...this._listeners]) {
      listener();
    }
  }

  private _hold: Promise<void> = Promise.resolve();
  private readonly _missing = new Map<string, string>();
  private readonly _listeners = new Set<() => void>();
  private _back: (() => void)[] = [];
}

/**
 * What a use of a part that failed to load throws: to an agent's call,
 * WEBMCP_UNAVAILABLE naming the part (the chunk's URL is for the console).
 */
export class PartMissingError extends ToolError {
  constructor(
    readonly part: string,
    readonly reason: unknown
  ) {
    super(
      'WEBMCP_UNAVAILABLE',
      `${capitalized(part)} could not be loaded: the page may be offline, or hold files of an earlier version. Reload the page.`,
      { part }
    );
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}

/** The page's parts: one set for the whole extension, as its chunks are. */
export const PARTS = new Parts();

/**
 * Runs `task` once the page is idle (or after `timeoutMs` at the latest):
 * how the parts the start does not need are fetched before their first use.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): void {
  const idle = (
    globalThis as {
      requestIdleCallback?: (
        callback: () => void,
        options: { timeout: number }
      ) => number;
    }
  ).requestIdleCallback;
  if (idle) {
    idle(task, { timeout: timeoutMs });
  } else {
    setTimeout(task, 0);
  }
}

/** Resolves once `restored` has, the start is over and the page is idle. */
export async function afterStart(restored: Promise<unknown>): Promise<void> {
  await restored;
  await PARTS.started;
  await new Promise<void>(resolve => whenIdle(resolve));
}

/** A plugin's wiring that waits for its turn; `now` does not wait. */
export interface IPartWiring extends IDisposable {
  /**
   * Wires the part now if it is not yet (loading it without waiting for the
   * start to be over), resolving once it is; rejects when it cannot be
   * loaded.
   */
  now(): Promise<void>;
}

/**
 * The part of a plugin that can wait: once `restored` has resolved, the
 * start is over (`Parts.started`) and the page is idle, `load` (a loader
 * made by `Parts.lazy`) is called and `activate` wires what it loaded; or
 * at once, when something needs it first (`now`). Disposing the result
 * disposes that wiring, or cancels it if it has not happened yet. A part
 * that fails to load is left out (the status bar names it); the rest works,
 * and the part tries again at its next use (`now`) or once another part
 * has loaded (`Parts.onceBack`), so it comes back without a reload.
 */
export function activateWhenIdle<T>(
  restored: Promise<unknown>,
  load: () => Promise<T>,
  activate: (loaded: T) => IDisposable,
  parts: Parts = PARTS
): IPartWiring {
  let disposed = false;
  let wiring: IDisposable | null = null;
  let force: () => void = () => undefined;
  const forced = new Promise<void>(resolve => (force = resolve));
  const turn = Promise.race([afterStart(restored), forced]);
  let wired: Promise<void> | null = null;
  const attempt = (): Promise<void> => {
    if (wired) {
      return wired;
    }
    const current = turn
      .then(() => (disposed ? null : load()))
      .then(loaded => {
        if (loaded !== null && !disposed) {
          wiring = activate(loaded);
        }
      });
    wired = current;
    current.catch((reason: unknown) => {
      if (!(reason instanceof PartMissingError)) {
        // a fault of the wiring itself: trying again would repeat it
        console.error('jupyterlite-webmcp: a part failed to start.', reason);
        return;
      }
      // the next use tries again, and so does the next part loaded (a
      // second attempt while one is on its way shares it; a disposed part
      // loads nothing)
      wired = null;
      parts.onceBack(attempt);
    });
    return current;
  };
  void attempt();
  return {
    get isDisposed() {
      return disposed;
    },
    now: () => {
      force();
      return attempt();
    },
    dispose: () => {
      if (disposed) {
        return;
      }
      disposed = true;
      wiring?.dispose();
      wiring = null;
    }
  };
}

/**
 * Stand-ins for the commands a part adds once it is wired, so that they can
 * be run from the start (a shortcut, a context menu, another extension, an
 * automation): registered at once, each wiring the part at once (`wire`)
 * and then running the part's own command. One given a label shows in the
 * menus under it (the context-menu items its plugin adds at the start);
 * the others never show. The part's wiring disposes them before it adds its
 * own commands under the same ids.
 */
export function standInCommands(
  commands: CommandRegistry,
  ids: readonly (string | { id: string; label: string })[],
  wire: () => Promise<void>
): IDisposable {
  let replaced = false;
  const added = ids.map(entry => {
    const { id, label } =
      typeof entry === 'string' ? { id: entry, label: null } : entry;
    return commands.addCommand(id, {
      label: label ?? id,
      // one with a label shows in the context menu items added at the start
      isVisible: () => label !== null,
      // the part's own command describes its arguments once it is added
      describedBy: { args: { type: 'object' } },
      execute: async args => {
        await wire();
        if (!replaced) {
          // wired without its own command: never run the stand-in again
          throw new Error(`jupyterlite-webmcp: ${id} was not added.`);
        }
        return commands.execute(id, args);
      }
    });
  });
  return {
    get isDisposed() {
      return replaced;
    },
    dispose: () => {
      if (replaced) {
        return;
      }
      replaced = true;
      for (const command of added) {
        command.dispose();
      }
    }
  };
}
