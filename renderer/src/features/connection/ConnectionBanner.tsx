/**
 * What the window says when it cannot reach its host: while reconnecting, that edits are
 * paused (the playground is read-only meanwhile); once the host refused this page's token,
 * that the session has ended and where to go. Either way the thread on screen can be
 * downloaded, so nothing typed is lost when the page cannot save it.
 */
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import type { ConnectionStatus } from '../../host/types';
import { DISCONNECTED_MESSAGE, SESSION_ENDED_MESSAGE } from '../../host/reconnect';
import { useThread } from '../../state/hooks';
import type { Thread } from '../../../../shared/thread/schema';

/** After this long with nothing answering at the host's address, say it may have moved. */
export const UNREACHABLE_HINT_MS = 10_000;

/** Save `thread` as `<title>.json` through the browser's download. */
export function downloadThread(thread: Thread): void {
  const blob = new Blob([`${JSON.stringify(thread, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${thread.title.replace(/[\\/:*?"<>|]+/g, '_') || 'thread'}.json`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** True once nothing has answered for {@link UNREACHABLE_HINT_MS}; re-renders when that time comes. */
function useLongUnreachable(since: number | undefined): boolean {
  const [, tick] = useState(0);
  const remaining = since === undefined ? undefined : since + UNREACHABLE_HINT_MS - Date.now();
  useEffect(() => {
    if (remaining === undefined || remaining <= 0) return;
    const t = setTimeout(() => tick((n) => n + 1), remaining + 10);
    return () => clearTimeout(t);
  }, [remaining]);
  return remaining !== undefined && remaining <= 0;
}

/** The banner for `status`; nothing while connected (or connecting the first time). */
export function ConnectionBanner({ status }: { status: ConnectionStatus }) {
  const thread = useThread();
  const longUnreachable = useLongUnreachable(status.state === 'reconnecting' ? status.unreachableSince : undefined);
  if (status.state !== 'reconnecting' && status.state !== 'ended') return null;
  const ended = status.state === 'ended';
  const download = thread && (
    <Button size="compact-xs" variant="light" color={ended ? 'red' : 'yellow'} onClick={() => downloadThread(thread)}>
      Download thread
    </Button>
  );
  return (
    <Alert color={ended ? 'red' : 'yellow'} variant="light" title={ended ? 'Session ended' : DISCONNECTED_MESSAGE} aria-label={ended ? 'Session ended' : 'Disconnected'}>
      {ended ? (
        <Text size="sm">{SESSION_ENDED_MESSAGE}</Text>
      ) : (
        <Text size="sm">
          The playground is read-only until then; what it shows is kept, and edits on their way are sent once the page reconnects.
          {longUnreachable && ` Nothing answers at ${location.host}: if the host was restarted, it runs at a new address — open the URL that \`npm start\` printed.`}
        </Text>
      )}
      {download && (
        <Group gap="xs" mt={6} wrap="nowrap">
          {download}
          <Text size="xs" c="dimmed">
            {ended
              ? 'Edits this page could not save are still on screen: the file keeps them; put it in your Stepwise workspace folder to open it again.'
              : 'Saves the thread as shown here, as a JSON file.'}
          </Text>
        </Group>
      )}
    </Alert>
  );
}
