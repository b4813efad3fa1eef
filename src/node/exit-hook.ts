/**
 * One `exit` listener for every open store and journal, however many there are. Handlers run
 * synchronously: once `exit` fires, the event loop is gone and only sync I/O still happens.
 */
const handlers = new Set<() => void>();
let installed = false;

export function onProcessExit(handler: () => void): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', runHandlers);
  }
  handlers.add(handler);
  return () => {
    handlers.delete(handler);
  };
}

function runHandlers(): void {
  for (const handler of [...handlers]) {
    try {
      handler();
    } catch {
      // One failing writer must not keep the others from saving their state.
    }
  }
}
