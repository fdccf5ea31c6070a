// Guesses, as a class sends them: before its run every student guesses each step of the
// plan at once (the class page sends the guesses it kept on joining: one post per stage),
// and the projector's stream must then carry every one, so the spread of guesses every
// board draws for each step (src/core/class/guesses.ts) is the one the students sent.
import { guessStages, guessTally } from '../../src/core/class/guesses.ts';
import { DEFAULT_CLASS_PLAN } from '../../src/core/class/plan.ts';
import type { EntrySummary } from '../../src/core/class/summary.ts';
import { guessChoices } from '../../src/core/predict/guess.ts';
import { sleep, type Stream } from './client.ts';
import type { ClassUnderTest, Joined } from './pace.ts';
import type { Row } from './report.ts';

/** Student `seed`'s guess for a stage: spread over the choices, so each step has a spread to show. */
export function guessOf(seed: number, stage: number): number {
  const choices = guessChoices(stage);
  return choices[(seed * 3 + stage * 5 + ((seed * seed) % 7)) % choices.length].ratio;
}

/** Every student guesses every step of the class plan, all at once; the answers' statuses, counted. */
export async function sendGuesses(klass: ClassUnderTest, students: Joined[] = klass.students): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const stages = guessStages(DEFAULT_CLASS_PLAN);
  await Promise.all(
    students.flatMap((student, seed) =>
      stages.map(async (stage) => {
        const answer = await student.device.call(klass.at('guess', { id: student.id }), { body: { stage, ratio: guessOf(seed, stage) }, token: student.token });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }),
    ),
  );
  return statuses;
}

/** Each step's guesses per choice, as a board draws them from these machines' rows. */
export function guessCounts(entries: Pick<EntrySummary, 'guesses'>[]): number[][] {
  return guessStages(DEFAULT_CLASS_PLAN).map((stage) => guessTally(entries, stage));
}

/** The same for the guesses the students sent. */
export function sentCounts(students: Joined[]): number[][] {
  return guessCounts(students.map((_, seed) => ({ guesses: Object.fromEntries(guessStages(DEFAULT_CLASS_PLAN).map((stage) => [String(stage), guessOf(seed, stage)])) })));
}

/** Every machine's row as the stream last carried it: what a board that followed it shows. */
export function lastEntries(stream: Stream): EntrySummary[] {
  const rows = new Map<string, EntrySummary>();
  for (const e of stream.events) {
    const entry: EntrySummary | undefined = e.event === 'entry' ? e.data : e.event === 'join' ? e.data.entry : undefined;
    if (entry) rows.set(entry.id, entry);
  }
  return [...rows.values()];
}

/** The class's students guess every step at once; the projector's stream then shows the spread they sent. */
export async function classGuesses(klass: ClassUnderTest): Promise<Row> {
  const statuses = await sendGuesses(klass);
  const sent = [...statuses.values()].reduce((sum, n) => sum + n, 0);
  const accepted = statuses.get(200) ?? 0;
  const expected = JSON.stringify(sentCounts(klass.students));
  const deadline = performance.now() + 5000;
  while (JSON.stringify(guessCounts(lastEntries(klass.projector))) !== expected && performance.now() < deadline) await sleep(100);
  const shown = guessCounts(lastEntries(klass.projector));
  const steps = shown.filter((counts, i) => JSON.stringify(counts) === JSON.stringify(JSON.parse(expected)[i])).length;
  return {
    check: '1 guesses',
    did: `${klass.students.length} students guess all ${shown.length} steps at once`,
    measured: `${accepted} of ${sent} accepted; the projector's spread matches on ${steps} of ${shown.length} steps`,
    target: 'all; all',
    pass: sent > 0 && accepted === sent && steps === shown.length,
  };
}
