export { VERDICT_META_KEY, type VerdictMeta } from '../guard/verdict.js';
export { DEFAULT_HTTP_HOST, type ListenAddress, parseListenAddress } from './address.js';
export { checkHttpExposure, type HttpProxyOptions, runHttpProxy } from './http.js';
export {
  createProxyServer,
  mirroredCapabilities,
  type ProxyServerOptions,
} from './proxy.js';
export {
  MAX_HEADER_VALUE_BYTES,
  MAX_HEADERS,
  parseHeader,
  parseHeaders,
  type RemoteServer,
  redactedUrl,
} from './remote.js';
export {
  DEFAULT_CALL_TIMEOUT_MS,
  type ProxyOptions,
  runStdioProxy,
  type StdioProxyOptions,
} from './stdio.js';
export { DEFAULT_RESTART_POLICY, type RestartPolicy, type UpstreamTarget } from './upstream.js';
export type { UpstreamLink } from './upstream-link.js';
