/**
 * Holding a notebook's load, as a slow server or a page restore does: the
 * panel opening it waits while a test calls the tools.
 */
import type { Page, Route } from '@playwright/test';

/**
 * Holds the GET with which an opening notebook panel loads `path` (a
 * notebook, with content) until `release`; other reads of it pass.
 */
export async function holdLoad(
  page: Page,
  path: string
): Promise<{ held: Promise<void>; release(): Promise<void> }> {
  const holder: { route?: Route } = {};
  let heard!: () => void;
  const held = new Promise<void>(resolve => (heard = resolve));
  const tail = `/api/contents/${path.split('/').map(encodeURIComponent).join('/')}`;
  await page.route(
    url =>
      url.pathname.endsWith(tail) &&
      url.searchParams.get('type') === 'notebook' &&
      url.searchParams.get('content') === '1',
    route => {
      holder.route = route;
      heard();
    },
    { times: 1 }
  );
  return {
    held,
    release: async () => {
      await holder.route!.continue();
    }
  };
}
