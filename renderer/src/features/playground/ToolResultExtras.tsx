/**
 * The parts of a tool result beyond its text and images: embedded resources (shown by type),
 * resource links, and `structuredContent` as JSON, checked against the tool's `outputSchema`
 * with each problem named (MCP 2025-06-18 "Structured Content").
 */
import { Stack, Text } from '@mantine/core';
import type { Tool } from '../../../../shared/thread/tools';
import type { ToolOutput } from '../../../../shared/thread/messages';
import { JsonEditor } from '../../ui/editors';
import { ResourceView } from '../mcp/ResourceView';
import { toJson } from '../../ui/format';
import { validateJson } from './schema-check';

/** Problems of `output.structuredContent` against the tool's `outputSchema` (empty: none, or no schema). */
export function structuredProblems(tool: Tool | undefined, output: ToolOutput): string[] {
  const schema = tool?.type === 'mcp' ? tool.outputSchema : undefined;
  if (!schema || output.isError) return [];
  if (output.structuredContent === undefined) return ['the tool declares an outputSchema but its result has no structuredContent'];
  return validateJson(schema, output.structuredContent).map((p) => `structuredContent${p.replace(/^\(arguments\)/, '')}`);
}

/** Embedded resources, resource links and structured content of one tool result, labelled with `name`. */
export function ToolResultExtras({ name, tool, output }: { name: string; tool: Tool | undefined; output: ToolOutput }) {
  const problems = structuredProblems(tool, output);
  return (
    <Stack gap={4}>
      {output.content.map((p, k) =>
        p.type === 'resource' ? <ResourceView key={k} resource={p.resource} />
        : p.type === 'resource_link' ? <Text key={k} size="xs" ff="monospace">Resource link: {p.uri}{p.name ? ` (${p.name})` : ''}</Text>
        : null,
      )}
      {output.structuredContent !== undefined && <JsonEditor label={`Structured content of ${name}`} value={toJson(output.structuredContent)} readOnly maxHeight={240} />}
      {problems.length > 0 && (
        <Stack gap={0} role="alert" aria-label={`Output schema problems of ${name}`}>
          <Text size="xs" c="red">structuredContent does not match the tool's outputSchema:</Text>
          {problems.map((p) => <Text key={p} size="xs" c="red" ff="monospace">{p}</Text>)}
        </Stack>
      )}
    </Stack>
  );
}
