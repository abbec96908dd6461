/**
 * CodeMirror 6 editors: JSON (monospace, folding, lint, copy) and prompt text (wrapping).
 * A changed value (another window's edit, undo) is applied as the smallest change, so the
 * cursor stays where it is ({@link CodeEditor}).
 */
import { createContext, useContext, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import { EditorView } from '@codemirror/view';
import type { BasicSetupOptions } from '@uiw/react-codemirror';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { linter, lintGutter } from '@codemirror/lint';
import { Box, Button, CopyButton, Group, Text } from '@mantine/core';
import { useComputedColorScheme } from '@mantine/core';
import { CodeEditor, type CodeEditorProps } from './code-editor';
import { templateSupport, type TemplateVariable } from './template-extension';

/**
 * The template variables prompt editors below complete and show on hover; without a provider
 * the editors have no template support.
 */
export const TemplateVariablesContext = createContext<TemplateVariable[] | null>(null);

const jsonSetup: BasicSetupOptions = { foldGutter: true, lineNumbers: true, highlightActiveLine: true, autocompletion: false, history: false };
const jsonReadOnlySetup: BasicSetupOptions = { ...jsonSetup, highlightActiveLine: false };
const promptSetup: BasicSetupOptions = { lineNumbers: false, foldGutter: false, highlightActiveLine: false, autocompletion: false, history: false };
const templatePromptSetup: BasicSetupOptions = { ...promptSetup, autocompletion: true };

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

/** The bordered box both editors sit in. */
const FRAME: CSSProperties = { border: '1px solid var(--mantine-color-default-border)', borderRadius: 4, overflow: 'hidden' };
const JSON_EXTENSIONS = [json(), linter(jsonParseLinter()), lintGutter()];
const PROMPT_EXTENSIONS = [EditorView.lineWrapping];

/**
 * A {@link CodeEditor} in a bordered box, in the window's colour scheme, with `label` as its
 * accessible name (after `extensions`); `children` are laid over the box (a Copy button).
 */
function FramedEditor({ label, extensions, children, ...editor }: Omit<CodeEditorProps, 'theme'> & { label: string; children?: ReactNode }) {
  const theme = useComputedColorScheme('light');
  const named = useMemo(() => [...extensions, EditorView.contentAttributes.of({ 'aria-label': label })], [extensions, label]);
  return (
    <Box pos="relative" style={FRAME}>
      <CodeEditor {...editor} theme={theme} extensions={named} />
      {children}
    </Box>
  );
}

/** A JSON editor with folding, parse lint, and a Copy button. */
export function JsonEditor({ value, onChange, readOnly, label, minHeight = 60, maxHeight = 360, error }: JsonEditorProps) {
  const size = { minHeight: `${minHeight}px`, maxHeight: `${maxHeight}px` };
  return (
    <Box>
      <FramedEditor value={value} onChange={onChange} readOnly={readOnly} label={label} extensions={JSON_EXTENSIONS} {...size}
        basicSetup={readOnly ? jsonReadOnlySetup : jsonSetup} style={{ fontSize: 12 }}>
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
  readOnly?: boolean;
  label: string;
  placeholder?: string;
  minHeight?: number;
}

/** A plain-text prompt editor with wrapping, and template support inside a {@link TemplateVariablesContext}. */
export function PromptEditor({ value, onChange, readOnly, label, placeholder, minHeight = 40 }: PromptEditorProps) {
  const variables = useContext(TemplateVariablesContext);
  const current = useRef(variables);
  current.current = variables;
  const templated = variables !== null;
  const extensions = useMemo(() => (templated ? [...PROMPT_EXTENSIONS, templateSupport(() => current.current ?? [])] : PROMPT_EXTENSIONS), [templated]);
  return (
    <FramedEditor value={value} onChange={onChange} readOnly={readOnly} label={label} placeholder={placeholder} extensions={extensions}
      minHeight={`${minHeight}px`} maxHeight="420px" basicSetup={templated ? templatePromptSetup : promptSetup} style={{ fontSize: 13 }} />
  );
}
