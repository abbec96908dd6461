/**
 * Import of foreign documents into Threads: detection and one importer per format, each
 * `(json, opts?) => Thread`, throwing `ImportError` (naming the input's JSON pointer) on what it
 * cannot convert. Browser-safe.
 */
import type { Thread } from '../schema';
import { migrateThread } from '../migrate';
import { validateThread } from '../validate';
import { ImportError, type ImportOptions, type ImportResult, type ThreadFormat } from './common';
import { detectFormat, FORMAT_HINTS } from './detect';
import { importOpenAIChat } from './openai-chat';
import { importOpenAIResponses } from './openai-responses';
import { importAnthropicMessages } from './anthropic-messages';
import { importLlmSpace, importLlmSpaceDocument } from './llmspace';
import { importOtlpGenAi } from './otlp-genai';

export { detectFormat, FORMAT_HINTS, ImportError, importOpenAIChat, importOpenAIResponses, importAnthropicMessages, importLlmSpace, importOtlpGenAi };
export { FORMAT_NAMES, type ImportOptions, type ImportResult, type ThreadFormat } from './common';
export { importLlmSpaceDocument };

/** Formats a caller may name explicitly (`stepwise import --format`). */
export const IMPORT_FORMATS = ['stepwise', 'llmspace', 'openai-chat', 'openai-responses', 'anthropic-messages', 'otlp-genai'] as const;

/**
 * Converts any supported document to a current Thread: detects the format (or uses `format`),
 * then imports, or for a Stepwise document migrates and validates. Throws ImportError.
 */
export function importThread(json: unknown, opts: ImportOptions & { format?: ThreadFormat } = {}): Thread {
  const format = opts.format ?? detectFormat(json);
  switch (format) {
    case 'stepwise': {
      const checked = validateThread(migrateThread(json));
      if (!checked.ok) throw new ImportError('stepwise', checked.errors);
      return checked.thread;
    }
    case 'llmspace':
      return importLlmSpace(json, opts);
    case 'openai-chat':
      return importOpenAIChat(json, opts);
    case 'openai-responses':
      return importOpenAIResponses(json, opts);
    case 'anthropic-messages':
      return importAnthropicMessages(json, opts);
    case 'otlp-genai':
      return importOtlpGenAi(json, opts).thread;
    default:
      throw new ImportError('unknown', [{ pointer: '', message: `unrecognised format: ${FORMAT_HINTS}` }]);
  }
}

/**
 * Like `importThread`, with everything an import brings: the detected format, run records (LLM
 * Space run history, listed in `thread.runRefs`; the caller stores them) and what could not be
 * kept. Throws ImportError.
 */
export function importDocument(json: unknown, opts: ImportOptions & { format?: ThreadFormat } = {}): ImportResult {
  const format = opts.format ?? detectFormat(json);
  if (format === 'llmspace') return importLlmSpaceDocument(json, opts);
  if (format === 'otlp-genai') return importOtlpGenAi(json, opts);
  const notes: ImportResult['notes'] = [];
  return { format, thread: importThread(json, { ...opts, format, notes }), runs: [], notes };
}
