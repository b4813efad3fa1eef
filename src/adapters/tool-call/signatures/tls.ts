/**
 * Certificates and TLS handshakes.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const TLS: FamilyTable = {
  serviceDown: {
    patterns: [
      '\\bnet::err_(?:connection_\\w+|name_not_resolved|internet_disconnected|network_\\w+|address_unreachable|ssl_\\w+|cert_\\w+|proxy_\\w+|tunnel_connection_failed|empty_response|http2_\\w+|socket_not_connected)\\b',
      '\\bssl certificate problem\\b',
      '\\bcertificate (?:verify failed|has expired|is not (?:yet )?valid|not trusted|signed by unknown authority|verification failed|unknown|is not trusted)\\b',
      '\\bcertificate_verify_failed\\b',
      '\\bself[- ]signed certificate\\b',
      '\\bunable to (?:get local issuer|verify the first) certificate\\b',
      '\\bunable_to_(?:get_issuer_cert|verify_leaf_signature)\\w*\\b',
      '\\b(?:depth_zero_self_signed_cert|self_signed_cert_in_chain|cert_has_expired|err_tls_cert_altname_invalid|err_cert_\\w+)\\b',
      '\\bx509: ',
      '\\bsslerror\\b',
      '\\bssl(?:_| )(?:error|handshake|routines)\\b',
      // OpenSSL's and NSS's error names (`SSL_ERROR_SYSCALL`: the connection failed under the handshake)
      '\\bssl_error_\\w+',
      // Python's `ssl.SSLEOFError: EOF occurred in violation of protocol`
      '\\bssl(?:eof|zeroreturn|syscall)error\\b',
      '\\beof occurred in violation of protocol\\b',
      '\\btls(?:_| )(?:handshake|error|alert)\\b',
      '\\btls: ',
      '\\bhandshake (?:failure|failed)\\b',
      '\\bwrong version number\\b',
      '\\bsslhandshakeexception\\b',
      '\\bpkix path building failed\\b',
      '\\bno alternative certificate subject name\\b',
      '\\bhostname mismatch\\b',
      "\\bis not in the cert's altnames\\b",
      '\\bcannot verify [^\\n]{0,80}certificate\\b',
      '\\bcertificate verification failed\\b',
      "\\bcertificate of [^\\n]{1,80} (?:is not trusted|has expired|doesn't have a known issuer)",
    ],
    hints: [
      'unreach',
      'socket',
      'network',
      'connection',
      'disconnected',
      'failure',
      'host',
      'net::err_',
      'resolve',
      'certificate',
      'unable_to_',
      'self_signed',
      'cert_',
      'x509',
      'ssl',
      'tls',
      'handshake',
      'violation of protocol',
      'wrong version number',
      'pkix',
      'hostname mismatch',
      'altnames',
      'proxy',
      'tunnel',
      'response',
    ],
  },
};
