/**
 * The playground below its header, in the chosen layout (state/layout.ts): stacked — the
 * thread's settings, then the messages, in one scroll — or side by side, settings and messages
 * in two resizable panels that scroll on their own (their split is remembered).
 */
import { Divider, ScrollArea, Stack } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { Group as PanelGroup, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { playgroundLayoutAtom } from '../../state/layout';

/**
 * `settings`: the model, tools, system prompt and variables sections; `messages`: the message
 * list section. `messagesScrollRef` / `messagesScrollProps` go on the scroll viewport that holds
 * the messages (the one scroll when stacked, the messages panel's side by side): the virtualised
 * list measures and scrolls it.
 */
export function PlaygroundBody({ settings, settingsId, messages, messagesScrollRef, messagesScrollProps }: {
  /** Null while folded (state/settings-fold.ts). */
  settings: React.ReactNode;
  settingsId?: string;
  messages: React.ReactNode;
  messagesScrollRef?: React.Ref<HTMLDivElement>;
  messagesScrollProps?: React.ComponentProps<'div'>;
}) {
  const layout = useAtomValue(playgroundLayoutAtom);
  const split = useDefaultLayout({ id: 'stepwise-playground-split', storage: localStorage });
  if (layout !== 'side-by-side') {
    return (
      <ScrollArea style={{ flex: 1 }} type="auto" viewportRef={messagesScrollRef} viewportProps={messagesScrollProps}>
        <Stack gap="md" p="sm">
          {settings && <Stack gap="md" id={settingsId} role="region" aria-label="Thread settings">{settings}</Stack>}
          {settings && messages && <Divider />}
          {messages}
        </Stack>
      </ScrollArea>
    );
  }
  return (
    <div style={{ flex: 1, minHeight: 0 }}>
      <PanelGroup orientation="horizontal" defaultLayout={split.defaultLayout} onLayoutChanged={split.onLayoutChanged} style={{ height: '100%' }}>
        <Panel id="thread-settings" defaultSize="42%" minSize="20%">
          <ScrollArea h="100%" type="auto" role="region" aria-label="Thread settings">
            <Stack gap="md" p="sm" id={settingsId}>{settings}</Stack>
          </ScrollArea>
        </Panel>
        <Separator className="sw-sep" aria-label="Resize settings and messages" />
        <Panel id="thread-messages" defaultSize="58%" minSize="25%">
          <ScrollArea h="100%" type="auto" role="region" aria-label="Message list" viewportRef={messagesScrollRef} viewportProps={messagesScrollProps}>
            <Stack gap="md" p="sm">{messages}</Stack>
          </ScrollArea>
        </Panel>
      </PanelGroup>
    </div>
  );
}
