/**
 * Issue 30 [first-minutes]: the README's main job as a new user walks it, at 1280×800 and
 * 1440×900, in the light and the dark theme, against a real `stepwise serve` (real runners,
 * mcp-host and server-everything). It asserts what a person sees: after Run the reply and its
 * tool calls are in the viewport (the settings folded away); no toolbar control is clipped or
 * wrapped; every icon-only button has an accessible name; axe-core finds no serious or critical
 * violation on the main screens (the playground after Run, the finished turn, Compare,
 * Evaluate). Also each of the other items as the user meets them: no document-version
 * counter, labelled header actions, a folder with no threads said so, the example batch's grid
 * on Evaluate's first open, the palette's word match, Detail showing the latest model call,
 * Compare showing a turn's tools as run with Save in view. Screenshots go to
 * test-results/screens/first-minutes-<size>-<theme>-*.png.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { test, expect, shot } from './fixtures';

const row = (page: Page, name: string | RegExp) => page.getByRole('treeitem', { name });

/** Serious and critical axe-core violations on the page as it is now (WCAG 2 A and AA rules). */
async function axeProblems(page: Page): Promise<string[]> {
  // label-content-name-mismatch is an experimental rule; it flags the execution tree's rows, which
  // are named by kind, name and status as the conventions say (docs/ui.md#names) while they show
  // their output. Buttons are held to a name by unnamedIconButtons below.
  // CodeMirror's syntax colours are held to the contrast rule too (ui/editor-contrast.ts).
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).disableRules(['label-content-name-mismatch']).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** What the in-page checks use of the DOM (the tests are type-checked without the DOM's types). */
interface Box { left: number; right: number; top: number; width: number; height: number }
interface El {
  getBoundingClientRect(): Box;
  parentElement: El | null;
  matches(s: string): boolean;
  closest(s: string): El | null;
  getAttribute(n: string): string | null;
  querySelectorAll(s: string): ArrayLike<El>;
  textContent: string | null;
  outerHTML: string;
  scrollWidth: number;
  clientWidth: number;
  tagName: string;
  className: unknown;
}
interface Win { innerWidth: number; getComputedStyle(e: El): { overflowX: string; overflowY: string; visibility: string }; document: { body: El; querySelectorAll(s: string): ArrayLike<El> } }

/**
 * Each visible control of `bar` (buttons, switches, checkboxes, inputs) lies wholly inside
 * every ancestor that clips it and inside the viewport, its own text is not cut, and all of
 * them sit on one row (their vertical centres within 4 px).
 */
async function expectOneUnclippedRow(bar: Locator, what: string): Promise<void> {
  const problems = await bar.evaluate((root) => {
    const w = globalThis as unknown as Win;
    const el = root as unknown as El;
    const out: string[] = [];
    const controls = Array.from(el.querySelectorAll('button, [role="switch"], input[type="checkbox"], [role="checkbox"]')).filter((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && w.getComputedStyle(c).visibility !== 'hidden' && !c.closest('[aria-hidden="true"]');
    });
    // A switch/checkbox input is drawn by its label: measure the visible track instead.
    const boxes = controls.map((c) => ({ c, r: (c.matches('input') ? (c.parentElement ?? c) : c).getBoundingClientRect() }));
    const name = (c: El) => c.getAttribute('aria-label') || c.textContent?.trim() || c.outerHTML.slice(0, 60);
    for (const { c, r } of boxes) {
      if (r.left < -0.5 || r.right > w.innerWidth + 0.5) out.push(`${name(c)}: outside the viewport (${Math.round(r.left)}–${Math.round(r.right)} of ${w.innerWidth})`);
      for (let p = c.parentElement; p && p !== w.document.body; p = p.parentElement) {
        const st = w.getComputedStyle(p);
        if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
        const b = p.getBoundingClientRect();
        if (r.left < b.left - 0.5 || r.right > b.right + 0.5) out.push(`${name(c)}: clipped by ${p.tagName.toLowerCase()}.${String(p.className).split(' ')[0]} (${Math.round(r.right)} > ${Math.round(b.right)})`);
      }
      if (c.matches('button') && c.scrollWidth > c.clientWidth + 1) out.push(`${name(c)}: its text is cut`);
    }
    const centres = boxes.map(({ r }) => r.top + r.height / 2);
    if (centres.length && Math.max(...centres) - Math.min(...centres) > 4) out.push(`wraps: ${boxes.map(({ c, r }) => `${name(c)}@${Math.round(r.top)}`).join(', ')}`);
    return out;
  });
  expect(problems, `${what}: every control whole, on one row`).toEqual([]);
}

/** Buttons showing no word (a glyph only) that have no accessible name. */
async function unnamedIconButtons(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = globalThis as unknown as Win;
    return Array.from(w.document.querySelectorAll('button, [role="button"]'))
      .filter((b) => b.getBoundingClientRect().width > 0 && !/[\p{L}\p{N}]/u.test(b.textContent ?? ''))
      .filter((b) => !(b.getAttribute('aria-label')?.trim() || b.getAttribute('aria-labelledby') || b.getAttribute('title')?.trim()))
      .map((b) => b.outerHTML.slice(0, 120));
  });
}

