import type { ModelRequest, PromptMessage, ToolDefinition } from '@looplane/engine';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

/** Maps an engine message onto the Chat Completions wire format. */
function toChatMessage(message: PromptMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      // `content: null` with tool calls is what the protocol expects; some servers refuse "".
      return message.toolCalls.length === 0
        ? { role: 'assistant', content: message.content }
        : {
            role: 'assistant',
            content: message.content || null,
            tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
          };
  }
}

function toChatTool(tool: ToolDefinition): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

export interface ChatRequestOptions {
  model: string;
  maxTokensParam: 'max_tokens' | 'max_completion_tokens';
  temperature: number | undefined;
}

/** The body shared by streamed and plain calls. An empty tool list is omitted: some servers reject `tools: []`. */
export function toChatRequest(request: ModelRequest, options: ChatRequestOptions) {
  return {
    model: options.model,
    messages: request.messages.map(toChatMessage),
    ...(request.tools.length > 0 ? { tools: request.tools.map(toChatTool) } : {}),
    [options.maxTokensParam]: request.maxOutputTokens,
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
}
