import { arr, obj, str } from "../../core/json-view.ts";

/**
 * Text of a message's content as most agent logs store it: a plain string, or a list of parts/blocks whose
 * `text` fields are joined by newlines (OpenAI-style content blocks, Gemini parts, SWE-agent and
 * mini-swe-agent history, OpenHands messages). Parts without text (images, tool calls) are left out.
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return arr(content)
    .map((b) => str(obj(b).text))
    .filter(Boolean)
    .join("\n");
}
