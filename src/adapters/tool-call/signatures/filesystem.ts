/**
 * Files, directories and the errno family of file operations.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const FILESYSTEM: FamilyTable = {
  permission: {
    patterns: [
      '\\bEACCES\\b',
      '\\bEPERM\\b',
      '\\bEROFS\\b',
      '\\bpermission denied\\b',
      '\\bpermission_denied\\b',
      '\\baccess ?(?:is )?denied(?:exception)?\\b',
      // .NET's and PowerShell's `Access to the path 'C:\\Windows\\a.txt' is denied.`
      '\\baccess to the path\\b[^\\n]{0,300}\\bis denied\\b',
      '\\boperation not permitted\\b',
      '\\bPermissionError\\b',
      // a runtime's permission refusal by its exception's name (Deno's `PermissionDenied: …`)
      '\\bPermissionDenied\\b',
    ],
    hints: ['eacces', 'eperm', 'erofs', 'permission', 'denied', 'not permitted'],
  },
  resources: {
    patterns: [
      '\\bENOSPC\\b',
      '\\bno space left on device\\b',
      '\\b(?:database or )?disk (?:is )?full\\b',
      '\\bdisk quota exceeded\\b',
      '\\bEDQUOT\\b',
      '\\bnot enough space on the disk\\b',
      '\\binsufficient (?:disk )?space\\b',
      '\\bEMFILE\\b',
      '\\btoo many open files\\b',
      '\\bfile size limit exceeded',
      // the device under the file failed to read or write it (`EIO`: Node's `EIO: i/o error, read`)
      '\\bEIO: i/o error\\b',
      '\\binput/output error\\b',
    ],
    hints: [
      'enospc',
      'no space left',
      'disk',
      'edquot',
      'not enough space',
      'insufficient',
      'emfile',
      'too many open files',
      'file size limit',
      'i/o error',
      'input/output error',
    ],
  },
  locked: {
    patterns: [
      // Windows' sharing violation read whole, so that its first words are not taken for a missing file
      "\\b(?:cannot|can't|could not) access the file\\b[^\\n]{0,300}\\bbecause it is being used by another process\\b",
      '\\bbeing used by another process\\b',
      '\\b(?:device or )?resource (?:is )?busy\\b',
      '\\btext file busy\\b',
      '\\bE(?:TXT)?BUSY\\b',
      '\\btarget is busy\\b',
    ],
    hints: ['another', 'busy'],
  },
  parentMissing: {
    patterns: ['\\bparent directory (?:does not exist|not found)\\b'],
    hints: ['parent directory'],
  },
  fileMissing: {
    patterns: [
      '\\bENOENT\\b',
      '\\bENOTDIR\\b',
      '\\bno such file\\b',
      '\\bnot a directory\\b',
      '\\bFileNotFound(?:Error|Exception)?\\b',
      '\\bNotADirectoryError\\b',
      '\\bfile not found\\b',
      '\\bcannot find (?:the )?(?:file|path)\\b',
      // not Windows' sharing violation, a file held open by another process (`The process cannot
      // access the file 'C:\\app\\log.txt' because it is being used by another process.`)
      "\\b(?:could not|couldn't|can't|cannot|unable to) (?:find|open|read|stat|access|load) (?:the )?(?:file|input file|requirements file|patch|database file|package\\.json)\\b(?![^\\n]{0,300}\\bbeing used by another process\\b)",
      "\\bcan't open (?:file|patch)\\b",
      // Vite's and Vitest's module loader (`Failed to load url ./src/x … Does the file exist?`)
      '\\bfailed to load url\\b[^\\n]{0,300}\\bdoes the file exist\\b',
      '\\bcannot find or open\\b',
      "\\b(?:can't|cannot|could not|couldn't|unable to|failed to) open(?:/read)? (?:local |input )?(?:data|file)\\b",
      'stimmt mit keinen',
      'non corrisponde ad alcun file',
      // a quoted path that could not be opened
      "\\b(?:cannot|can't|could not|couldn't|unable to|failed to) open [\"'`‘][^\"'`’\\n]{1,200}[\"'`’]",
    ],
    hints: [
      'enoent',
      'enotdir',
      'no such',
      'not a directory',
      'filenotfound',
      'notadirectory',
      'file not found',
      'cannot find',
      'could not',
      "couldn't",
      "can't",
      'cannot',
      'unable to',
      'or open',
      'open',
      'stimmt mit keinen',
      'non corrisponde ad alcun',
      'open',
      'failed to load url',
    ],
  },
  usage: {
    patterns: ['\\bomitting directory\\b', '\\bIsADirectoryError\\b', '\\bEISDIR\\b', '\\bis a directory\\b'],
    hints: ['isadirectoryerror', 'eisdir', 'is a directory', 'omitting directory'],
  },
  conflict: {
    patterns: [
      '\\balready exists\\b',
      // a reason named in one word (S3's `BucketAlreadyExists`, `EntityAlreadyExistsException`)
      '\\b\\w*alreadyexists(?:exception|error|fault)?\\b',
      '\\bEEXIST\\b',
      '\\bFileExistsError\\b',
      '\\bfile exists\\b',
      '\\bENOTEMPTY\\b',
      '\\bdirectory not empty\\b',
      '\\bis not an empty directory\\b',
    ],
    hints: [
      'already exists',
      'alreadyexists',
      'eexist',
      'fileexistserror',
      'file exists',
      'enotempty',
      'not empty',
      'not an empty',
    ],
  },
};
