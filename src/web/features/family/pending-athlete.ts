// A parent who registers a second child with the family's address meets "Account Already
// Exists": what they typed about that athlete is kept in this tab (sessionStorage, never sent
// anywhere) and, once they have signed in, "Add athlete" opens with it (decision 0036).
const KEY = 'giot.pending-athlete';

export interface PendingAthlete {
  firstName: string;
  lastName: string;
  birthday: string;
  teamName: string;
  jerseyNumber: string;
}

export function keepPendingAthlete(athlete: PendingAthlete): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(athlete));
  } catch {
    // Private mode without storage: the parent types it again.
  }
}

/** What this page load took (React may run an initializer twice). */
let taken: PendingAthlete | null | undefined;

/** The athlete kept for "Add athlete", once per page load: reading it forgets it. */
export function takePendingAthlete(): PendingAthlete | null {
  if (taken === undefined) taken = readOnce();
  return taken;
}

function readOnce(): PendingAthlete | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const value = raw ? (JSON.parse(raw) as Partial<PendingAthlete>) : null;
    if (!value || typeof value.firstName !== 'string') return null;
    const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 120) : '');
    return { firstName: text(value.firstName), lastName: text(value.lastName), birthday: text(value.birthday), teamName: text(value.teamName), jerseyNumber: text(value.jerseyNumber) };
  } catch {
    return null;
  }
}

/** Done with it (added, or the dialog closed): a later visit to the dashboard does not offer it again. */
export function forgetPendingAthlete(): void {
  taken = null;
}
