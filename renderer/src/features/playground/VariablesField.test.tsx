// @vitest-environment jsdom
/**
 * The variables' NAME=value text area grows with its text by CSS (sw-grow-textarea in
 * styles.css): rendering it again (a run starting or ending turns the playground read-only and
 * back) measures nothing, so it lays out no page inside the task that renders it.
 */
import { describe, expect, it } from 'vitest';
import { appTests, openedApp } from '../../../../tests/support/jsdom-app';
import { exampleThread } from '../../sample-thread';
import { VariablesField } from './VariablesField';

const mount = appTests();

describe('VariablesField', () => {
  it('grows its text area by CSS, measuring nothing when it renders', async () => {
    const thread = { ...exampleThread() };
    thread.context = { ...thread.context, variables: { CITY: 'Paris', DAYS: '3' } };
    const { app, session } = await openedApp(thread);
    // Count reads of a text area's computed style: a script measuring a text area starts there.
    let styleReads = 0;
    const getComputedStyle = window.getComputedStyle;
    window.getComputedStyle = (...a: Parameters<typeof getComputedStyle>) => {
      if (a[0] instanceof HTMLTextAreaElement) styleReads++;
      return getComputedStyle(...a);
    };
    let el: HTMLElement;
    try {
      const m = mount(app, <VariablesField thread={session.thread} readOnly={false} />);
      el = m.el;
      m.render(<VariablesField thread={session.thread} readOnly />);
      m.render(<VariablesField thread={session.thread} readOnly={false} />);
    } finally {
      window.getComputedStyle = getComputedStyle;
    }
    const area = el.querySelector('textarea')!;
    expect(area.value).toBe('CITY=Paris\nDAYS=3');
    expect(styleReads).toBe(0);
    expect(document.querySelectorAll('textarea')).toHaveLength(1); // no hidden measuring copy
    expect(area.classList.contains('sw-grow-textarea')).toBe(true);
  });
});
