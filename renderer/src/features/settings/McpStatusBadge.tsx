/** An MCP server's connection state as a badge: colour plus word, a spinner while connecting, the reason of a failure on hover. */
import { Badge, Loader } from '@mantine/core';
import type { McpServerInfo } from '../../../../shared/protocol/host-api';

const COLOR: Record<McpServerInfo['status'], string> = { connected: 'teal', connecting: 'yellow', error: 'red', disconnected: 'gray' };

/** The badge of `info.status` ("failed" for `error`, with `info.error` as its title). */
export function McpStatusBadge({ info }: { info: McpServerInfo }) {
  const word = info.status === 'error' ? 'failed' : info.status;
  return (
    <Badge size="xs" variant="light" color={COLOR[info.status]} aria-label={`${info.name}: ${word}`} title={info.error}
      leftSection={info.status === 'connecting' ? <Loader size={8} color="yellow" /> : undefined}>
      {word}
    </Badge>
  );
}
