import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface RemoteServerHandle {
  readonly url: URL;
  /** The Authorization header of every request that reached the server, in order. */
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

/** A real MCP server of the SDK (v1) with one tool, the kind of server a remote MCP service runs. */
function mcpServer(): Server {
  const server = new Server({ name: 'orders', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'lookup_order',
        description: 'Looks an order up by id.',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: 'text', text: `Order ${String(request.params.arguments?.id)}: shipped.` }],
  }));
  return server;
}

const NOT_FOUND_PAGE =
  '<!DOCTYPE html>\n<html lang="en">\n<head><title>Error</title></head>\n<body><pre>Cannot POST /sse</pre></body>\n</html>\n';
const UNAUTHORIZED_PAGE = '<!DOCTYPE html>\n<html><body><h1>401 Unauthorized</h1></body></html>\n';

/**
 * An MCP server on loopback that wants `Authorization: Bearer <token>`: `streamable-http` serves
 * Streamable HTTP statelessly at /mcp; `sse` serves the legacy HTTP+SSE transport (GET /sse, then
 * POST /messages) and answers a POST to /sse with the HTML 404 an Express app gives.
 */
export async function startRemoteServer(
  kind: 'streamable-http' | 'sse',
  token: string,
): Promise<RemoteServerHandle> {
  const authorizations: (string | undefined)[] = [];
  const sessions = new Map<string, SSEServerTransport>();
  const authorized = (req: IncomingMessage) => {
    authorizations.push(req.headers.authorization);
    return req.headers.authorization === `Bearer ${token}`;
  };
  const http: HttpServer = createServer(async (req, res) => {
    if (!authorized(req)) {
      res.writeHead(401, { 'Content-Type': 'text/html' }).end(UNAUTHORIZED_PAGE);
      return;
    }
    const path = new URL(req.url ?? '/', 'http://server').pathname;
    if (kind === 'streamable-http' && path === '/mcp') {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = mcpServer();
      res.on('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(req, res);
      return;
    }
    if (kind === 'sse' && path === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      await mcpServer().connect(transport);
      return;
    }
    if (kind === 'sse' && path === '/messages' && req.method === 'POST') {
      const session = new URL(req.url ?? '/', 'http://server').searchParams.get('sessionId') ?? '';
      const transport = sessions.get(session);
      if (transport) await transport.handlePostMessage(req, res);
      else res.writeHead(404).end('Unknown session');
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end(NOT_FOUND_PAGE);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const url = new URL(`http://127.0.0.1:${port}${kind === 'sse' ? '/sse' : '/mcp'}`);
  return {
    url,
    authorizations,
    close: async () => {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
