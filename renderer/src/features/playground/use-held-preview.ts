/**
 * What a pending tool call would do, from its tool node in the shown run: the `attrs.preview`
 * (a file change's diff, bash's command line) a built-in tool held for approval carries, so
 * the playground's card shows it next to Run tool.
 */
import { useAtomValue } from 'jotai';
import { useApp } from '../../state/context';

/** The `attrs.preview` of the shown run's waiting tool node for `toolCallId`, or undefined. */
export function useHeldPreview(toolCallId: string, pending: boolean): unknown {
  const app = useApp();
  const shown = useAtomValue(app.shownRunAtom);
  const tree = useAtomValue(app.stream.runTreeAtom(pending && shown ? shown : ''));
  const nodeId = tree?.structure.order.find((id) => {
    const node = app.store.get(app.stream.nodeAtom(id))?.node;
    return node?.kind === 'tool' && node.toolCallId === toolCallId;
  });
  const view = useAtomValue(app.stream.nodeAtom(nodeId ?? ''));
  return view?.status === 'awaiting_input' ? view.node?.attrs?.preview : undefined;
}
