/** Keeps a failing panel from blanking the window: shows what failed, with the stack behind a disclosure. */
import { Component, type ReactNode } from 'react';
import { Box, Button } from '@mantine/core';
import { ErrorNotice } from './ErrorNotice';

export class PanelBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Box p="xs">
        <ErrorNotice title={`The ${this.props.name} panel failed`} message={error.message} hint="Try again; if it keeps failing, reload the window and report the details." details={error.stack} />
        <Button mt="xs" size="xs" variant="light" onClick={() => this.setState({ error: null })}>Try again</Button>
      </Box>
    );
  }
}
