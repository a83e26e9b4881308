// The accessibility gate of the end-to-end suite: axe (WCAG 2.1 A and AA rules) runs in the page
// at 1280px and at 390px, and any serious or critical violation fails the test with what and
// where. Every screen and every open dialog the suite visits goes through it.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export const GATE_WIDTHS = [1280, 390] as const;
const BLOCKING = new Set(['serious', 'critical']);

export interface AxeProblem {
  width: number;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The serious and critical violations on the page as it is now, at the page's current width. */
export async function axeProblems(page: Page): Promise<AxeProblem[]> {
  const width = page.viewportSize()?.width ?? 0;
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .map((v) => ({
      width,
      rule: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
}

/**
 * Checks the screen at both widths (and comes back to the width it was at). `screen` names it in
 * the failure. Dialogs stay open across the resize, so an open dialog is checked as it is.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const original = page.viewportSize();
  const problems: AxeProblem[] = [];
  try {
    for (const width of GATE_WIDTHS) {
      await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
      await page.waitForTimeout(150); // layout and media queries settle
      problems.push(...(await axeProblems(page)));
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
  if (problems.length) {
    const lines = problems.map((p) => `  [${p.width}px] ${p.impact} ${p.rule}: ${p.help}\n      ${p.targets.join('\n      ')}`);
    throw new Error(`Accessibility: ${problems.length} serious or critical problem(s) on "${screen}":\n${lines.join('\n')}`);
  }
}
