/**
 * Tool protocols and agent harnesses: MCP and JSON-RPC errors, schemas, cancellation, harness state.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const TOOL_PROTOCOLS: FamilyTable = {
  schema: {
    patterns: [
      'mcp error -32602: (?:input validation error|invalid arguments|invalid params)\\b',
      '\\binput ?validation ?error\\b',
      '\\binvalid arguments for tool\\b',
    ],
    hints: ['-32602', 'validation', 'invalid arguments'],
  },
  unavailable: {
    patterns: [
      '\\bmcp server\\b[^\\n]{0,80}\\b(?:not connected|disconnected|closed|failed to start|crashed|not running|exited|not available|unavailable)\\b',
      '^(?:error: )?not connected\\b',
      '\\b(?:client|server|transport|session) (?:is )?(?:closed|disconnected)\\b',
      '\\btransport error\\b',
      'mcp error -32000\\b',
      // a missing, unconfigured or unstarted MCP server: every call of its tools fails alike
      '\\bmcp server\\b[^\\n]{0,80}\\b(?:not found|not configured|unknown|does not exist|is not installed|missing|not registered|not enabled)\\b',
      '\\b(?:no|unknown) (?:such )?mcp server\\b',
      '\\bno mcp servers? (?:is |are )?(?:configured|connected|available|running)\\b',
      '\\b(?:failed|unable) to (?:start|launch|spawn|initiali[sz]e) (?:the )?(?:mcp )?server\\b',
      '\\bmcp (?:client|connection) (?:is )?(?:not (?:connected|initiali[sz]ed|ready)|closed|lost)\\b',
      // a server that offers no tools at all, or whose list of them could not be had
      '\\bserver does not support (?:tools|prompts|resources|sampling|completions?|logging)\\b',
      "\\b(?:error|failed|failure|unable|could not|couldn't|cannot) (?:to )?(?:retriev|fetch|load|get|list)\\w* (?:the )?(?:tool ?list|list of tools|tools list)\\b",
      // the stream to a server closed under the call (the MCP Python SDK's anyio `ClosedResourceError`)
      '\\bclosedresourceerror\\b',
    ],
    hints: [
      'does not support',
      'tool list',
      'toollist',
      'list of tools',
      'tools list',
      'closedresourceerror',
      'not running',
      'not available',
      'server',
      'mcp server',
      'not connected',
      'closed',
      'disconnected',
      'transport error',
      '-32000',
      'crashed',
      'mcp server',
      'mcp servers',
      'to start',
      'to launch',
      'to spawn',
      'to initiali',
      'mcp client',
      'mcp connection',
    ],
  },
  harnessState: {
    patterns: [
      '\\btool_use(?:_id)?\\b[^\\n]{0,200}\\btool_result\\b',
      '\\btool_result\\b[^\\n]{0,200}\\btool_use\\b',
      // the same pairing in OpenAI's chat API and the APIs that copy it (`messages with role 'tool'
      // must be a response to a preceeding message with 'tool_calls'`, `… 'tool_calls' must be
      // followed by tool messages responding to each 'tool_call_id'`): the conversation the host sent
      '\\brole [\'"]?tool[\'"]? must be a response to a prece',
      '\\btool_calls\\b[^\\n]{0,200}\\btool_call_id\\b',
      // a model API refusing the tool list the harness sent (`invalid_request_error … tools.0.custom.name:
      // String should match pattern`): no call's arguments are in question
      '\\binvalid_request_error\\b[^\\n]{0,200}\\btools\\.\\d+\\.[\\w.]+',
      // a model API refusing a tool call the conversation holds (`messages.15.content.1.toolUse.input is
      // invalid`, `messages.1.content.0.tool_use.input: Input should be an object`): the host sent it
      '\\bmessages\\.\\d+\\.content\\.\\d+\\.(?:tool_use|tooluse)\\.input\\b',
    ],
    hints: [
      'tool_use',
      'tool_result',
      'invalid_request_error',
      'must be a response to',
      'tool_call_id',
      'tooluse.input',
    ],
  },
  cancelled: {
    patterns: [
      '\\brequest (?:was |has been )?cancel+ed\\b',
      '\\b(?:operation|request|call|task|tool call) was (?:aborted|cancel+ed)\\b',
      '\\bcancel+ed by (?:the )?(?:user|client|caller)\\b',
      '\\b(?:AbortError|CancelledError|CanceledError|OperationCanceledException|TaskCanceledException)\\b',
      '\\bMCP error -32800\\b',
      // stopped from outside: cancelled, interrupted, or abandoned because a sibling call errored
      '\\bsibling tool call errored\\b',
      '\\b(?:parallel|sibling|concurrent|another|previous) (?:tool )?(?:call|tool use|request|command)\\b[^\\n]{0,120}\\b(?:errored|failed|was cancel+ed)\\b',
      '^\\W{0,3}(?:cancel+ed|interrupted|aborted)\\W{0,3}$',
      '^(?:error: )?(?:cancel+ed|interrupted|aborted)\\b[:.]',
      '\\b(?:tool (?:call|use|execution)|execution|command|operation) (?:was |has been )?(?:cancel+ed|interrupted|aborted|skipped)\\b',
      '\\b(?:context|task|job|run|step) (?:was )?cancel+ed\\b',
      '\\b(?:interrupted|cancel+ed|stopped|aborted) by (?:the )?user\\b',
      '\\brequest interrupted\\b',
      '\\buser (?:rejected|denied|declined|cancel+ed|interrupted|aborted)\\b',
      "\\b(?:doesn't|does not) want to (?:proceed|take this action|run)\\b",
      '\\btool use was rejected\\b',
      '\\bKeyboardInterrupt\\b',
    ],
    hints: [
      'cancel',
      'abort',
      '-32800',
      'sibling',
      'parallel',
      'concurrent',
      'another',
      'previous',
      'cancel',
      'interrupted',
      'aborted',
      'skipped',
      'stopped',
      'rejected',
      'denied',
      'declined',
      'want to',
      'keyboardinterrupt',
    ],
  },
  toolMissing: {
    patterns: [
      // a tool, or a skill a host's tool loads by name (`Unknown skill: deploy`), it does not have
      '\\b(?:unknown|unrecognized|unsupported|invalid) (?:tool|skill)\\b',
      '\\bno such tool\\b',
      // the AI SDK's `AI_NoSuchToolError: Model tried to call unavailable tool 'search'`
      '\\b(?:ai_)?nosuchtoolerror\\b',
      '\\b(?:tried|attempted) to call (?:an? )?(?:unavailable|unknown|non-?existent|undefined) tool\\b',
      // a kernel whose plugins hold no function by the names the call gave (Semantic Kernel's `The plugin
      // collection does not contain a plugin and/or function with the specified names`)
      '\\bdoes not contain an? (?:plugin|function|tool)s?\\b[^\\n]{0,60}\\bwith the (?:specified|given) names?\\b',
      '\\btool\\s*[\'"`]?[\\w.:/-]{0,100}[\'"`]?\\s+(?:was |is )?not (?:found|available|registered)\\b',
      '\\btool\\s+(?:[\'"`][\\w.:/-]{1,100}[\'"`]|[\\w.:-]{1,100})\\s+does not exist\\b',
      '\\bmethod not found\\b',
      'mcp error -32601\\b',
      // a tool its server withdrew (`The call_aws tool has been removed, use …`)
      '\\btool (?:has been|was) (?:removed|deprecated and removed|withdrawn)\\b',
    ],
    hints: ['tool', 'skill', 'method not found', '-32601', 'with the specified name', 'with the given name'],
  },
  validation: {
    patterns: [
      '\\bvalidat(?:ion|e) (?:error|failed)\\b',
      // what a checker says of the input it refused (`error validating data: [kind not set]`,
      // `Migrations have failed validation`), never of a certificate it could not check
      '\\berror validating\\b(?! (?:the )?(?:server |peer |tls |ssl |x509 )?certificate)',
      '\\bfailed validation\\b',
      '\\bValidationError\\b',
      '\\bZodError\\b',
      '\\binvalid_type\\b',
      'MCP error -32602\\b',
      // a value the call left empty (`project name cannot be empty`)
      "\\b(?:cannot|can't|must not|may not|should not) be (?:empty|blank)\\b",
    ],
    hints: ['validat', 'zoderror', 'invalid_type', 'invalid', '-32602', 'be empty', 'be blank'],
  },
  apiOther: {
    patterns: [
      '\\bAPI error\\b',
      'MCP error -32603\\b',
      '\\binternal error\\b',
      '\\bunexpected server response\\b',
      '\\bthis is an error with \\S+ itself\\b',
      '\\bexit handler never called\\b',
      '\\bunexpected error: (?:none|null|undefined)\\b',
    ],
    hints: [
      'api error',
      '-32603',
      'internal error',
      'unexpected server response',
      'itself',
      'exit handler',
      'unexpected error',
    ],
  },
  crashedServer: {
    patterns: ['\\bcrashed the mcp server\\b'],
    hints: ['crashed the mcp server'],
  },
  /** the tool failed inside itself: an exception in its own code says nothing about the call */
  toolFault: {
    patterns: [
      '\\berror (?:executing|calling|running|invoking|in) (?:mcp )?tool\\b[^\\n]{0,160}\\b(?:TypeError|AttributeError|KeyError|IndexError|ValueError|NameError|ReferenceError|NullPointerException|NoneType|undefined|null|object has no attribute|is not a function|is not iterable|cannot read propert)',
      'mcp error -32603: (?:internal error: )?(?:[\\w.]*(?:TypeError|AttributeError|KeyError|IndexError|ReferenceError|NameError|UnboundLocalError|RuntimeError|Exception)\\b|cannot read propert|[^\\n]{0,80}is not a function|[^\\n]{0,80}object has no attribute|[^\\n]{0,80}is not iterable)',
      '\\b(?:an? )?(?:unexpected |unhandled |internal )(?:error|exception) (?:occurred |happened )?(?:in|inside|within|while (?:executing|running|calling)) (?:the )?(?:tool|server|plugin|extension)\\b',
      '\\btool (?:execution |call )?(?:raised|threw) an? (?:unexpected |unhandled )?(?:error|exception)\\b',
      '\\binternal (?:tool|server|plugin) error\\b',
      // a plugin that crashed under its host's call (Terraform's `Plugin did not respond`)
      "\\bplugin (?:did not|didn't) respond\\b",
      // a tool whose own declaration its host cannot use (`Invalid argument: MCP tool 'x' has an
      // invalid schema: …`), read with the host's framing words, which are not the call's verdict
      '\\b(?:invalid argument: )?(?:mcp )?tool [`"\'‘]?[\\w.-]{1,100}[`"\'’]? has an invalid (?:input )?schema\\b',
      '\\b(?:this|it) is (?:likely |probably )?a bug in (?:the )?(?:tool|server|plugin|extension|mcp server)\\b',
      // a hook of the host's configuration that failed to run around the call (`PostToolUse:Write hook
      // error — /bin/sh: python: command not found`): what it printed is the hook's, not the call's
      '\\b(?:pre|post)tooluse(?:failure)?:[\\w.*|-]{1,100} hook error\\b',
      // a tool's declaration its host could not validate (`Failed to validate tool query_db: Error: tool
      // parameters array type must have items`), not the call's input
      '\\bfailed to validate tool (?!(?:inputs?|arguments?|args|calls?|parameters?|params|results?|outputs?)\\b)[\\w.-]{1,100}: ',
      '\\barray (?:type|schema) (?:must have|missing) items\\b',
    ],
    hints: [
      'failed to validate tool',
      'must have items',
      'missing items',
      'hook error',
      'plugin did not respond',
      "plugin didn't respond",
      'has an invalid schema',
      'has an invalid input schema',
      'error executing',
      'error calling',
      'error running',
      'error invoking',
      'error in',
      '-32603',
      'unexpected',
      'unhandled',
      'internal',
      'tool',
      'raised',
      'threw',
      'bug in',
    ],
  },
};
