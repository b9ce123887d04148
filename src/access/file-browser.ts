/**
 * Hit testing in the file browser: which notebooks a file-browser context
 * menu acts on.
 */
import type { JupyterFrontEnd } from '@jupyterlab/application';
import type { FileBrowser } from '@jupyterlab/filebrowser';

/**
 * The notebooks selected in the file browser whose context menu was opened,
 * the right-clicked one first (it anchors a cycle, as the active cell does).
 */
export function browserSelection(
  app: JupyterFrontEnd,
  browsers: FileBrowser[]
): string[] {
  const hit = app.contextMenuHitTest(node =>
    node.classList.contains('jp-DirListing-item')
  );
  const browser =
    (hit && browsers.find(candidate => candidate.node.contains(hit))) ||
    browsers[0];
  if (!browser) {
    return [];
  }
  const selected = [...browser.selectedItems()]
    .filter(item => item.type === 'notebook')
    .map(item => item.path);
  if (hit && browser.node.contains(hit)) {
    const name = hit.querySelector('.jp-DirListing-itemText')?.textContent;
    const clicked = selected.find(
      path => path.slice(path.lastIndexOf('/') + 1) === name
    );
    if (clicked) {
      return [clicked, ...selected.filter(path => path !== clicked)];
    }
  }
  return selected;
}
