import { describe, expect, it } from 'vitest';
import { parseToolArguments } from './tool-arguments.ts';
import { estimateTokens, finalReportToolDefinition } from './tool-definitions.ts';
import { MIN_TOOL_RESPONSE_MAX_BYTES } from './planner-settings.ts';
import { truncateToolResponse, utf8Prefix } from './truncate-response.ts';
import { parseXmlReply, unclosedFinalDecision, xmlSlotId } from './xml-transport.ts';

const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

describe('truncateToolResponse', () => {
  it('keeps every limit, states the true sizes and never splits a character', () => {
    const text = 'aé😀€'.repeat(500);
    for (let limit = 256; limit <= 400; limit += 1) {
      const out = truncateToolResponse(text, limit);
      const match = /^\[TRUNCATED\] Original size (\d+) bytes; truncated to (\d+) bytes\.\n/.exec(out.text)!;
      expect(match, `limit ${limit}`).not.toBeNull();
      expect(Number(match[1])).toBe(bytes(text));
      expect(Number(match[2])).toBe(bytes(out.text));
      expect(bytes(out.text)).toBeLessThanOrEqual(limit);
      // At most one character (4 bytes) of room is left unused.
      expect(limit - bytes(out.text)).toBeLessThanOrEqual(4);
      expect(text.startsWith(out.text.slice(match[0].length))).toBe(true);
    }
  });

  it('handles a limit where the size of Y changes digit count', () => {
    const out = truncateToolResponse('x'.repeat(5000), 1000);
    expect(bytes(out.text)).toBeLessThanOrEqual(1000);
    expect(out.text).toMatch(/truncated to (\d+) bytes/);
    expect(Number(/truncated to (\d+) bytes/.exec(out.text)![1])).toBe(bytes(out.text));
  });

  it('never exceeds any accepted limit, from the smallest one up, and states the true size (agent-contract.md §2)', () => {
    const texts = ['x'.repeat(5000), 'aé😀€'.repeat(500), '😀'.repeat(40)];
    for (const text of texts) {
      for (let limit = MIN_TOOL_RESPONSE_MAX_BYTES; limit <= 400 && limit < bytes(text); limit += 1) {
        const out = truncateToolResponse(text, limit);
        expect(out.truncated).toBe(true);
        expect(bytes(out.text), `limit ${limit}`).toBeLessThanOrEqual(limit);
        expect(out.finalBytes).toBe(bytes(out.text));
        // The notice is always whole and tells the result's own size, never "0 bytes".
        const y = /^\[TRUNCATED\] Original size \d+ bytes; truncated to (\d+) bytes\.\n/.exec(out.text);
        expect(y, `limit ${limit}`).not.toBeNull();
        expect(Number(y![1])).toBe(bytes(out.text));
      }
    }
  });

  it.each([1, 10, 30])('never cuts the notice, even below the accepted limits (%i bytes): it is sent whole', (limit) => {
    // Issue 24: at 30 bytes the notice used to read "[TRUNCATED] Original size 100 ", cut mid-sentence.
    const out = truncateToolResponse('x'.repeat(100), limit);
    expect(out.text).toBe('[TRUNCATED] Original size 100 bytes; truncated to 59 bytes.');
    expect(out.finalBytes).toBe(bytes(out.text));
  });

  it('sends the notice alone when it fits but no content does', () => {
    const out = truncateToolResponse('x'.repeat(5000), 60);
    expect(out.text).toBe('[TRUNCATED] Original size 5000 bytes; truncated to 60 bytes.');
    expect(bytes(out.text)).toBe(60);
  });

  it('keeps multibyte content whole at small limits', () => {
    const out = truncateToolResponse('€'.repeat(100), 70);
    expect(out.text).toBe('[TRUNCATED] Original size 300 bytes; truncated to 69 bytes.\n€€€');
  });

  it('leaves a response within the limit as it is', () => {
    expect(truncateToolResponse('short', 256)).toEqual({ text: 'short', truncated: false, originalBytes: 5, finalBytes: 5 });
  });

  it('cuts UTF-8 prefixes on character boundaries', () => {
    expect(utf8Prefix('é😀', 1)).toBe('');
    expect(utf8Prefix('é😀', 5)).toBe('é');
    expect(utf8Prefix('é😀', 6)).toBe('é😀');
  });
});

describe('parseToolArguments', () => {
  it('parses, repairs, or refuses', () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ ok: true, value: { a: 1 }, repaired: false });
    expect(parseToolArguments('')).toEqual({ ok: true, value: {}, repaired: false });
    expect(parseToolArguments("{'a': 1,}")).toEqual({ ok: true, value: { a: 1 }, repaired: true, repairedText: '{"a": 1}' });
    expect(parseToolArguments('[1]')).toMatchObject({ ok: false });
    expect(parseToolArguments('}}}')).toMatchObject({ ok: false });
    expect(parseToolArguments('plain words')).toMatchObject({ ok: false });
  });
});

describe('token estimate', () => {
  it('is ceil(UTF-8 bytes / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('😀')).toBe(1);
  });

  it('pins the final report format with const', () => {
    const json = finalReportToolDefinition('json');
    expect(json.input_schema.required).toEqual(['report_format', 'content_json']);
    expect((json.input_schema.properties as Record<string, { const?: string }>).report_format.const).toBe('json');
  });
});

describe('XML reply parsing', () => {
  const nonce = 'abcd1234';
  it('accepts unused closed slots, ignores foreign nonces, used and unclosed slots', () => {
    const text = [
      `<ai-agent-${nonce}-0003 tool="t">{"a":1}</ai-agent-${nonce}-0003>`,
      `<ai-agent-${nonce}-0002 tool="t">{}</ai-agent-${nonce}-0002>`,
      `<ai-agent-ffffffff-0004 tool="t">{}</ai-agent-ffffffff-0004>`,
      `<ai-agent-${nonce}-0004 tool="t">{"unclosed":`,
    ].join('\n');
    const parsed = parseXmlReply(text, nonce, { firstFreeSlot: 3, numberedSlots: true });
    expect(parsed.calls).toEqual([{ slot: 3, slotId: xmlSlotId(nonce, 3), tool: 't', payload: '{"a":1}' }]);
    expect(parsed.ignored).toEqual([
      `slot ${nonce}-0002: already used`,
      `slot ${nonce}-0004: no closing tag`,
      "tag ai-agent-ffffffff-0004 at offset 127: not this session's nonce",
    ]);
  });

  it('uses the last FINAL tag and decides unclosed ones by stop reason', () => {
    const text = `<ai-agent-${nonce}-FINAL tool="agent__final_report" format="markdown">one</ai-agent-${nonce}-FINAL><ai-agent-${nonce}-FINAL tool="agent__final_report" format="text">two`;
    expect(parseXmlReply(text, nonce, { firstFreeSlot: 1, numberedSlots: false }).final).toEqual({ format: 'text', content: 'two', closed: false });
    expect([unclosedFinalDecision('stop'), unclosedFinalDecision('length'), unclosedFinalDecision('other')]).toEqual(['accept', 'retry', 'accept_with_warning']);
  });
});
