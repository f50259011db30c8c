// Reads a run's answer as the page does: must type-check against the generated answer types.

/** @typedef {import('../../www/src/types/answers').Answers} Answers */

/**
 * Completed tasks of a run, or the first error's message.
 * @param {Answers['run']} answer
 */
export function completed(answer) {
  if (answer.type === 'failure') return answer.errors[0].message;
  return answer.value.result.metrics.tasksCompleted;
}
