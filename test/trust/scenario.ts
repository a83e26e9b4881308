// What a scenario is: a name, a time limit, and a run that says ok, fail or skip with its figures.
import type { Topology } from './topology';

export interface ScenarioContext {
  short: boolean;
  log(line: string): void;
}

export interface Outcome {
  result: 'ok' | 'fail' | 'skip';
  figures: string;
}

export interface Scenario {
  name: string;
  /** The hard limit on one run, short and full. */
  timeoutMs: { short: number; full: number };
  run(t: Topology, ctx: ScenarioContext): Promise<Outcome>;
}

/** ok when every check passed; otherwise fail, naming the checks that did not. */
export function outcome(failures: string[], figures: string): Outcome {
  return failures.length ? { result: 'fail', figures: `${failures.join('; ')} | ${figures}` } : { result: 'ok', figures };
}
