// The real photos that face matching is calibrated and measured on (../shared/faces-calibration,
// beside the project, never copied into it): 8 people with 5 different photos each, 150 px crops of
// the face, and the faces of 5 group photos labelled in faces-calibration-labels.json (boxes from
// the SSD detector, names checked by eye; one blurred 47 px face left out as unsure).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { decodeEmbeddings, encodeEmbeddings } from '../src/server/faces/embeddings';
import type { FacePool } from '../src/server/faces/pool';
import type { PhotoFace } from '../src/server/faces/types';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CALIBRATION_DIR = path.resolve(here, '../../shared/faces-calibration');
export const CALIBRATED_PEOPLE = ['amy', 'bernadette', 'howard', 'leonard', 'penny', 'raj', 'sheldon', 'stuart'] as const;
export type CalibratedPerson = (typeof CALIBRATED_PEOPLE)[number];

export interface CalibrationPhoto {
  person: CalibratedPerson;
  /** A name to print: amy3, or bbt4#2 for a face of a group photo. */
  name: string;
  file: string;
  /** The face in the photo (x, y, w, h). */
  box: readonly [number, number, number, number];
  group: boolean;
}

/** Every labelled face: the portraits (the face fills the 150 px crop) and the group photos' faces. */
export function calibrationPhotos(): CalibrationPhoto[] {
  if (!fs.existsSync(CALIBRATION_DIR)) throw new Error(`The calibration photos are not at ${CALIBRATION_DIR}`);
  const portraits = CALIBRATED_PEOPLE.flatMap((person) =>
    [1, 2, 3, 4, 5].map((i) => ({ person, name: `${person}${i}`, file: path.join(CALIBRATION_DIR, person, `${person}${i}.png`), box: [10, 5, 130, 140] as const, group: false })),
  );
  const labels = JSON.parse(fs.readFileSync(path.join(here, 'faces-calibration-labels.json'), 'utf8')) as Array<{ photo: string; box: [number, number, number, number]; person: CalibratedPerson }>;
  const groups = labels.map((l, i) => ({ person: l.person, name: `${l.photo.replace('.jpg', '')}#${i}`, file: path.join(CALIBRATION_DIR, l.photo), box: l.box, group: true }));
  return [...portraits, ...groups];
}

/** A photo as the product reads a reference: RGB, through the face threads' photo check. */
export async function photoFaces(pool: FacePool, file: string): Promise<PhotoFace[]> {
  const { data, info } = await sharp(file).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return pool.run<PhotoFace[]>({ op: 'analyze-photo', rgb: new Uint8Array(data), width: info.width, height: info.height });
}

/** The descriptor of a photo's face as stored (through the same Float32 encoding as the product). */
export function stored(face: PhotoFace): Float32Array {
  return decodeEmbeddings(encodeEmbeddings([face.descriptor]))[0]!;
}

/** The face of `photo` among those found: the one whose box overlaps the label most. */
export function labelledFace(faces: PhotoFace[], photo: CalibrationPhoto): PhotoFace | undefined {
  if (!photo.group) return faces.sort((a, b) => b.box.h - a.box.h)[0];
  const [x, y, w, h] = photo.box;
  return faces.find((f) => Math.abs(f.box.x - x) < w / 3 && Math.abs(f.box.y - y) < h / 3);
}
