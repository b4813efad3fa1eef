/**
 * Shells and command lines: unknown commands, usage errors, exit statuses.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const SHELLS: FamilyTable = {
  wrongDirectory: {
    patterns: [
      '\\b(?:no makefile|no pom|no dockerfile|no gemfile|no procfile|no rakefile)\\b[^\\n]{0,40}\\b(?:found|in this directory)\\b',
      '\\bno targets specified\\b',
      // a workspace tool run outside any workspace (`no west workspace found from "/workdir"`)
      '\\bno [\\w-]{1,30} workspace found\\b',
    ],
    hints: [
      'no makefile',
      'no pom',
      'no dockerfile',
      'no gemfile',
      'no procfile',
      'no rakefile',
      'no targets',
      'workspace found',
    ],
  },
  idMissing: {
    patterns: [
      // a module, action or plugin a tool could not resolve by its name (`couldn't resolve
      // module/action 'ansible.posix.synchronize'`), and CMake's package it did not find
      "\\b(?:could not|couldn't|cannot|can't|unable to) resolve (?:the )?(?:module|action|plugin|collection|role)s?\\b",
      '\\bto find a package configuration file provided by\\b',
      '\\bno rule to make target\\b',
    ],
    hints: ['resolve', 'package configuration file', 'no rule to make'],
  },
  syntax: {
    patterns: [
      "\\bunterminated (?:\\w+|`s' command)",
      '\\bmissing separator\\b',
      '\\bunmatched [`\'"()\\[\\]{}]',
      "\\bunexpected (?:EOF|`[^`\\n]{0,20}')",
      '\\bbad config line\\b',
      "\\bcan't find string terminator\\b",
      '\\bincomplete input\\b',
      // A harness that could not read the line it was sent: the same text is refused every time.
      '^malformed (?:shell )?(?:command|command line|input)\\b',
      "\\b(?:could not|couldn't|cannot|can't|failed to|unable to) parse (?:the |your )?(?:shell )?(?:command|command line)\\b",
      // the same refusal said of the command (Gemini CLI's check of a line before it runs it)
      '^command rejected because it could not be parsed\\b',
    ],
    hints: [
      'malformed',
      'parse',
      'unexpected',
      'unterminated',
      'missing separator',
      'unmatched',
      'bad config line',
      'string terminator',
      'incomplete input',
      'expected',
    ],
  },
  usage: {
    patterns: [
      '\\b(?:unknown|unrecognized|unrecognised|invalid|illegal|bad|unsupported|unexpected) (?:[\\w-]+ ){0,2}?(?:argument|parameter|param|option|flag|switch|choice|command|subcommand|action|method|operation|function|op|keyword argument|property|compiler option|value|mode|number|date|time interval|literal|id|identifier|field|key|format|type|input|version|url|uri)s?\\b',
      '\\boption [^\\n]{1,40}:? is unknown\\b',
      // clap before version 4 (`error: Found argument 'xdg' which wasn't expected, or isn't valid in this context`)
      "\\bfound argument [^\\n]{1,100}? which wasn't expected\\b",
      // a text game refusing a command that does nothing where the player stands (ALFWorld)
      '^nothing happens\\.?$',
      // kubectl asked for a kind of resource its cluster does not have (`the server doesn't have a resource type "podz"`)
      "\\bthe server doesn't have a resource type\\b",
      '\\bno value for required\\b',
      '\\brequired arguments? (?:were |was )?not provided\\b',
      '\\bis not an? (?:\\S+ )?(?:command|option|subcommand)\\b',
      '\\bhas no command named\\b',
      '\\bno such (?:command|option|subcommand)\\b',
      '\\b(?:missing|required) (?:required )?(?:argument|parameter|property|field|option|operand|value|destination|file operand)s?\\b',
      '\\bis a required (?:property|field|argument|parameter)\\b',
      // a parameter named, then said to be required (an editor's `Parameter \`old_str\` is required
      // for command: str_replace.`)
      '\\b(?:property|field|argument|parameter|option) [`\'"]?[\\w.-]{1,64}[`\'"]? is required\\b',
      '\\brequires? (?:an? )?(?:argument|value|parameter)\\b',
      '\\bneeds an argument\\b',
      // a call that names no target where several answer (`adb: error: more than one device/emulator`)
      '\\bmore than one (?:device|emulator)\\b',
      // a command that cannot tell which of several it should act on, or a part the call named that
      // its package lacks (`cargo run` could not determine which binary to run, `does not have these
      // features`)
      '\\bcould not determine which [\\w ]{1,30}? to (?:run|modify|build|use|test)\\b',
      '\\ba bin target must be available\\b',
      '\\bdoes not have (?:these|this|that|the) features?\\b',
      // a tool that asks for another call first (`No open pages available. Use the "browser_navigate"
      // tool to navigate to a page first.`): the call came out of order
      '\\buse (?:the )?[`"\'‘“]?[\\w.-]{1,60}[`"\'’”]? tool (?:to [^\\n.]{1,60} )?first\\b',
      // `This command needs 2 arguments: release name, chart path`, `accepts 1 arg(s), received 0`
      '\\b(?:needs|requires|expects|accepts) (?:at least |at most |exactly )?\\d+ (?:positional )?arg(?:ument)?s?\\b',
      // a parameter given an empty value where it takes none (`You passed an empty string for 'line_items[0][price]'`)
      '\\b(?:passed|provided|gave|sent) an empty (?:string|value) for\\b',
      "\\bdoesn't allow an argument\\b",
      '\\bmissing argument to\\b',
      '\\bno input files?\\b',
      '\\b(?:too many|too few|wrong number of) arguments\\b',
      '\\bexpected [^\\n]{0,60}\\b(?:argument|expression|integer|number)\\b',
      '\\bmust specify\\b',
      '\\byou must specify\\b',
      '\\b(?:name|branch name|value) required\\b',
      '\\bdid you mean\\b',
      '\\bthe most similar commands? (?:is|are)\\b',
      '^usage: ',
      '\\bEUSAGE\\b',
      '\\bonly one of\\b',
      '\\bmutually exclusive\\b',
      '\\bcannot be (?:used|specified|combined) (?:together|with)\\b',
      '\\bnot both\\b',
      "\\b(?:cannot|can't|can not) (?:specify|use|pass|set|provide|combine) both\\b",
      '\\b(?:is|are|was|were) (?:invalid|not valid)\\b',
      '\\bmust be (?:an? )?(?:valid|string|number|integer|boolean|array|object|one of|positive|non-empty|at least|at most|less|greater)\\b',
      '\\bnot a valid\\b',
      '\\b(?:integer|numeric) expression expected\\b',
      '\\barguments must be process or job ids\\b',
      // A checker refusing the answer it was given (`Incorrect flag`, `Wrong answer!`, `That is not the
      // correct solution`): the value is the agent's guess, and the same value is refused every time.
      "^(?:error: )?(?:that(?:'s| is) )?(?:incorrect|wrong|not (?:the )?(?:correct|right)) (?:flag|answer|solution|guess)s?\\b",
      // A command interpreter that did not understand the sentence it was sent (a text game's
      // parser, a chat command line): the same words are refused every time.
      "\\b(?:didn't|did not|couldn't|could not|doesn't|does not) understand (?:that|the|your|this) (?:sentence|command|input|instruction)\\b",
      '\\bnot a verb i recogni[sz]e\\b',
      '^i only understood you as far as\\b',
      // An interpreter asking back for what the command left out (`open` → `What do you want to open?`).
      '^what do you want to [a-z]+(?: [a-z]+)?\\?$',
      "^you'll have to say which\\b",
      // a search program refusing a pattern it cannot take as written (ripgrep's `\n` without
      // `--multiline`)
      '\\bis not allowed in a regex\\b',
      // input typed into a running command whose input is closed (Codex's `write_stdin` to a command
      // started without a terminal): every later write to it is refused alike
      '\\bstdin is closed for this session\\b',
      // a command or name the tool says is misspelled (`'groupcreate' is misspelled or not recognized`)
      '\\bis misspelled\\b',
      // a value a rule of the tool's refuses (`user name cannot contain upper case characters`,
      // `can only contain letters`, `must not start with a dash`)
      "\\b(?:cannot|can not|can't|must not|may not) (?:contain|start with|end with|begin with)\\b",
      '\\b(?:can|may|must) only contain\\b',
      // Windows' `[WinError 87] The parameter is incorrect`
      '\\bthe parameter is incorrect\\b',
      // input the tool could not take apart (`Diff block is malformed: …`)
      '\\b(?:is|was|are|were) malformed\\b',
      // a value outside what the tool takes (`doesn't match a supported format`, `is less than the
      // minimum allowed of 2`); not a value a test expected (`does not match expected value`), which
      // an assertion's message says of the agent's code
      "\\b(?:does not|doesn't|did not|didn't) match (?:a |the |any )?(?:supported|required|valid|allowed) (?:format|pattern)s?\\b",
      '\\b(?:less|lower|smaller|fewer|greater|more|larger|higher) than the (?:minimum|maximum) (?:allowed|permitted|supported|required)\\b',
      // a query asking a schema for what it does not have (GraphQL's `Cannot query field "users" on type "Query"`)
      '\\bcannot query field\\b',
    ],
    hints: [
      'parameter is incorrect',
      'malformed',
      'match a',
      'match the',
      'match any',
      'match supported',
      'match required',
      'match valid',
      'match allowed',
      'than the m',
      'cannot query field',
      'misspelled',
      'contain',
      'start with',
      'end with',
      'begin with',
      "doesn't have a resource type",
      'not allowed in a regex',
      'stdin is closed',
      'incorrect',
      'wrong',
      'not the correct',
      'not correct',
      'not the right',
      'not right',
      'understand',
      'understood',
      'verb i recogni',
      'what do you want to',
      'nothing happens',
      'have to say which',
      'unknown',
      'unrecogni',
      'invalid',
      'illegal',
      'bad',
      'unsupported',
      'unexpected',
      'is not a',
      'has no command',
      'no such',
      'missing',
      'required',
      'requires',
      'require',
      'needs an argument',
      'more than one',
      'determine which',
      'bin target',
      'features',
      ' tool to ',
      ' tool first',
      'needs ',
      'expects ',
      'accepts ',
      'an empty',
      'allow an argument',
      'missing argument',
      'no input file',
      'arguments',
      'expected',
      'must specify',
      'name required',
      'value required',
      'did you mean',
      'most similar',
      'usage:',
      'eusage',
      'only one of',
      'mutually exclusive',
      'cannot be',
      'not both',
      'both',
      'invalid',
      'not valid',
      'not a valid',
      'must be',
      'expression expected',
      'process or job ids',
      'is unknown',
      "which wasn't expected",
      'no value for required',
      'not provided',
    ],
  },
  commandNotFound: {
    patterns: [
      '\\bcommand not found\\b',
      '\\bnot recognized as (?:an internal or external command|the name of a cmdlet)\\b',
    ],
    hints: ['command not found', 'not recognized as'],
  },
  command: {
    patterns: [
      '\\bexit(?:ed)?(?: with)? (?:code|status)\\s*(?:[:=]\\s*)?[1-9]\\d*\\b',
      '\\breturned non-zero exit status\\b',
      '\\bnon-zero exit\\b',
      '\\bcommand failed\\b',
      '\\bmake(?:\\[\\d+\\])?: \\*\\*\\*',
    ],
    hints: ['exit', 'non-zero', 'command failed', 'make'],
  },
};
