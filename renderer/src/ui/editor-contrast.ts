/**
 * The dark editors' syntax colours held to the contrast rule of docs/ui.md#colour (WCAG 2 AA,
 * 4.5:1 for text): one-dark's coral (property names, JSON keys), stone (comments, links) and
 * violet (keywords) fall to 3.6–4.4:1 on its background (#282c34) and active line (#2c313a).
 * Each is lightened just enough to reach 4.6:1 on the active line; the hue stays one-dark's.
 * Laid over one-dark's own highlight style at a higher precedence; the other colours already pass.
 */
import { Prec, type Extension } from '@codemirror/state';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

/** one-dark's colours, lightened to 4.6:1 on #2c313a (was 4.09, 3.61 and 4.44:1). */
export const darkSyntaxColours = { coral: '#e37b83', stone: '#929aa9', violet: '#c87dde' } as const;

const darkSyntax = HighlightStyle.define([
  { tag: t.keyword, color: darkSyntaxColours.violet },
  { tag: [t.name, t.deleted, t.character, t.propertyName, t.macroName], color: darkSyntaxColours.coral },
  { tag: t.heading, fontWeight: 'bold', color: darkSyntaxColours.coral },
  { tag: [t.meta, t.comment], color: darkSyntaxColours.stone },
  { tag: t.link, color: darkSyntaxColours.stone, textDecoration: 'underline' },
]);

/** The extension for a dark editor; a light editor's default colours pass as they are. */
export const darkSyntaxContrast: Extension = Prec.high(syntaxHighlighting(darkSyntax));
