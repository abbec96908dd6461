/** A text field whose suggestions come from the server (`completion/complete`) as the user types. */
import { useEffect, useState } from 'react';
import { Autocomplete } from '@mantine/core';
import type { McpCompleteRef } from '../../../../shared/protocol/contract/mcp-resources';
import { useApp } from '../../state/context';

/** One argument (`name`) of `completeRef` on `server`; `context` holds the other arguments' values. */
export function CompletedField({ server, completeRef, name, label, description, required, value, context, onChange }: {
  server: string;
  completeRef: McpCompleteRef;
  name: string;
  label: string;
  description?: string;
  required?: boolean;
  value: string;
  context: Record<string, string>;
  onChange(v: string): void;
}) {
  const app = useApp();
  const [options, setOptions] = useState<string[]>([]);
  const key = JSON.stringify([context, completeRef]);
  useEffect(() => {
    let live = true;
    // A server without completions, or one that fails, just offers nothing.
    app.host.call('mcp.complete', { server, ref: completeRef, argument: { name, value }, context }).then((r) => live && setOptions(r.values.slice(0, 100)), () => live && setOptions([]));
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `context` and `completeRef` by value (key)
  }, [app, server, name, value, key]);
  return <Autocomplete label={label} description={description} withAsterisk={required} data={options} value={value} onChange={onChange} />;
}
