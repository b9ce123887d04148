/**
 * The markdown document of `jupyter_export_notebook`. Pure: no JupyterLab
 * import at run time.
 *
 * Markdown cells are verbatim, code cells fenced with the notebook language,
 * raw cells (and any other cell type) fenced with no language. With outputs,
 * each code cell's outputs follow it, through the same serializer and bounds
 * as `jupyter_get_cells`; binary outputs become one placeholder line each.
 * The document is bounded to `MAX_EXPORT_BYTES` measured JSON-escaped.
 */
import type * as nbformat from '@jupyterlab/nbformat';
import { LIMITS } from '../../limits';
import { jsonEscapedPrefix, jsonStringBytes } from '../../common/json';
import { type ISerializedOutput, serializeOutput } from './outputs';
import { SHOW_TEXT, type TextFilter } from '../secrets';
import { TRUNCATION_MARKER } from '../../common/text';

/** A cell as the export sees it; the caller has left out hidden cells. */
export interface IExportCell {
  type: 'code' | 'markdown' | 'raw' | string;
  source: string;
  outputs?: readonly nbformat.IOutput[];
}

export interface IExportOptions {
  includeOutputs: boolean;
  /** The fence language of code cells; `python` when not given. */
  language?: string;
  /**
   * What each cell's source and outputs go through (secrets withheld), as
   * the cell is written: a cell past the end is never looked at.
   */
  filter?: TextFilter;
}

export interface IExportResult {
  document: string;
  truncated: boolean;
  /** Cells rendered, the last one possibly cut. */
  cellCount: number;
}

/** A piece of a cell's markdown: text as is, or a fenced block. */
interface IBlock {
  content: string;
  /** The info string of a fenced block; undefined for verbatim text. */
  fence?: string;
}

const BLOCK_SEPARATOR = '\n\n';

/** The UTF-8 size of `text` once JSON-escaped, without the quotes. */
function escapedBytes(text: string): number {
  return jsonStringBytes(text) - 2;
}

