import { utf8ByteLength } from './tool-definitions.ts';

/** A tool response as it reaches the model, and what truncation did to it. */
export interface TruncatedResponse {
  text: string;
  truncated: boolean;
  /** UTF-8 bytes before truncation. */
  originalBytes: number;
  /** UTF-8 bytes of `text` (the notice included). */
  finalBytes: number;
}

export function truncationNotice(originalBytes: number, finalBytes: number): string {
  return `[TRUNCATED] Original size ${originalBytes} bytes; truncated to ${finalBytes} bytes.`;
}

function utf8CharacterBytes(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}

/** The longest prefix of `text` that fits `maxBytes` of UTF-8 without splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const size = utf8CharacterBytes(character.codePointAt(0)!);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}

/**
 * `toolResponseMaxBytes`: a response over the limit keeps its beginning, with the notice
 * `[TRUNCATED] Original size X bytes; truncated to Y bytes.` prepended. The notice counts inside
 * the limit, Y is the size of the whole result (notice included), and no UTF-8 character is split.
 * The notice's own length depends on the digits of Y, so the cut is searched until they agree.
 * The notice is never cut (issue 24: a cut one read `[TRUNCATED] Original size 100 `): when no
 * content fits beside it, it is sent alone, and below its own size (only a caller that bypasses
 * the settings' minimum, planner-settings.ts' `MIN_TOOL_RESPONSE_MAX_BYTES`, can ask for that) it is still sent whole.
 */
export function truncateToolResponse(text: string, maxBytes: number): TruncatedResponse {
  const originalBytes = utf8ByteLength(text);
  if (originalBytes <= maxBytes) return { text, truncated: false, originalBytes, finalBytes: originalBytes };
  const limit = Math.max(0, Math.floor(maxBytes));
  // The notice's bytes without Y's digits (the notice is ASCII).
  const noticeBase = utf8ByteLength(truncationNotice(originalBytes, 0)) - 1;
  for (let digits = String(limit).length; digits >= 1; digits -= 1) {
    // The notice with a Y of `digits` digits, and the newline that separates it from the content.
    const noticeBytes = noticeBase + digits + 1;
    for (let budget = limit - noticeBytes; budget >= 1; budget -= 1) {
      const kept = utf8Prefix(text, budget);
      if (kept === '') break;
      const finalBytes = noticeBytes + utf8ByteLength(kept);
      if (String(finalBytes).length === digits) {
        return { text: `${truncationNotice(originalBytes, finalBytes)}\n${kept}`, truncated: true, originalBytes, finalBytes };
      }
      // Fewer digits than assumed: the next (shorter) notice width is tried by the outer loop.
      if (String(finalBytes).length < digits) break;
    }
  }
  // No content fits: the notice alone, whole, Y being its own size (the fitting width when there is one).
  for (let digits = String(limit).length; digits >= 1; digits -= 1) {
    const finalBytes = noticeBase + digits;
    if (finalBytes <= limit && String(finalBytes).length === digits) {
      return { text: truncationNotice(originalBytes, finalBytes), truncated: true, originalBytes, finalBytes };
    }
  }
  const whole = noticeBase + String(noticeBase + 2).length;
  return { text: truncationNotice(originalBytes, whole), truncated: true, originalBytes, finalBytes: whole };
}
