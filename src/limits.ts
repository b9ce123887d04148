/**
 * Every bound the tool specification names, one constant each.
 *
 * Byte bounds are measured in UTF-8 bytes, never in JavaScript string length;
 * character bounds (`*_CHARS`) count Unicode code points.
 */
export const LIMITS = {
  /** The whole JSON result of one tool call (`content[0].text`). */
  MAX_TOTAL_RESULT_BYTES: 50 * 1024,
  /** Every string inside a structured error. */
  MAX_ERROR_STRING_BYTES: 2 * 1024,
  /** The message of an unexpected exception normalized to INTERNAL_ERROR. */
  MAX_INTERNAL_ERROR_MESSAGE_CHARS: 500,

  /** Cells returned by one read, whatever range was asked for. */
  MAX_CELLS_RETURNED: 100,
  /** Cells returned by a range read when no `endIndex` is given. */
  DEFAULT_CELLS_RETURNED: 20,
  /** Cells one `jupyter_run_cells` call may target. */
  MAX_CELL_IDS_PER_CALL: 100,
  /** A cell's source as returned by a read. */
  MAX_CELL_SOURCE_BYTES: 25 * 1024,
  /** A cell's source as accepted by a write (larger is refused, never cut). */
  MAX_CELL_SOURCE_WRITE_BYTES: 256 * 1024,
  /** A cell's JSON-encoded metadata, returned only when at most this long. */
  MAX_CELL_METADATA_CHARS: 512,
  /** Outputs returned per cell. */
  MAX_OUTPUTS_PER_CELL: 10,
  /** text, traceback, evalue, and the shared budget of one output's textData. */
  MAX_TEXT_OUTPUT_BYTES: 10 * 1024,
  /** html reduced to text gets half the text budget. */
  MAX_HTML_OUTPUT_BYTES: 5 * 1024,
  /** Previews: ename, STALE_CELL's current source, comment bodies in lists. */
  MAX_PREVIEW_CHARS: 400,
  /** The one-line output summary of a run cell. */
  MAX_SUMMARY_CHARS: 600,

  /** Text the user selected, in an editor or an output. */
  MAX_SELECTED_TEXT_BYTES: 4 * 1024,
  /** Context kept before and after a source-range anchor, each side. */
  MAX_ANCHOR_CONTEXT: 200,

  /** Rows returned by `jupyter_list_workspace`, across a recursive walk. */
  MAX_WORKSPACE_ROWS: 100,
  /** A notebook name given to `jupyter_create_notebook`. */
  MAX_NAME_BYTES: 256,
  /**
   * A whole path argument (`path`, `notebookPath`, `directory`), as given.
   * 1,024 is macOS's PATH_MAX, the smallest of the common systems' (Linux
   * allows 4,096); the contents service joins it to its root directory, so a
   * relative path this long already leaves little room.
   */
  MAX_PATH_BYTES: 1024,
  /**
   * One segment of a path (a file or directory name). ext4, XFS, btrfs, APFS
   * and NTFS refuse names over 255 bytes (NAME_MAX); a longer one could never
   * exist on a Jupyter server, whatever JupyterLite's browser storage allows.
   */
  MAX_PATH_SEGMENT_BYTES: 255,
  /**
   * Notebook files `jupyter_list_workspace` reads at once to learn whether
   * the owner hid them (the first time it lists them).
   */
  MAX_CONCURRENT_NOTEBOOK_READS: 4,

  /** The markdown document of `jupyter_export_notebook`, measured JSON-escaped. */
  MAX_EXPORT_BYTES: 40 * 1024,
  /** Cells walked by one export. */
  MAX_EXPORT_CELLS: 500,

  /** Provenance entries kept per cell. */
  MAX_CELL_HISTORY_ENTRIES: 20,
  /** Consecutive same-actor, same-action entries within this window coalesce. */
  HISTORY_COALESCE_WINDOW_MS: 60 * 1000,

  /** Threads returned by `jupyter_list_comments`. */
  MAX_COMMENTS_RETURNED: 50,
  /** Messages returned per thread. */
  MAX_COMMENT_MESSAGES_RETURNED: 20,
  /** Bytes of messages returned per thread (first message always kept). */
  MAX_COMMENT_MESSAGES_BYTES: 25 * 1024,
  /** A comment message body. */
  MAX_COMMENT_BODY_BYTES: 8 * 1024,
  /**
   * Review threads stored in one notebook. Past it, resolved threads go
   * first, least recently updated first (src/review/merge.ts): the file stays
   * a reasonable size however long a notebook is reviewed.
   */
  MAX_STORED_THREADS: 500,
  /**
   * Messages stored per review thread. Past it a thread keeps its first
   * message (the comment itself) and the most recent ones.
   */
  MAX_STORED_MESSAGES_PER_THREAD: 200,

  /** A Propose-mode deny reason. */
  MAX_DENY_REASON_BYTES: 2 * 1024,

  /**
   * How long `jupyter_run_cells` waits, without a break, for a kernel the
   * page cannot reach before it answers (src/jupyter/kernel/reach.ts).
   */
  KERNEL_REACH_TIMEOUT_MS: 30 * 1000
} as const;
