import type { ActionKind, CallFacts } from './types.js';

/**
 * The adapter's facts in one shape, every field present in the same order: each detector reads them,
 * and objects of many shapes (an adapter sets only the fields that apply) would make every such read
 * a slow lookup. Typed with every field required, so that a field added to `CallFacts` and not here
 * fails to compile instead of being dropped.
 */
export function uniformFacts(facts: CallFacts, kind: ActionKind | undefined): CallFacts {
  const uniform: { [Field in keyof Required<CallFacts>]: Required<CallFacts>[Field] | undefined } = {
    actionClass: facts.actionClass,
    kind: kind ?? facts.kind,
    targets: facts.targets,
    relayed: facts.relayed,
    parameters: facts.parameters,
    writtenText: facts.writtenText,
    replacesTarget: facts.replacesTarget,
    mayCreateTarget: facts.mayCreateTarget,
    replacesLinesInPlace: facts.replacesLinesInPlace,
    readsWholeTarget: facts.readsWholeTarget,
    searchTexts: facts.searchTexts,
    changesNothing: facts.changesNothing,
    mayChangeTargets: facts.mayChangeTargets,
    actsOnNothing: facts.actsOnNothing,
    keepsNotes: facts.keepsNotes,
    readsFilesOnly: facts.readsFilesOnly,
    operandKind: facts.operandKind,
    computesOnly: facts.computesOnly,
    failureKey: facts.failureKey,
    olderFailureKey: facts.olderFailureKey,
    failureKeyLeavesOutWords: facts.failureKeyLeavesOutWords,
    respellingKey: facts.respellingKey,
    optionlessKey: facts.optionlessKey,
    asksOf: facts.asksOf,
    answerKey: facts.answerKey,
    wordlessKey: facts.wordlessKey,
    actsOnHiddenState: facts.actsOnHiddenState,
    leavesSourcesAlone: facts.leavesSourcesAlone,
    sideEffect: facts.sideEffect,
    service: facts.service,
    asksOutside: facts.asksOutside,
    waitSeconds: facts.waitSeconds,
    program: facts.program,
    navigates: facts.navigates,
    asksPerson: facts.asksPerson,
    startsOrStops: facts.startsOrStops,
    directory: facts.directory,
    movesTo: facts.movesTo,
    touches: facts.touches,
    writesFiles: facts.writesFiles,
    changesTree: facts.changesTree,
    changesOutside: facts.changesOutside,
    runsScript: facts.runsScript,
    scriptFile: facts.scriptFile,
    scriptNames: facts.scriptNames,
    startsBackgroundWork: facts.startsBackgroundWork,
  };
  return uniform as CallFacts;
}
