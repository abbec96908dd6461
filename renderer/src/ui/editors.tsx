/**
 * CodeMirror 6 editors: JSON (monospace, folding, lint, copy) and prompt text (wrapping).
 * A changed value (another window's edit, undo) is applied as the smallest change, so the
 * cursor stays where it is ({@link CodeEditor}); a prompt editor of a `Y.Text` field is bound
 * to it instead (`bound`, y-binding.ts). Under a region that is not live yet
 * (editor-mount.tsx) each shows its text statically in the same box ({@link StaticEditor})
 * until it is focused or the region turns live. `highlight` marks find matches in both.
 */
import { createContext, useContext, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import { EditorView } from '@codemirror/view';
import type { BasicSetupOptions } from '@uiw/react-codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { Box, Button, CopyButton, Group, Text } from '@mantine/core';
import { useComputedColorScheme } from '@mantine/core';
import { CodeEditor, type CodeEditorProps } from './code-editor';
import type { BoundText } from './text-binding';
import { templateSupport, type TemplateVariable } from './template-extension';

/**
 * The template variables prompt editors below complete and show on hover; without a provider
 * the editors have no template support.
 */
export const TemplateVariablesContext = createContext<TemplateVariable[] | null>(null);
import { useLiveEditor } from './editor-mount';
import { StaticEditor } from './static-editor';
import { findHighlightExtension, type FieldHighlight } from './find-highlight';
import { warmEditors, type StepScheduler } from './editor-warmup';

const jsonSetup: BasicSetupOptions = { foldGutter: true, lineNumbers: true, highlightActiveLine: true, autocompletion: false, history: false };
const promptSetup: BasicSetupOptions = { lineNumbers: false, foldGutter: false, highlightActiveLine: false, autocompletion: false, history: false };

export interface JsonEditorProps {
  value: string;
  onChange?: (text: string, previous: string) => void;
  readOnly?: boolean;
  /** Accessible name of the editor. */
  label: string;
  minHeight?: number;
  maxHeight?: number;
  /** An error to show under the editor (parse or schema). */
  error?: string | null;
  /** Find matches to mark. */
  highlight?: FieldHighlight;
}

/** The bordered box both editors sit in. */
const FRAME: CSSProperties = { border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, overflow: 'hidden' };
/**
 * A read-only JSON editor shows no active line. By a style on the editable state, not a setup
 * of its own: changing the setup when a run starts or ends made every JSON editor rebuild its
 * plugins and gutters and read the page's selection (about 20 ms each) in the run's first task.
 */
const hideActiveLineWhileReadOnly = EditorView.theme({ '.cm-content[contenteditable="false"] .cm-activeLine': { backgroundColor: 'transparent' } });
const JSON_EXTENSIONS = [json(), linter(jsonParseLinter()), lintGutter(), hideActiveLineWhileReadOnly];
const PROMPT_EXTENSIONS = [EditorView.lineWrapping];
const JSON_STYLE: CSSProperties = { fontSize: 12 };
const PROMPT_STYLE: CSSProperties = { fontSize: 13 };

type FramedEditorProps = Omit<CodeEditorProps, 'theme' | 'autoFocus'> & {
  label: string;
  highlight?: FieldHighlight;
  /** The static stand-in's layout: wrap long lines (prompt) or show JSON gutters. */
  wrap: boolean;
  gutters?: boolean;
  children?: ReactNode;
};

/**
 * An editor in a bordered box, in the window's colour scheme, with `label` as its accessible
 * name (after `extensions`) and `highlight` marked: a {@link CodeEditor} once its region is live
 * or it was focused, {@link StaticEditor} text before. `children` are laid over the box (a Copy button).
 */
function FramedEditor({ label, extensions, children, highlight, wrap, gutters, ...editor }: FramedEditorProps) {
  const mount = useLiveEditor();
  return (
    <Box pos="relative" style={FRAME}>
      {mount.live ? (
        <LiveEditor {...editor} label={label} extensions={extensions} highlight={highlight} autoFocus={mount.focus} />
      ) : (
        <StaticEditor value={editor.value} label={label} readOnly={editor.readOnly} placeholder={editor.placeholder} minHeight={editor.minHeight} maxHeight={editor.maxHeight}
          wrap={wrap} gutters={gutters} highlight={highlight} style={editor.style} onWake={mount.wake} />
      )}
      {children}
    </Box>
  );
}

/** The CodeMirror part of {@link FramedEditor}, once it is made. */
function LiveEditor({ label, extensions, highlight, ...editor }: Omit<CodeEditorProps, 'theme'> & { label: string; highlight?: FieldHighlight }) {
  const theme = useComputedColorScheme('light');
  const hq = highlight?.query;
  const hc = highlight?.current;
  const named = useMemo(
    () => [...extensions, EditorView.contentAttributes.of({ 'aria-label': label }), findHighlightExtension(hq ? { query: hq, current: hc ?? -1 } : undefined)],
    [extensions, label, hq, hc],
  );
  return <CodeEditor {...editor} theme={theme} extensions={named} />;
}

/** A JSON editor with folding, parse lint, and a Copy button. */
export function JsonEditor({ value, onChange, readOnly, label, minHeight = 60, maxHeight = 360, error, highlight }: JsonEditorProps) {
  return (
    <Box>
      <FramedEditor value={value} onChange={onChange} readOnly={readOnly} label={label} extensions={JSON_EXTENSIONS} minHeight={`${minHeight}px`} maxHeight={`${maxHeight}px`}
        basicSetup={jsonSetup} style={JSON_STYLE} highlight={highlight} wrap={false} gutters>
        <Group pos="absolute" top={2} right={4} style={{ zIndex: 5 }}>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy ${label}`}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </FramedEditor>
      {error && (
        <Text size="xs" c="red" mt={2} role="alert">
          {error}
        </Text>
      )}
    </Box>
  );
}

export interface PromptEditorProps {
  value: string;
  onChange?: (text: string, previous: string) => void;
  /** The `Y.Text` field the editor is bound to, once made (`value` is shown until then; code-editor.tsx). */
  bound?: BoundText;
  readOnly?: boolean;
  label: string;
  placeholder?: string;
  minHeight?: number;
  /** Find matches to mark. */
  highlight?: FieldHighlight;
}

/** A plain-text prompt editor with wrapping, and template support inside a {@link TemplateVariablesContext}. */
export function PromptEditor({ value, onChange, bound, readOnly, label, placeholder, minHeight = 40, highlight }: PromptEditorProps) {
  const variables = useContext(TemplateVariablesContext);
  const current = useRef(variables);
  current.current = variables;
  const templated = variables !== null;
  const extensions = useMemo(() => (templated ? [...PROMPT_EXTENSIONS, templateSupport(() => current.current ?? [])] : PROMPT_EXTENSIONS), [templated]);
  return (
    <FramedEditor value={value} onChange={onChange} bound={bound} readOnly={readOnly} label={label} placeholder={placeholder} extensions={extensions}
      minHeight={`${minHeight}px`} maxHeight="420px" basicSetup={promptSetup} style={PROMPT_STYLE} highlight={highlight} wrap />
  );
}

let warmed = false;

/**
 * Once per page, each in a step `schedule` runs: make and drop a JSON editor and a templated
 * prompt editor off the page (ui/editor-warmup.ts), so the first editors a thread shows start warm.
 */
export function warmEditorCode(theme: 'light' | 'dark', schedule: StepScheduler): void {
  if (warmed) return;
  warmed = true;
  const named = (extensions: CodeEditorProps['extensions'], label: string) => [...extensions, EditorView.contentAttributes.of({ 'aria-label': label }), findHighlightExtension(undefined)];
  warmEditors([
    { theme, doc: '{\n  "a": [1, "two", true, null],\n  "b": { "c": 2.5 }\n}', extensions: named(JSON_EXTENSIONS, 'JSON'), basicSetup: jsonSetup, minHeight: '60px', maxHeight: '360px', style: JSON_STYLE },
    { theme, doc: 'Answer {{question}} step by step.', extensions: named([...PROMPT_EXTENSIONS, templateSupport(() => [])], 'Prompt'), basicSetup: promptSetup, minHeight: '40px', maxHeight: '420px', style: PROMPT_STYLE },
  ], schedule);
}
