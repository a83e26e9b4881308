// Who a person track is: every rule of the decision, and that it says "unsure" with its reason
// rather than guess.
import { describe, expect, it } from 'vitest';
import { confirmAcrossCameras, decidePerson, type PersonEvidence, type PersonVerdict, type Sighting } from './decide';

const teams = [
  { teamId: 'tigers', colours: ['#f28c28', '#ffffff'] },
  { teamId: 'sharks', colours: ['#1f2a5a'] },
];
const ORANGE = '#ee8a2c';
const NAVY = '#222d5e';
const athlete = { teamId: 'tigers', number: 7 };
const person = (over: Partial<PersonEvidence>): PersonEvidence => ({ jerseyNumber: null, kit: null, faces: [], ...over });

describe('who a person track is', () => {
  it('is the athlete, sure, where their number is read on their team’s kit, face or no face', () => {
    expect(decidePerson(person({ jerseyNumber: 7, kit: ORANGE }), athlete, teams)).toEqual({ unsure: false, reason: 'number_and_kit' });
    expect(decidePerson(person({ jerseyNumber: 7, kit: '#fdfdfd' }), athlete, teams)).toEqual({ unsure: false, reason: 'number_and_kit' });
  });

  it('is the athlete, unsure, where the number is read but the kit is not told', () => {
    expect(decidePerson(person({ jerseyNumber: 7 }), athlete, teams)).toEqual({ unsure: true, reason: 'number_without_kit' });
    expect(decidePerson(person({ jerseyNumber: 7, kit: '#2e8b57' }), athlete, teams)).toEqual({ unsure: true, reason: 'number_without_kit' });
  });

  it('is someone else where the athlete’s number is on the other team’s kit, or another number on any kit', () => {
    expect(decidePerson(person({ jerseyNumber: 7, kit: NAVY }), athlete, teams)).toBeNull();
    expect(decidePerson(person({ jerseyNumber: 12, kit: ORANGE }), athlete, teams)).toBeNull();
    expect(decidePerson(person({ kit: ORANGE }), athlete, teams)).toBeNull();
    expect(decidePerson(person({}), athlete, teams)).toBeNull();
  });

  it('takes a sure face where the shirt agrees, and puts it to the admin where the shirt says nothing or something else', () => {
    expect(decidePerson(person({ faces: ['sure'], kit: ORANGE }), athlete, teams)).toEqual({ unsure: false, reason: 'face' });
    expect(decidePerson(person({ faces: ['sure'], jerseyNumber: 7 }), athlete, teams)).toEqual({ unsure: false, reason: 'face' });
    expect(decidePerson(person({ faces: ['sure'] }), athlete, teams)).toEqual({ unsure: true, reason: 'face_without_number', faceSure: true });
    expect(decidePerson(person({ faces: ['sure'], jerseyNumber: 12, kit: ORANGE }), athlete, teams)).toEqual({ unsure: true, reason: 'face_other_shirt' });
    expect(decidePerson(person({ faces: ['sure', 'unsure'], kit: NAVY }), athlete, teams)).toEqual({ unsure: true, reason: 'face_other_shirt' });
    expect(decidePerson(person({ faces: ['unsure'] }), athlete, teams)).toEqual({ unsure: true, reason: 'face_without_number', faceSure: false });
  });

  it('keeps a sure face sure where the event does not know the athlete’s team and number', () => {
    expect(decidePerson(person({ faces: ['sure'] }), { teamId: null, number: null }, teams)).toEqual({ unsure: false, reason: 'face' });
    expect(decidePerson(person({ faces: ['sure'], jerseyNumber: 4 }), { teamId: null, number: null }, [])).toEqual({ unsure: false, reason: 'face' });
    expect(decidePerson(person({ faces: ['sure'] }), athlete, [])).toEqual({ unsure: false, reason: 'face' });
    // A number alone, without teams to tell the kit by, is unsure.
    expect(decidePerson(person({ jerseyNumber: 7, kit: ORANGE }), athlete, [])).toEqual({ unsure: true, reason: 'number_without_kit' });
  });
});

describe('cameras confirming each other', () => {
  const sure: PersonVerdict = { unsure: false, reason: 'number_and_kit' };
  const numberOnly: PersonVerdict = { unsure: true, reason: 'number_without_kit' };
  const faceOnly: PersonVerdict = { unsure: true, reason: 'face_without_number', faceSure: true };
  const seen = (footageId: string, startS: number, endS: number, verdict: PersonVerdict, gameId = 'g1'): Sighting => ({ footageId, gameId, startS, endS, verdict });
  const unique = { ...athlete, numberUnique: true };

  it('makes the number alone sure where another camera sees the athlete sure at that moment and no other team wears the number', () => {
    const a = seen('cam2', 10, 14, numberOnly);
    expect(confirmAcrossCameras([seen('cam1', 12, 20, sure), a], unique)).toEqual([a]);
  });

  it('makes a sure face on a silent shirt sure where another camera sees the athlete sure at that moment', () => {
    const a = seen('cam2', 10, 14, faceOnly);
    expect(confirmAcrossCameras([seen('cam1', 12, 20, sure), a], athlete)).toEqual([a]);
  });

  it('confirms nothing where the number is shared with another team, the face was unsure, or the shirt was another', () => {
    const other = seen('cam1', 0, 30, sure);
    expect(confirmAcrossCameras([other, seen('cam2', 10, 14, numberOnly)], athlete)).toEqual([]);
    expect(confirmAcrossCameras([other, seen('cam2', 10, 14, numberOnly)], { ...athlete, numberUnique: false })).toEqual([]);
    expect(confirmAcrossCameras([other, seen('cam2', 10, 14, { unsure: true, reason: 'face_without_number', faceSure: false })], unique)).toEqual([]);
    expect(confirmAcrossCameras([other, seen('cam2', 10, 14, { unsure: true, reason: 'face_other_shirt' })], unique)).toEqual([]);
  });

  it('needs the other camera, the same game and the same moment', () => {
    expect(confirmAcrossCameras([seen('cam2', 0, 5, sure), seen('cam2', 10, 14, numberOnly)], unique)).toEqual([]);
    expect(confirmAcrossCameras([seen('cam1', 0, 30, sure, 'g2'), seen('cam2', 10, 14, numberOnly)], unique)).toEqual([]);
    expect(confirmAcrossCameras([seen('cam1', 13.5, 20, sure), seen('cam2', 10, 14, numberOnly)], unique)).toEqual([]);
    // Two unsure sightings at the same moment do not confirm each other.
    expect(confirmAcrossCameras([seen('cam1', 10, 14, numberOnly), seen('cam2', 10, 14, faceOnly)], unique)).toEqual([]);
  });
});
