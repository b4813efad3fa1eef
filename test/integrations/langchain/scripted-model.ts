/**
 * LangChain's own fake chat model (`fakeModel()` from `langchain`) answering with a script: each turn
 * either calls tools or says something and stops. It keeps the messages of every call, to show what
 * the model read.
 */
import { AIMessage, type BaseMessage, fakeModel } from 'langchain';

export type ScriptStep =
  | { readonly calls: readonly (readonly [string, Record<string, unknown>])[] }
  | { readonly text: string };

export function scriptedModel(script: readonly ScriptStep[]) {
  const model = fakeModel();
  let callNumber = 0;
  for (const step of script) {
    if ('text' in step) model.respond(new AIMessage(step.text));
    else
      model.respondWithTools(step.calls.map(([name, args]) => ({ name, args, id: `call_${++callNumber}` })));
  }
  return model;
}

/** The tool messages the model read on its `turn`-th call (from 0), in order. */
export function toolMessagesIn(
  model: ReturnType<typeof fakeModel>,
  turn: number,
): { name: string | undefined; text: string; status: string | undefined }[] {
  const messages: BaseMessage[] = model.calls[turn]?.messages ?? [];
  return messages.flatMap((message) =>
    message.type === 'tool'
      ? [
          {
            name: message.name,
            text: message.text,
            status: (message as BaseMessage & { status?: string }).status,
          },
        ]
      : [],
  );
}