/** The longest run of `char` in `text`. */
function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text[i] === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** A backtick fence longer than any backtick run in `content`, at least 3. */
export function fenceFor(content: string): string {
  return '`'.repeat(Math.max(3, longestRun(content, '`') + 1));
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * The line that closes the fenced block `markdown` leaves open at its end,
 * or null when none is open. Only fences outside containers are followed.
 */
export function openFenceCloser(markdown: string): string | null {
  let open: string | null = null;
  for (const line of markdown.split('\n')) {
    const match = FENCE_LINE.exec(line.replace(/\r$/, ''));
    if (!match) {
      continue;
    }
    const [, fence, rest] = match;
    if (open === null) {
      if (!(fence[0] === '`' && rest.includes('`'))) {
        open = fence;
      }
    } else if (
      fence[0] === open[0] &&
      fence.length >= open.length &&
      rest.trim() === ''
    ) {
      open = null;
    }
  }
  return open;
}

function renderBlock(block: IBlock): string {
  if (block.fence === undefined) {
    return block.content;
  }
  const fence = fenceFor(block.content);
  const { content } = block;
  const newline = content === '' || content.endsWith('\n') ? '' : '\n';
  return `${fence}${block.fence}\n${content}${newline}${fence}`;
}

/** The blocks one output contributes. */
function outputBlocks(output: ISerializedOutput): IBlock[] {
  let text = '';
  if (output.outputType === 'stream') {
    text = output.text ?? '';
  } else if (output.outputType === 'error') {
    const value = output.evalue ? `: ${output.evalue}` : '';
    text = output.traceback || `${output.ename ?? ''}${value}`;
  } else {
    text =
      output.text ||
      output.html ||
      output.textData?.find(entry => entry.text !== '')?.text ||
      '';
  }
  const blocks: IBlock[] =
    text.trim() === '' ? [] : [{ content: text, fence: '' }];
  for (const media of output.media ?? []) {
    blocks.push({
      content: `![output](${media.mimeType}, ${media.bytes} bytes — not included)`
    });
  }
  return blocks;
}

/** A cell as blocks, in document order. */
function cellBlocks(cell: IExportCell, options: IExportOptions): IBlock[] {
  const filter = options.filter ?? SHOW_TEXT;
  if (filter !== SHOW_TEXT) {
    cell = { ...cell, source: filter(cell.source) };
  }
  if (cell.type === 'markdown') {
    const closer = openFenceCloser(cell.source);
    // Verbatim, except that a fence the cell leaves open is closed, so it
    // cannot swallow the cells after it.
    return [{ content: closer ? `${cell.source}\n${closer}` : cell.source }];
  }
  if (cell.type !== 'code') {
    return [{ content: cell.source, fence: '' }];
  }
  const language = (options.language ?? 'python').replace(/[`\s]/g, '');
  const blocks: IBlock[] = [{ content: cell.source, fence: language }];
  if (options.includeOutputs) {
    const outputs = cell.outputs ?? [];
    const shown = outputs.slice(0, LIMITS.MAX_OUTPUTS_PER_CELL);
    for (const output of shown) {
      blocks.push(...outputBlocks(serializeOutput(output, filter)));
    }
    if (outputs.length > shown.length) {
      const more = outputs.length - shown.length;
      blocks.push({ content: `(${more} more outputs not included)` });
    }
  }
  return blocks;
}

/**
 * `block` cut to at most `room` escaped bytes, ending in the truncation
 * marker with every fence closed, or null when not even that fits.
 */
function cutBlock(block: IBlock, room: number): string | null {
  const marker = escapedBytes(TRUNCATION_MARKER);
  if (block.fence === undefined) {
    // Room for the longest fence the text could have left open.
    const text = block.content;
    const reserve = 2 + Math.max(longestRun(text, '`'), longestRun(text, '~'));
    const keep = room - marker - reserve;
    if (keep <= 0) {
      return null;
    }
    const cut = jsonEscapedPrefix(text, keep) + TRUNCATION_MARKER;
    const closer = openFenceCloser(cut);
    return closer ? `${cut}\n${closer}` : cut;
  }
  const fence = fenceFor(block.content);
  const frame = escapedBytes(`${fence}${block.fence}\n\n${fence}`);
  const keep = room - frame - marker;
  if (keep <= 0) {
    return null;
  }
  const content = jsonEscapedPrefix(block.content, keep);
  return `${fence}${block.fence}\n${content}${TRUNCATION_MARKER}\n${fence}`;
}

/** What closes a document cut short between blocks or cells. */
const TAIL = BLOCK_SEPARATOR + TRUNCATION_MARKER;

/**
 * A cell's blocks cut to `room` escaped bytes: the whole blocks that fit
 * (with room left for the tail), then the first that does not, cut; or the
 * tail when it cannot be cut. '' when nothing fits.
 */
function cutCell(blocks: IBlock[], room: number): string {
  const tailBytes = escapedBytes(TAIL);
  const parts: string[] = [];
  let used = 0;
  for (const block of blocks) {
    const separator = parts.length > 0 ? BLOCK_SEPARATOR : '';
    const text = separator + renderBlock(block);
    const cost = escapedBytes(text);
    if (used + cost + tailBytes <= room) {
      parts.push(text);
      used += cost;
      continue;
    }
    const cut = cutBlock(block, room - used - escapedBytes(separator));
    if (cut !== null) {
      parts.push(separator + cut);
    } else if (parts.length > 0) {
      parts.push(TAIL);
    }
    break;
  }
  return parts.join('');
}

/**
 * Render cells as one markdown document, cells separated by a blank line.
 *
 * At most `MAX_EXPORT_CELLS` cells are walked. The document stays within
 * `MAX_EXPORT_BYTES` once JSON-escaped (quotes included): whole cells are
 * kept while they fit; the cell that does not fit is cut (whole blocks
 * first, then inside a block, every fence closed) when it is the first cell
 * or at least a quarter of the budget is left, and otherwise left out. A
 * document cut short ends in the truncation marker and reports `truncated`.
 */
export function exportMarkdown(
  cells: Iterable<IExportCell>,
  options: IExportOptions
): IExportResult {
  const limit = LIMITS.MAX_EXPORT_BYTES - 2;
  const tailBytes = escapedBytes(TAIL);
  let document = '';
  let used = 0;
  let cellCount = 0;
  let walked = 0;
  const iterator = cells[Symbol.iterator]();
  for (let next = iterator.next(); !next.done;) {
    if (walked === LIMITS.MAX_EXPORT_CELLS) {
      return { document: withTail(document), truncated: true, cellCount };
    }
    walked++;
    const blocks = cellBlocks(next.value, options);
    next = iterator.next();
    const text = blocks
      .map(renderBlock)
      .filter(part => part !== '')
      .join(BLOCK_SEPARATOR);
    const separator = document !== '' && text !== '' ? BLOCK_SEPARATOR : '';
    const cost = escapedBytes(separator + text);
    // Room for the tail is kept unless no cell can follow this one.
    if (used + cost <= limit - (next.done ? 0 : tailBytes)) {
      document += separator + text;
      used += cost;
      cellCount++;
      continue;
    }
    const room = limit - used - escapedBytes(separator);
    if (document === '' || room >= limit / 4) {
      const cut = cutCell(blocks, room);
      if (cut !== '') {
        return {
          document: document + separator + cut,
          truncated: true,
          cellCount: cellCount + 1
        };
      }
    }
    return { document: withTail(document), truncated: true, cellCount };
  }
  return { document, truncated: false, cellCount };
}

/** A document cut between cells, ending in the truncation marker. */
function withTail(document: string): string {
  return document === '' ? TRUNCATION_MARKER : document + TAIL;
}
