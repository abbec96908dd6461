/**
 * CodeMirror 6 editors: JSON (monospace, folding, lint, copy) and prompt text (wrapping).
 * A changed value (another window's edit, undo) is applied as the smallest change, so the
 * cursor stays where it is ({@link CodeEditor}).
 */
import { useMemo } from 'react';
import { EditorView } from '@codemirror/view';
import type { BasicSetupOptions } from '@uiw/react-codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { Box, Button, CopyButton, Group, Text } from '@mantine/core';
import { useComputedColorScheme } from '@mantine/core';
import { CodeEditor } from './code-editor';

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
}

/** A JSON editor with folding, parse lint, and a Copy button. */
export function JsonEditor({ value, onChange, readOnly, label, minHeight = 60, maxHeight = 360, error }: JsonEditorProps) {
  const scheme = useComputedColorScheme('light');
  const extensions = useMemo(
    () => [json(), linter(jsonParseLinter()), lintGutter(), EditorView.contentAttributes.of({ 'aria-label': label })],
    [label],
  );
  return (
    <Box>
      <Box pos="relative" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, overflow: 'hidden' }}>
        <CodeEditor
          value={value}
          onChange={onChange}
          readOnly={readOnly}
          theme={scheme}
          extensions={extensions}
          minHeight={`${minHeight}px`}
          maxHeight={`${maxHeight}px`}
          basicSetup={readOnly ? jsonReadOnlySetup : jsonSetup}
          style={{ fontSize: 12 }}
        />
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
}

/** A plain-text prompt editor with wrapping. */
export function PromptEditor({ value, onChange, readOnly, label, placeholder, minHeight = 40 }: PromptEditorProps) {
  const scheme = useComputedColorScheme('light');
  const extensions = useMemo(() => [EditorView.lineWrapping, EditorView.contentAttributes.of({ 'aria-label': label })], [label]);
  return (
    <Box style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, overflow: 'hidden' }}>
      <CodeEditor
        value={value}
        onChange={onChange}
        readOnly={readOnly}
        theme={scheme}
        placeholder={placeholder}
        extensions={extensions}
        minHeight={`${minHeight}px`}
        maxHeight="420px"
        basicSetup={promptSetup}
        style={{ fontSize: 13 }}
      />
    </Box>
  );
}
