/**
 * Documents and archives: conversions a tool could not do, and downloads that are not the archive
 * they were named as. The words each failure kind is recognised by; `kinds.ts` says what each means.
 */
import type { FamilyTable } from './vocabulary.js';

export const DOCUMENTS: FamilyTable = {
  /** a document the tool could not convert or read */
  toolFault: {
    patterns: [
      '\\b(?:file |document |pdf |page |image |format )?conversion (?:failed|error|exception)\\b',
      '\\bfileconversionexception\\b',
      '\\bunsupportedformatexception\\b',
      '\\b(?:failed|unable) to convert\\b',
      "\\bcould(?: not|n't) convert (?:the )?(?:file|document|pdf|page|image|input|content|html|docx?|xlsx?|pptx?)\\b",
      '\\berror (?:while )?converting\\b',
      '\\b(?:failed|unable) to (?:extract|render|rasteri[sz]e) (?:text|the page|pages|content) (?:from|of)\\b',
      '\\bno converter (?:found|available)\\b',
    ],
    hints: [
      'conversion',
      'fileconversionexception',
      'unsupportedformatexception',
      'to convert',
      'convert',
      'converting',
      'to extract',
      'to render',
      'to rasteri',
      'no converter',
    ],
  },
  /** what a guessed archive URL downloads: an error page, not an archive */
  fileMissing: {
    patterns: [
      '\\bnot in gzip format\\b',
      '\\bdoes not look like a tar archive\\b',
      '\\bend-of-central-directory signature not found\\b',
      '\\bcannot find zipfile directory\\b',
      '\\b(?:is )?not a zip file\\b',
      '\\bbadzipfile\\b',
      '\\bfile is not a (?:zip|gzip|tar|7z|bzip2|xz) (?:file|archive)\\b',
      '\\b(?:unrecognized|unknown) archive format\\b',
      '\\bnot a valid (?:zip|gzip|tar) (?:file|archive)\\b',
    ],
    hints: [
      'gzip format',
      'tar archive',
      'central-directory',
      'zipfile',
      'not a zip',
      'badzipfile',
      'file is not a',
      'archive format',
      'not a valid',
    ],
  },
};
