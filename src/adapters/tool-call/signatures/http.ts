/**
 * HTTP statuses (by class), gateways, proxies, overload and rate limiting.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import { type FamilyTable, range } from './vocabulary.js';

export const HTTP: FamilyTable = {
  timeout: {
    patterns: [
      '\\b(?:request|connect|connection|read|write|socket|gateway|upstream|idle|response|statement|query|operation|execution|handshake|server|client|headers|body|network)[ _-]?timeout(?:error|exception)?\\b',
      '\\bgateway time-?out\\b',
      '\\b408 Request Time-?out\\b',
    ],
    hints: ['timeout', 'gateway time', '408'],
    statuses: [408, 504],
  },
  rateLimit: {
    patterns: [
      '\\btoo many requests\\b',
      '\\btoomanyrequests\\b',
      '\\brate[ _-]?limit(?:ed|ing|s|_exceeded|exceeded)?\\b',
      '\\bslow ?down\\b',
      '\\brequest ?limit ?exceeded\\b',
      '\\btoo many (?:concurrent )?(?:calls|requests|connections|attempts|clients)\\b',
      '\\bexceeded (?:the |your )?(?:\\w+ )?(?:request|call|api|usage) rate\\b',
    ],
    hints: ['too many', 'toomanyrequests', 'rate', 'slow', 'request limit', 'requestlimit'],
    statuses: [429],
  },
  quota: {
    patterns: ['\\bpayment required\\b'],
    hints: ['payment required'],
    statuses: [402],
  },
  permission: {
    patterns: [
      '\\b(?:not |un)authori[sz]ed\\b',
      '\\b40[13] (?:Forbidden|Unauthorized)\\b',
      '^(?:error:\\s*)?forbidden\\b',
      '\\(forbidden\\)',
      '\\bis forbidden\\b',
    ],
    hints: ['authori', 'forbidden'],
    statuses: [401, 403, 407],
  },
  resources: {
    patterns: [],
    hints: [],
    statuses: [507],
  },
  locked: {
    patterns: [],
    hints: [],
    statuses: [423],
  },
  serviceDown: {
    patterns: [
      "\\bcould(?: not|n't) resolve (?:host|hostname|proxy)\\b",
      '\\bname or service not known\\b',
      '\\bproxy ?error\\b',
      '\\btunnel connection failed\\b',
      '\\bupstream (?:connect|request|error|timed|prematurely|sent|server)\\b',
      '\\bno healthy upstream\\b',
      '\\binternal server error\\b',
      '\\bbad gateway\\b',
      '\\bservice (?:temporarily )?unavailable\\b',
      '\\b(?:is |currently |temporarily )unavailable\\b',
      // a reason named in one word (Kubernetes' `(ServiceUnavailable)`, AWS's `ServiceUnavailableException`)
      '\\bserviceunavailable(?:exception|error)?\\b',
      // Kubernetes' 503 and 500 (`the server is currently unable to handle the request`, `an error on
      // the server ("") has prevented the request from succeeding`), Apache's 503
      '\\b(?:currently|temporarily) unable to (?:handle|service) (?:the|your) request\\b',
      '\\ban error on the server\\b[^\\n]{0,200}\\bhas prevented the request from succeeding\\b',
      '\\b5\\d\\d (?:Server Error|Not Implemented|HTTP Version|Insufficient Storage|Network Authentication)',
      '\\bserver error\\b',
      '\\boverloaded(?:_error)?\\b',
      '\\bserver_error\\b',
      '\\bunexpected line format\\b',
      '\\b(?:malformed|incomplete|truncated|garbled|unparseable|unparsable) (?:\\w+ )?response\\b',
      '\\binvalid response from (?:the )?(?:server|upstream|api|model|remote)\\b',
    ],
    hints: [
      'server_error',
      'premature',
      'network',
      'connection',
      'host',
      'stream',
      'resolve',
      'name or service',
      'proxy',
      'tunnel',
      'upstream',
      'internal server error',
      'bad gateway',
      'unavailable',
      'unable to handle',
      'unable to service',
      'prevented the request',
      'server error',
      'not implemented',
      'http version',
      'insufficient storage',
      'network authentication',
      'overloaded',
      'line format',
      'response',
    ],
    statuses: [...range(500, 503), ...range(505, 506), ...range(508, 599)],
  },
  fileMissing: {
    patterns: ['\\b404 Not Found\\b'],
    hints: ['404'],
    statuses: [404, 410],
  },
  validation: {
    patterns: [
      '\\b400 Bad Request\\b',
      '\\b422 Unprocessable\\b',
      '\\bbad request\\b',
      '\\bunprocessable\\b',
      '\\bmethod not allowed\\b',
      '\\b(?:payload|request entity|request|content|input) (?:is )?too large\\b',
    ],
    hints: [
      '400 bad request',
      '422 unprocessable',
      'bad request',
      'unprocessable',
      'method not allowed',
      'too large',
    ],
    statuses: [400, 405, 406, 411, 413, 414, 415, 416, 422, 431],
  },
  conflict: {
    patterns: ['\\b409 Conflict\\b'],
    hints: ['conflict'],
    statuses: [409, 412],
  },
};
