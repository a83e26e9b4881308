// Stage "decide identity": who a person track is, from the evidence gathered along it (the number
// on the shirt, the kit's team, the faces tied to it) against the athlete a request names (their
// team and number, their faces judged by faces/matching.ts). Every rule of that decision is here,
// with the reason it gives: the admin sees the reason of every "Unsure".
import { teamOfKit, hexToLab, type TeamKits } from './kit';

/** What a request says its athlete is: the team (its id among the event's teams) and the number. */
export interface AthleteShirt {
  teamId: string | null;
  number: number | null;
  /** Every team of the event has a roster and none but the athlete's lists this number. */
  numberUnique?: boolean;
}

/** The evidence of one person track. */
export interface PersonEvidence {
  jerseyNumber: number | null;
  kit: string | null;
  /** The verdicts on the face tracks tied to it: sure, unsure, or none of this athlete's faces. */
  faces: Array<'sure' | 'unsure'>;
}

/**
 * Why a person track is proposed:
 * - `number_and_kit`: the athlete's number on their team's kit (sure);
 * - `face`: a face found sure as the athlete and the shirt agreeing (their number or their kit),
 *   or at an event that does not know the athlete's team and number (sure);
 * - `number_without_kit`: the athlete's number, the kit not told (unsure);
 * - `face_without_number`: a face found as the athlete where the shirt said nothing (no number
 *   read, the kit not told), at an event that knows their team and number; or a face the face
 *   matching was unsure of (unsure);
 * - `face_other_shirt`: a face found as the athlete on another number or another team's kit (unsure).
 * - `other_camera`: one of the two unsure cases above (the number where the number is the
 *   athlete's alone at the event, or a face found sure where the shirt said nothing) while
 *   another camera of the same game sees the athlete sure at the same moment (sure;
 *   confirmAcrossCameras).
 * The same number on the other team's kit is another athlete: not proposed. Above all of these,
 * `admin`: an admin pointed at the track as the athlete (people/labels.ts; "not the athlete"
 * takes the track and its faces out).
 */
export type PersonReason = 'admin' | 'number_and_kit' | 'face' | 'other_camera' | 'number_without_kit' | 'face_without_number' | 'face_other_shirt';

export interface PersonVerdict {
  unsure: boolean;
  reason: PersonReason;
  /** A face tied to the track was found sure as the athlete. */
  faceSure?: boolean;
}

/** Two sightings on two cameras overlapping this long (seconds; the cameras share one clock) are at the same moment. */
export const SAME_MOMENT_S = 1;

/** The verdict on one person track for one athlete, or null: not the athlete, or nothing says so. */
export function decidePerson(evidence: PersonEvidence, athlete: AthleteShirt, teams: TeamKits[]): PersonVerdict | null {
  const kitTeam = evidence.kit && teams.length ? (teamOfKit(hexToLab(evidence.kit), teams)?.teamId ?? null) : null;
  const ownNumber = athlete.number !== null && evidence.jerseyNumber === athlete.number;
  const otherNumber = athlete.number !== null && evidence.jerseyNumber !== null && evidence.jerseyNumber !== athlete.number;
  const ownKit = athlete.teamId !== null && kitTeam === athlete.teamId;
  const otherKit = athlete.teamId !== null && kitTeam !== null && kitTeam !== athlete.teamId;
  const faceSure = evidence.faces.includes('sure');
  const faceSeen = evidence.faces.length > 0;
  const shirtKnown = athlete.number !== null && athlete.teamId !== null && teams.length > 0;

  if (ownNumber && ownKit) return { unsure: false, reason: 'number_and_kit' };
  if (faceSeen && (otherNumber || otherKit)) return { unsure: true, reason: 'face_other_shirt' };
  if (faceSure && (ownNumber || ownKit || !shirtKnown)) return { unsure: false, reason: 'face' };
  if (ownNumber && !otherKit) return { unsure: true, reason: 'number_without_kit' };
  if (faceSeen) return { unsure: true, reason: 'face_without_number', faceSure };
  return null;
}

/** A person track's verdict where it was seen: which file, which game, when. */
export interface Sighting {
  footageId: string;
  gameId: string;
  startS: number;
  endS: number;
  verdict: PersonVerdict;
}

/**
 * The cameras confirm each other: an unsure sighting becomes sure (`other_camera`) when another
 * camera of the same game sees the athlete sure at the same moment and the unsure one's own
 * evidence already points at the athlete alone: the athlete's number where no other team of the
 * event lists it (so the kit was the only thing missing), or a face found sure where the shirt
 * said nothing. A number shared with another team is never confirmed this way: both players may
 * be on court at that moment. Sure sightings confirm; confirmed ones do not confirm others.
 */
export function confirmAcrossCameras<T extends Sighting>(sightings: T[], athlete: AthleteShirt): T[] {
  const sure = sightings.filter((s) => !s.verdict.unsure);
  const confirmable = (v: PersonVerdict) => (v.reason === 'number_without_kit' && athlete.numberUnique === true) || (v.reason === 'face_without_number' && v.faceSure === true);
  return sightings.filter(
    (s) =>
      s.verdict.unsure &&
      confirmable(s.verdict) &&
      sure.some((o) => o.footageId !== s.footageId && o.gameId === s.gameId && Math.min(o.endS, s.endS) - Math.max(o.startS, s.startS) >= SAME_MOMENT_S),
  );
}
