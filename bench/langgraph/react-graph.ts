// The peer's agent: LangGraph's ReAct shape (agent node → tools node → agent …) with a fake
// tool-calling chat model (no network) and an `echo` tool that answers at once. The same workload
// Looplane's benchmarks run: each turn the model asks for one tool call; after `turns` of them it
// answers. The model "thinks" `thinkMs` before each answer (0 for step overhead, 2,000 for density).
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';

export interface FakeModelOptions {
  /** Tool-calling turns before the final answer. */
  turns: number;
  /** Time the model "thinks" per call, ms. */
  thinkMs: number;
  /** Called as each model call starts (for per-turn timing). */
  onCall?: () => void;
}

/**
 * A chat model whose answer depends only on the conversation: while it holds fewer than `turns`
 * AI messages it asks for `echo`, then it answers. Stateless, so many threads can share one.
 */
export class FakeToolCallingModel extends BaseChatModel {
  constructor(private readonly options: FakeModelOptions) {
    super({});
  }

  override _llmType(): string {
    return 'fake-tool-calling';
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.options.onCall?.();
    if (this.options.thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, this.options.thinkMs));
    const turn = messages.filter((m) => AIMessage.isInstance(m)).length;
    const message =
      turn < this.options.turns
        ? new AIMessage({ content: '', tool_calls: [{ id: `call_${turn}`, name: 'echo', args: { text: `turn ${turn}` }, type: 'tool_call' }] })
        : new AIMessage({ content: 'done' });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** The tool: returns its input at once (0 ms), like Looplane's test `echo`. */
const echo = tool(async ({ text }: { text: string }) => text, {
  name: 'echo',
  description: 'Returns the text it is given.',
  schema: z.object({ text: z.string() }),
});

/** The ReAct graph, compiled with `checkpointer` (or none). */
export function buildReactGraph(model: FakeToolCallingModel, checkpointer?: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state: typeof MessagesAnnotation.State) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode('tools', new ToolNode([echo]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', toolsCondition, ['tools', END])
    .addEdge('tools', 'agent')
    .compile(checkpointer ? { checkpointer } : {});
}

export type Durability = 'sync' | 'async' | 'exit';

/** Runs one thread to its final answer; `turns` bounds the graph's steps (2 per turn). */
export async function runThread(graph: ReturnType<typeof buildReactGraph>, threadId: string, turns: number, durability?: Durability): Promise<BaseMessage[]> {
  const result = await graph.invoke(
    { messages: [new HumanMessage('Call echo once per turn, then answer.')] },
    { configurable: { thread_id: threadId }, recursionLimit: 2 * turns + 10, ...(durability ? { durability } : {}) },
  );
  return result.messages;
}
