// A rejection nobody handled: lived through when it says the database is out of reach (pg-boss's
// unawaited completion during a restart), fatal otherwise.
import { afterEach, describe, expect, it } from 'vitest';
import { guardUnhandledRejections } from './process-guard';

describe('guardUnhandledRejections', () => {
  const before = process.listeners('unhandledRejection');
  afterEach(() => {
    for (const l of process.listeners('unhandledRejection')) if (!before.includes(l)) process.off('unhandledRejection', l);
  });

  it('lives through a database outage and ends the process for anything else', () => {
    const exits: number[] = [];
    guardUnhandledRejections((code) => exits.push(code));
    const listener = process.listeners('unhandledRejection').at(-1)!;
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    listener(refused, Promise.resolve());
    listener(new Error('Connection terminated unexpectedly'), Promise.resolve());
    expect(exits).toEqual([]);
    listener(new TypeError('undefined is not a function'), Promise.resolve());
    expect(exits).toEqual([1]);
  });
});
