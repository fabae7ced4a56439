import type { InternalToolDefinition } from '../../toolcanon/internal-definition.ts';
import type { ChatMessage, LlmResponse } from '../provider-types.ts';
import type { SessionCore } from './session-core.ts';
import type { ForcedFinalReason } from './session-types.ts';
import { forcedFinalNotice } from './system-prompt.ts';
import { FINAL_REPORT_TOOL } from './tool-definitions.ts';
import { parseXmlReply, xmlNextMessage, type XmlParseResult } from './xml-transport.ts';

/**
 * The three transports (agent-contract.md §11): `native` (tool calls and the final report as
 * provider tools), `xml-final` (native tools, the final report in the FINAL slot) and `xml` (every
 * call in numbered slots, no provider tools). What each offers and how a reply is read.
 */

/** The tools offered on a request given the forced-final state (the set itself is fixed at discovery). */
export function offeredDefinitions(core: SessionCore, forced: ForcedFinalReason | null): InternalToolDefinition[] {
  return forced ? [core.discovery.finalReport] : [...core.discovery.definitions, core.discovery.finalReport];
}

/** What goes in the request's `tools`: none in xml mode, no final report in xml-final mode. */
export function providerTools(core: SessionCore): InternalToolDefinition[] {
  if (core.settings.transport === 'xml') return [];
  if (core.settings.transport === 'xml-final') return core.forcedFinal ? [] : [...core.discovery.definitions];
  return offeredDefinitions(core, core.forcedFinal);
}

export function isOffered(core: SessionCore, name: string): boolean {
  if (name === FINAL_REPORT_TOOL) return core.settings.transport === 'native';
  return core.forcedFinal === null && core.discovery.definitions.some((definition) => definition.name === name);
}

/** The ephemeral messages of a request: the forced-final instruction, retry notices, XML-NEXT. Never stored. */
export function ephemeralMessages(core: SessionCore, notices: ReadonlyArray<string>): ChatMessage[] {
  const { settings } = core;
  const messages: ChatMessage[] = [];
  if (core.forcedFinal && settings.transport === 'native') messages.push({ role: 'system', content: forcedFinalNotice(core.forcedFinal) });
  for (const notice of notices) messages.push({ role: 'user', content: notice });
  if (settings.transport !== 'native') {
    messages.push({
      role: 'user',
      content: xmlNextMessage({
        mode: settings.transport,
        nonce: core.nonce,
        firstFreeSlot: core.nextSlot,
        slotCount: settings.maxToolCallsPerTurn,
        tools: core.discovery.definitions,
        reportFormat: settings.reportFormat,
        forcedFinal: core.forcedFinal !== null,
      }),
    });
  }
  return messages;
}

/** The XML tags of a reply (null in the native transport). */
export function readXml(core: SessionCore, response: LlmResponse): XmlParseResult | null {
  if (core.settings.transport === 'native') return null;
  return parseXmlReply(response.text, core.nonce, { firstFreeSlot: core.nextSlot, numberedSlots: core.settings.transport === 'xml' && core.forcedFinal === null });
}
