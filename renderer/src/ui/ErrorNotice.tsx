/** An error that says what failed and what to try, with raw details behind a copyable disclosure. */
import { useState } from 'react';
import { Alert, Anchor, Code, CopyButton, Button, Group, Collapse, Text } from '@mantine/core';

export interface ErrorNoticeProps {
  /** What failed, where. */
  title: string;
  message: string;
  /** What to try next. */
  hint?: string;
  /** Raw details (HTTP status, JSON-RPC error, stack). */
  details?: string;
  /** What it is about, from a host notice's `key`: a later notice with that key ends it. */
  noticeKey?: string;
  onClose?: () => void;
}

/** Inline error with a "Details" disclosure and a Copy button. */
export function ErrorNotice({ title, message, hint, details, onClose }: ErrorNoticeProps) {
  const [open, setOpen] = useState(false);
  return (
    <Alert color="red" variant="light" title={title} withCloseButton={!!onClose} onClose={onClose} closeButtonLabel="Dismiss error">
      <Text size="sm">{message}</Text>
      {hint && (
        <Text size="sm" c="dimmed" mt={4}>
          {hint}
        </Text>
      )}
      {details && (
        <>
          <Anchor component="button" type="button" size="xs" mt={6} onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? 'Hide details' : 'Details'}
          </Anchor>
          <Collapse expanded={open}>
            <Code block mt={6} style={{ maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap' }}>
              {details}
            </Code>
            <Group mt={4}>
              <CopyButton value={details}>
                {({ copied, copy }) => (
                  <Button size="compact-xs" variant="subtle" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Collapse>
        </>
      )}
    </Alert>
  );
}

/** Turn anything thrown into notice props. */
export function errorProps(title: string, err: unknown, hint?: string): ErrorNoticeProps {
  const e = err as { message?: string; code?: string; method?: string; stack?: string; details?: string };
  const details = [e?.code && `code: ${e.code}`, e?.method && `method: ${e.method}`, e?.details, e?.stack].filter(Boolean).join('\n');
  return { title, message: String(e?.message ?? err), hint, details: details || undefined };
}
