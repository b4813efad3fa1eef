/** The first journal slot of a state directory no other process is writing. */
import { createJournal, describeJournalProblem, type Journal, JournalInUseError } from '../../audit/index.js';
import { NarrowingError } from '../../core/errors.js';
import { journalSlotPath, stateLayout } from '../../node/index.js';

const SLOTS = 16;

export function openFreeJournal(
  stateDir: string,
  sessionId: string | undefined,
  onProblem: (message: string) => void,
): Journal {
  const path = stateLayout(stateDir).journal;
  for (let slot = 1; slot <= SLOTS; slot += 1) {
    try {
      return createJournal({
        path: journalSlotPath(path, slot),
        receipts: true,
        ...(sessionId !== undefined && { sessionId }),
        onProblem: (problem) => onProblem(describeJournalProblem(problem)),
      });
    } catch (error) {
      if (!(error instanceof JournalInUseError)) throw error;
    }
  }
  throw new NarrowingError(
    'JOURNAL_IN_USE',
    `every journal slot in ${stateDir} is in use (${SLOTS} processes): stop some of them and try again`,
  );
}
