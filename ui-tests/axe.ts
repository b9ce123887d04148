/**
 * Axe on parts of the page: the WCAG 2.1 A and AA violations inside the
 * given selectors, each with its rule, its help text and the elements it
 * found, readably (a test expects the list empty).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export interface IViolation {
  rule: string;
  help: string;
  nodes: { target: string; why: string | undefined }[];
}

export async function axeViolations(
  page: Page,
  selectors: string | string[]
): Promise<IViolation[]> {
  let builder = new AxeBuilder({ page }).withTags([
    'wcag2a',
    'wcag2aa',
    'wcag21a',
    'wcag21aa'
  ]);
  for (const selector of typeof selectors === 'string'
    ? [selectors]
    : selectors) {
    builder = builder.include(selector);
  }
  const results = await builder.analyze();
  return results.violations.map(violation => ({
    rule: violation.id,
    help: violation.help,
    nodes: violation.nodes.map(node => ({
      target: node.target.join(' '),
      why: node.failureSummary
    }))
  }));
}
