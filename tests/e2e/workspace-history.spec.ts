/**
 * The workspace tree (create, rename, duplicate, move, delete, filter), the ReAct loop with
 * Auto-run tools, the detail panel of a model call, and run history (open, compare with
 * labelled columns, delete).
 */
import { test, expect, shot } from './fixtures';

test('workspace: new folder and thread, rename, duplicate, move, delete with confirmation, filter', async ({ page, serve }) => {
  await page.goto(serve.url);
  const tree = page.getByRole('tree', { name: 'Workspace' });
  await expect(tree.getByRole('treeitem', { name: 'thread MCP agent, step by step' })).toBeVisible();

  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Folder path' }).fill('Drafts');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(tree.getByRole('treeitem', { name: 'folder Drafts' })).toBeVisible();

  await page.getByRole('button', { name: 'New thread' }).click();
  await expect(tree.getByRole('treeitem', { name: 'thread Untitled thread' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for Untitled thread' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).filter({ visible: true }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Title', exact: true }).fill('My agent');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(tree.getByRole('treeitem', { name: 'thread My agent' })).toBeVisible();
  // The open thread follows the rename.
  await expect(page.getByRole('heading', { name: 'My agent' })).toBeVisible();

  await expect(page.getByRole('menu')).toHaveCount(0);
  await page.getByRole('button', { name: 'Actions for My agent' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).filter({ visible: true }).click();
  const copy = tree.getByRole('treeitem', { name: /^thread My agent \(copy\)/ });
  await expect(copy).toBeVisible();

  await expect(page.getByRole('menu')).toHaveCount(0);
  await page.getByRole('button', { name: /^Actions for My agent \(copy\)/ }).click();
  await page.getByRole('menuitem', { name: 'Move' }).filter({ visible: true }).click();
  await page.getByRole('dialog').getByRole('combobox', { name: 'To folder' }).click();
  await page.getByRole('option', { name: 'Drafts' }).click();
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  // Now inside Drafts: one level deeper in the tree; folding the folder hides it.
  await expect(copy).toHaveAttribute('aria-level', '2');
  const drafts = tree.getByRole('treeitem', { name: 'folder Drafts' });
  await drafts.getByRole('button').first().click();
  await expect(drafts).toHaveAttribute('aria-expanded', 'false');
  await expect(copy).toHaveCount(0);
  await drafts.getByRole('button').first().click();
  await expect(copy).toBeVisible();

  await expect(page.getByRole('menu')).toHaveCount(0);
  await page.getByRole('button', { name: 'Actions for My agent', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).filter({ visible: true }).click();
  await expect(page.getByRole('dialog')).toContainText('Delete thread “My agent”?');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(tree.getByRole('treeitem', { name: 'thread My agent', exact: true })).toHaveCount(0);

  await page.getByLabel('Filter threads by title').fill('react');
  await expect(tree.getByRole('treeitem', { name: 'thread ReAct loop with tools' })).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: 'thread MCP agent, step by step' })).toHaveCount(0);
  await shot(page, '13-workspace');
});

test('ReAct runs the tools on its own; the detail panel shows the raw request and recorded stream; run history opens and deletes runs', async ({ page, serve }) => {
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread ReAct loop with tools' }).click();
  await expect(page.getByRole('switch', { name: 'Auto-run tools' })).toBeChecked();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('treeitem', { name: /^run react, completed$/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('treeitem', { name: 'tool get-sum, completed' })).toContainText('The sum of 1200 and 345 is 1545.');
  await expect(page.getByRole('treeitem', { name: 'tool echo, completed' })).toContainText('Echo: total checked');
  await expect(page.getByRole('treeitem', { name: /^llm scripted, completed$/ })).toHaveCount(3);
  await expect(page.getByLabel(/assistant message 4/)).toContainText('the loop stopped');

  await page.getByRole('treeitem', { name: /^llm scripted, completed$/ }).first().click();
  await expect(page.getByText(/Raw request \(scripted\)/)).toBeVisible();
  await expect(page.getByText(/Recorded stream \(\d+ events\)/)).toBeVisible();
  await shot(page, '14-detail');
  // An MCP tool's detail lists the JSON-RPC messages its call caused.
  await page.getByRole('treeitem', { name: 'tool get-sum, completed' }).click();
  await page.getByText(/^MCP protocol \(\d+ messages?\)$/).click();
  const messages = page.getByLabel('MCP messages');
  await expect(messages).toContainText('→ tools/call');
  await expect(messages).toContainText('← response');
  await shot(page, '14b-tool-protocol');

  // A second run, so history has two.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('treeitem', { name: /^run react, completed$/ })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'Run history' }).click();
  const history = page.getByRole('tabpanel', { name: 'Run history' });
  const runs = history.getByLabel(/^run react, completed$/);
  await expect(runs).toHaveCount(2);
  // Compare the two runs: the scripted model did the same steps both times.
  const picked: string[] = [];
  for (const box of await history.getByRole('checkbox', { name: /^Pick run/ }).all()) {
    await box.check();
    picked.push(/^Pick run (\S+) to compare$/.exec((await box.getAttribute('aria-label'))!)![1]);
  }
  // Each row shows its run's short id, the one Compare's columns are headed with.
  for (const [i, id] of picked.entries()) await expect(runs.nth(i)).toContainText(id);
  await expect(history).toContainText('Two runs picked (ticking another replaces the earlier pick).');
  await history.getByRole('button', { name: 'Compare runs' }).click();
  const cmp = page.getByRole('dialog', { name: 'Compare runs' });
  await expect(cmp).toContainText('The two runs did the same steps with the same results.');
  // Each column is headed with the run it shows, in the order they were picked.
  const headers = cmp.getByRole('table', { name: 'Runs compared step by step' }).getByRole('columnheader');
  await expect(headers).toHaveCount(3);
  await expect(headers.nth(0)).toHaveAccessibleName('Step');
  for (const [i, id] of picked.entries()) {
    await expect(headers.nth(i + 1)).toHaveAccessibleName(new RegExp(`^run ${id}, started .+, scripted/scripted, completed$`));
    await expect(headers.nth(i + 1)).toContainText(`Run ${id}`);
  }
  await expect(cmp.getByLabel(/^step \d+, same$/)).toHaveCount(5);
  await shot(page, '15-compare');
  await page.keyboard.press('Escape');
  await runs.first().getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('treeitem', { name: 'tool echo, completed' })).toBeVisible();
  await runs.last().getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(history.getByLabel(/^run react, completed$/)).toHaveCount(1);
  await shot(page, '16-run-history');
});
