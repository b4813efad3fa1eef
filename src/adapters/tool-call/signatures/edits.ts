/**
 * Editor tools: replacements that do not apply, stale reads.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const EDITS: FamilyTable = {
  editAmbiguous: {
    patterns: [
      '\\bfound (?:[2-9]|\\d{2,}) (?:matches|occurrences)\\b',
      '\\bexpected \\d+ occurrences? but found\\b',
      '\\b(?:multiple|several) (?:matches|occurrences)\\b',
      '\\bmatches (?:more than once|multiple times)\\b',
    ],
    hints: ['found', 'multiple', 'several', 'matches'],
  },
  edit: {
    patterns: [
      '\\bstring to replace not found\\b',
      '\\bold_?string\\b[^\\n]{0,200}?\\bnot found\\b',
      '\\bold_str\\b[^\\n]{0,200}?\\b(?:not found|did not appear|does not appear)\\b',
      '\\bsearch string not found\\b',
      '\\bcould not find (?:an? )?(?:exact )?match(?:es)? for edit\\b',
      '\\bcould not find the string to replace\\b',
      '\\bfailed to (?:apply )?edit\\b',
      '\\bedit(?:ing)? failed\\b',
      '\\bedit application failed\\b',
      '\\bno (?:exact )?match(?:es)? found for (?:the )?(?:old|search|edit)\\b',
      '\\b0 occurrences found\\b',
      '\\bfailed to find expected lines\\b',
      '\\bpatch (?:does not apply|failed)\\b',
      '\\bunable to apply diff\\b',
      '\\bno sufficiently similar match\\b',
      '\\bsearch block\\b[^\\n]{0,100}?\\bdoes not match\\b',
      '\\bsearch block failed to (?:exactly )?match\\b',
      // `unable to find insert_after substring in the current file`, `could not locate the anchor text in file`
      "\\b(?:unable to|could not|couldn't|cannot|can't|failed to) (?:find|locate|match)\\b[^\\n]{0,60}?\\b(?:substring|string|text|snippet|anchor|lines?)\\b[^\\n]{0,40}?\\bin (?:the )?(?:current |target |given )?file\\b",
    ],
    hints: [
      'string to replace',
      'old_string',
      'oldstring',
      'old_str',
      'search string',
      'could not find',
      'failed to',
      'edit',
      'no match',
      'no exact match',
      '0 occurrences',
      'patch',
      'apply diff',
      'sufficiently similar',
      'search block',
      'in the current file',
      'in the file',
      'in file',
      'in the target file',
      'in the given file',
      'in current file',
      'in target file',
      'in given file',
    ],
  },
  editNoop: {
    patterns: [
      '\\bno changes to make\\b',
      '\\b(?:old_?string|old_str|oldtext|search) and (?:new_?string|new_str|newtext|replace)\\b[^\\n]{0,40}\\b(?:are |is )?(?:exactly )?(?:the same|identical)\\b',
      '\\bnew_?string must (?:be different|differ)\\b',
    ],
    hints: ['no changes to make', 'old', 'search', 'new_string', 'newstring'],
  },
  staleRead: {
    patterns: [
      '\\bhas not been read yet\\b',
      '\\b(?:has been|was) (?:unexpectedly )?modified since (?:it was )?(?:last )?read\\b',
      '\\bread it (?:again|first) before\\b',
    ],
    hints: ['not been read', 'modified since', 'read it'],
  },
};
