/**
 * CodeMirror 6 editors: JSON (monospace, folding, lint, copy) and prompt text (wrapping).
 * A changed value (another window's edit, undo) is applied as the smallest change, so the
 * cursor stays where it is ({@link CodeEditor}). Under a region that is not live yet
 * (editor-mount.tsx) each shows its text statically in the same box ({@link StaticEditor})
 * until it is focused or the region turns live. `highlight` marks find matches in both.
 */
import { useMemo } from 'react';
import { EditorView } from '@codemirror/view';
import type { BasicSetupOptions } from '@uiw/react-codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { Box, Button, CopyButton, Group, Text } from '@mantine/core';
import { useComputedColorScheme } from '@mantine/core';
import { CodeEditor } from './code-editor';
import { useLiveEditor, type FocusRequest } from './editor-mount';
import { StaticEditor } from './static-editor';
import { findHighlightExtension, type FieldHighlight } from './find-highlight';

const jsonSetup: BasicSetupOptions = { foldGutter: true, lineNumbers: true, highlightActiveLine: true, autocompletion: false, history: false };
const jsonReadOnlySetup: BasicSetupOptions = { ...jsonSetup, highlightActiveLine: false };
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

/** The CodeMirror part of a JSON editor, once it is made. */
function LiveJson({ value, onChange, readOnly, label, minHeight, maxHeight, highlight, autoFocus }: Required<Pick<JsonEditorProps, 'value' | 'label' | 'minHeight' | 'maxHeight'>> & JsonEditorProps & { autoFocus: FocusRequest | null }) {
  const scheme = useComputedColorScheme('light');
  const hq = highlight?.query;
  const hc = highlight?.current;
  const extensions = useMemo(
    () => [json(), linter(jsonParseLinter()), lintGutter(), EditorView.contentAttributes.of({ 'aria-label': label }), findHighlightExtension(hq ? { query: hq, current: hc ?? -1 } : undefined)],
    [label, hq, hc],
  );
  return (
    <CodeEditor value={value} onChange={onChange} readOnly={readOnly} theme={scheme} extensions={extensions} minHeight={`${minHeight}px`} maxHeight={`${maxHeight}px`}
      basicSetup={readOnly ? jsonReadOnlySetup : jsonSetup} style={{ fontSize: 12 }} autoFocus={autoFocus} />
  );
}

/** A JSON editor with folding, parse lint, and a Copy button. */
export function JsonEditor(props: JsonEditorProps) {
  const { value, readOnly, label, minHeight = 60, maxHeight = 360, error, highlight } = props;
  const mount = useLiveEditor();
  return (
    <Box>
      <Box pos="relative" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, overflow: 'hidden' }}>
        {mount.live ? (
          <LiveJson {...props} minHeight={minHeight} maxHeight={maxHeight} autoFocus={mount.focus} />
        ) : (
          <StaticEditor value={value} label={label} readOnly={readOnly} minHeight={`${minHeight}px`} maxHeight={`${maxHeight}px`} wrap={false} gutters highlight={highlight} style={{ fontSize: 12 }} onWake={mount.wake} />
        )}
        <Group pos="absolute" top={2} right={4} style={{ zIndex: 5 }}>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy ${label}`}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Box>
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
  readOnly?: boolean;
  label: string;
  placeholder?: string;
  minHeight?: number;
  /** Find matches to mark. */
  highlight?: FieldHighlight;
}

/** The CodeMirror part of a prompt editor, once it is made. */
function LivePrompt({ value, onChange, readOnly, label, placeholder, minHeight, highlight, autoFocus }: PromptEditorProps & { minHeight: number; autoFocus: FocusRequest | null }) {
  const scheme = useComputedColorScheme('light');
  const hq = highlight?.query;
  const hc = highlight?.current;
  const extensions = useMemo(
    () => [EditorView.lineWrapping, EditorView.contentAttributes.of({ 'aria-label': label }), findHighlightExtension(hq ? { query: hq, current: hc ?? -1 } : undefined)],
    [label, hq, hc],
  );
  return (
    <CodeEditor value={value} onChange={onChange} readOnly={readOnly} theme={scheme} placeholder={placeholder} extensions={extensions} minHeight={`${minHeight}px`}
      maxHeight="420px" basicSetup={promptSetup} style={{ fontSize: 13 }} autoFocus={autoFocus} />
  );
}

/** A plain-text prompt editor with wrapping. */
export function PromptEditor(props: PromptEditorProps) {
  const { value, readOnly, label, placeholder, minHeight = 40, highlight } = props;
  const mount = useLiveEditor();
  return (
    <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, overflow: 'hidden' }}>
      {mount.live ? (
        <LivePrompt {...props} minHeight={minHeight} autoFocus={mount.focus} />
      ) : (
        <StaticEditor value={value} label={label} readOnly={readOnly} placeholder={placeholder} minHeight={`${minHeight}px`} maxHeight="420px" wrap highlight={highlight} style={{ fontSize: 13 }} onWake={mount.wake} />
      )}
    </Box>
  );
}