const sizes = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
];

for (const size of sizes) {
  for (const theme of ['light', 'dark'] as const) {
    test.describe(`${size.width}×${size.height} ${theme}`, () => {
      test.use({ viewport: size, colorScheme: theme });

      test('the main job: Run shows the reply and tool calls, a turn is one in history and Compare, Evaluate opens on results', async ({ page, serve }) => {
        test.setTimeout(240_000);
        const name = (step: string) => `first-minutes-${size.width}-${theme}-${step}`;
        await page.goto(serve.url);
        const header = page.locator('header');
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);

        // Header: words, not glyphs; the workspace's actions whole.
        for (const label of ['Evaluate', 'Commands', 'Side-by-side', 'Dark theme', 'Settings'])
          await expect(header.getByRole('button', { name: new RegExp(`^${label}`) })).toBeVisible();
        await expect(header.getByRole('button', { name: 'Dark theme' })).toHaveAttribute('aria-pressed', String(theme === 'dark'));
        await expectOneUnclippedRow(header, 'header');
        const workspace = page.getByLabel('Workspace panel');
        await expectOneUnclippedRow(workspace.getByRole('button', { name: 'New thread' }).locator('..'), 'workspace actions');
        // A folder with only files in it says so, instead of opening onto nothing.
        await expect(row(page, 'folder fix-a-test, no threads')).toBeVisible();
        await expect(row(page, 'folder fix-a-test, no threads')).not.toHaveAttribute('aria-expanded', /.*/);
        await expect(row(page, /^folder test/)).toHaveCount(0);

        await row(page, 'thread MCP agent, step by step').click();
        const bar = page.getByRole('toolbar', { name: 'Run controls' });
        await expect(bar.getByRole('button', { name: 'Run', exact: true })).toBeVisible();
        await expectOneUnclippedRow(bar, 'run bar before Run');
        await shot(page, name('1-open'));

        // Run: the reply and both tool calls are what the pane shows.
        await bar.getByRole('button', { name: 'Run', exact: true }).click();
        await expect(row(page, 'tool get-sum, awaiting input')).toBeVisible({ timeout: 30_000 });
        await expect(page.getByRole('button', { name: /^Thread setup/ })).toHaveAttribute('aria-expanded', 'false');
        const reply = page.getByLabel('assistant message 2');
        await expect(reply).toContainText("I'll add the numbers with get-sum", { timeout: 15_000 });
        await expect(reply.getByText("I'll add the numbers with get-sum")).toBeInViewport();
        // The question the reply answers stays in view above it.
        await expect(page.getByLabel('user message 1')).toBeInViewport({ ratio: 0.9 });
        await expect(page.getByRole('textbox', { name: 'Arguments of get-sum' })).toBeInViewport();
        await expect(page.getByRole('textbox', { name: 'Arguments of trigger-sampling-request' })).toBeInViewport();
        await expectOneUnclippedRow(bar, 'run bar with tools waiting');
        // Detail is not blank before a row is clicked: the run's latest model call.
        const detail = page.getByRole('tabpanel', { name: 'Detail' });
        await expect(detail).toContainText("The run's latest model call");
        expect(await unnamedIconButtons(page)).toEqual([]);
        expect(await axeProblems(page)).toEqual([]);
        await shot(page, name('2-after-run'));

        await bar.getByRole('button', { name: 'Run all tools' }).click();
        await expect(row(page, 'tool get-sum, completed')).toBeVisible({ timeout: 30_000 });
        await expect(row(page, 'tool trigger-sampling-request, completed')).toBeVisible({ timeout: 30_000 });
        await bar.getByRole('button', { name: 'Continue', exact: true }).click();
        const answer = page.getByLabel('assistant message 3');
        await expect(answer).toContainText('Both tools have answered', { timeout: 30_000 });
        await expect(answer.getByText('Both tools have answered')).toBeInViewport();
        // No document version counter in the header ("v4" after four steps, moving on Undo).
        await expect(page.getByText(/^v\d+$/)).toHaveCount(0);
        expect(await axeProblems(page)).toEqual([]);
        await shot(page, name('3-answered'));

        // A second turn: undo the three runs, run the turn again.
        for (let i = 0; i < 3; i++) await bar.getByRole('button', { name: 'Undo', exact: true }).click();
        await expect(page.getByLabel('assistant message 2')).toHaveCount(0);
        await bar.getByRole('button', { name: 'Run', exact: true }).click();
        await expect(bar.getByRole('button', { name: 'Run all tools' })).toBeEnabled({ timeout: 30_000 });
        await bar.getByRole('button', { name: 'Run all tools' }).click();
        await expect(bar.getByRole('button', { name: 'Continue', exact: true })).toBeEnabled({ timeout: 30_000 });
        await bar.getByRole('button', { name: 'Continue', exact: true }).click();
        await expect(page.getByLabel('assistant message 3')).toContainText('Both tools have answered', { timeout: 30_000 });

        // Run history: two turns of three runs each, not six runs.
        await page.getByRole('tab', { name: 'Run history' }).click();
        const history = page.getByRole('tabpanel', { name: 'Run history' });
        await expect(history.getByLabel(/^run step, completed, a turn of 3 runs$/)).toHaveCount(2, { timeout: 15_000 });
        const picks = history.getByRole('checkbox', { name: /^Pick run \S+ to compare$/ });
        await expect(picks).toHaveCount(2);
        await picks.nth(0).check();
        await picks.nth(1).check();
        await history.getByRole('button', { name: 'Compare runs' }).click();
        const dialog = page.getByRole('dialog', { name: 'Compare runs' });
        await expect(dialog).toContainText('The two runs did the same steps with the same results.');
        await expect(dialog.getByText(/^step \+ tool \+ step · .* · 3 model calls · 2 tool calls · /)).toHaveCount(2);
        await expect(dialog.getByText(/awaiting input/i)).toHaveCount(0);
        // The evaluation's Save is in view without scrolling the dialog.
        await expect(dialog.getByRole('button', { name: 'Save evaluation' })).toBeInViewport();
        await expect(dialog.getByRole('textbox', { name: 'Note' })).toBeInViewport();
        expect(await axeProblems(page)).toEqual([]);
        await shot(page, name('4-compare'));
        await page.keyboard.press('Escape');

        // The palette matches words: "share" is not "Switch to dark theme".
        await page.keyboard.press('ControlOrMeta+K');
        const command = page.getByRole('combobox', { name: 'Command' });
        await command.fill('share');
        await expect(page.getByRole('option')).toHaveCount(0);
        await command.fill('theme');
        await expect(page.getByRole('option', { name: /^Switch to (dark|light) theme$/ })).toBeVisible();
        await page.keyboard.press('Escape');

        // Evaluate opens on the example batch's results.
        await page.getByRole('button', { name: 'Evaluate' }).click();
        const results = page.getByRole('table', { name: 'Results' });
        await expect(results).toBeVisible({ timeout: 15_000 });
        await expect(results).toContainText('australia');
        await expect(page.getByRole('button', { name: /^Open australia, base: failed/ })).toBeVisible();
        expect(await unnamedIconButtons(page)).toEqual([]);
        expect(await axeProblems(page)).toEqual([]);
        await shot(page, name('5-evaluate'));
      });
    });
  }
}
