/**
 * Version control (git): refs, pathspecs, remotes, merges and its locks.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const VCS: FamilyTable = {
  permission: {
    patterns: [
      '\\bhost key verification failed\\b',
      '\\bcould not read (?:username|password) for\\b',
      '\\bterminal prompts disabled\\b',
      '\\bdubious ownership\\b',
      '\\bare too open\\b',
      '\\bunprotected private key\\b',
      // Signing a commit: the signing program or key agent of the session failed, not the commit.
      '\\bgpg failed to sign the data\\b',
      '\\bfailed to write commit object\\b',
    ],
    hints: [
      'password',
      'failed to sign',
      'commit object',
      'host key',
      'could not read',
      'terminal prompts',
      'dubious ownership',
      'too open',
      'unprotected private key',
    ],
  },
  locked: {
    patterns: [
      '\\.git/[\\w./-]*\\.lock\\b',
      '\\banother git process\\b',
      'ein anderer git-prozess',
      'un autre processus git',
      'otro proceso git',
      'un altro processo git',
      'outro processo git',
      // a ref another git process moved meanwhile (`cannot lock ref '…': is at X but expected Y`)
      '\\bcannot lock ref\\b[^\\n]{0,300}\\bis at [0-9a-f]{4,64} but expected\\b',
    ],
    hints: ['.lock', 'another', 'anderer git', 'processus git', 'proceso git', 'processo git', 'lock'],
  },
  wrongDirectory: {
    patterns: ['\\bnot a git repository\\b'],
    hints: ['not a git repository'],
  },
  fileMissing: {
    patterns: [
      '\\bpathspec\\b[^\\n]{0,300}?\\bdid not match any files?\\b',
      '\\bdid not match any file\\(s\\) known to git\\b',
    ],
    hints: ['pathspec', 'known to git'],
  },
  idMissing: {
    patterns: [
      '\\bnot a valid (?:object name|ref|commit|branch|tag)\\b',
      '\\bbad revision\\b',
      '\\b(?:invalid reference|invalid upstream|invalid object name)\\b',
      "\\bcouldn't find remote ref\\b",
      '\\bdoes not appear to be a git repository\\b',
      '\\bno stash entries\\b',
      '\\bbad object\\b',
      '\\bnot something we can merge\\b',
      '\\bis not a working tree\\b',
      '\\bno (?:branch|tag|remote|ref|commit) named\\b',
      '\\bsrc refspec \\S+ does not match any\\b',
      '\\bno tracking information for the current branch\\b',
    ],
    hints: [
      'not a valid',
      'bad revision',
      'invalid reference',
      'invalid upstream',
      'invalid object',
      'remote ref',
      'git repository',
      'no stash',
      'bad object',
      'something we can merge',
      'working tree',
      'named',
      'src refspec',
      'tracking information',
    ],
  },
  conflict: {
    patterns: [
      '\\bmerge conflict',
      '\\bnon-fast-forward\\b',
      '\\bupdates were rejected\\b',
      '\\[rejected\\]',
      '\\bwould be overwritten\\b',
      '\\b(?:unstaged|uncommitted) changes\\b',
      '\\b(?:nothing to commit|nothing added to commit)\\b',
      '\\bnot possible to fast-forward\\b',
      '\\bdivergent branches\\b',
      '\\bis already checked out\\b',
      '\\balready (?:used by|in use by) worktree\\b',
      '\\bno (?:rebase|merge|cherry-pick|revert|bisect)\\b[^\\n]{0,40}\\bin progress\\b',
      '\\bthere is no merge to abort\\b',
      '\\bautomatic merge failed\\b',
      '\\byou need to resolve your current index\\b',
      '\\bneeds merge\\b',
      // a merge of histories with no common commit, refused until the call says to allow it
      '\\brefusing to merge unrelated histories\\b',
      // a commit a cherry-pick or a rebase could not apply over the agent's tree, and conflicts
      // left to resolve (`error: could not apply 502d2ea... add parser`, `unresolved conflicts`)
      '\\bcould not apply [0-9a-f]{7,40}\\b',
      '\\bunresolved (?:merge )?conflicts?\\b',
      // a push refused for what it holds: a file over the host's size limit (`GH001: Large files
      // detected`, `… exceeds GitHub's file size limit of 100.00 MB`)
      '\\blarge files detected\\b',
      "\\bexceeds [\\w' ]{0,40}\\bfile size limit\\b",
      // a submodule the repository's own `.gitmodules` gives no address for
      '\\bno url found for submodule\\b',
    ],
    hints: [
      'conflict',
      'non-fast-forward',
      'rejected',
      'overwritten',
      'unstaged',
      'uncommitted',
      'nothing to commit',
      'nothing added to commit',
      'fast-forward',
      'divergent',
      'checked out',
      'worktree',
      'in progress',
      'no merge to abort',
      'unrelated histories',
      'could not apply',
      'large files',
      'file size limit',
      'no url found',
      'automatic merge failed',
      'current index',
      'needs merge',
    ],
  },
};
