// Kit colour: a shirt's colour read from a loose person box, held along a track, and told
// against an event's teams, two of them in similar colours, under lights that change.
import { describe, expect, it } from 'vitest';
import { hexToLab, kitDistance, kitOfTrack, labToHex, rgbToLab, shirtColour as colourIn, teamOfKit, torsoRegion, type Lab } from './kit';

const shirtColour = (frame: { data: Uint8Array; width: number; height: number }, box: { x: number; y: number; w: number; h: number }) => colourIn(frame, torsoRegion(box, frame)!);

/** A 60 × 160 person box on a wooden floor: a shirt of `shirt` with a number block of `number`, skin above, shorts below; `light` scales every pixel. */
function personFrame(shirt: [number, number, number], number: [number, number, number], light = 1) {
  const width = 100;
  const height = 200;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let c: [number, number, number] = [188, 140, 90]; // the floor
      const inBody = x >= 30 && x < 70;
      if (inBody && y >= 20 && y < 45) c = [205, 160, 130]; // head
      if (inBody && y >= 45 && y < 110) c = shirt;
      if (x >= 42 && x < 58 && y >= 60 && y < 85) c = number;
      if (inBody && y >= 110 && y < 150) c = [30, 30, 30]; // shorts
      data.set(c.map((v) => Math.min(255, Math.round(v * light))), (y * width + x) * 3);
    }
  }
  return { frame: { data, width, height }, box: { x: 20, y: 20, w: 60, h: 160 } };
}

const NAVY: [number, number, number] = [31, 42, 90];
const teams = [
  { teamId: 'navy', colours: ['#1f2a5a'] },
  { teamId: 'black', colours: ['#151515', '#f2f2f2'] },
  { teamId: 'red', colours: ['#c8102e'] },
];

describe('kit colour', () => {
  it('converts colours to CIELAB and back', () => {
    for (const hex of ['#1f2a5a', '#c8102e', '#ffffff', '#000000', '#2e8b57']) expect(labToHex(hexToLab(hex))).toBe(hex);
    expect(rgbToLab(255, 255, 255)[0]).toBeCloseTo(100, 1);
  });

  it('reads the shirt from a loose box, not the number on it, the skin or the floor', () => {
    const { frame, box } = personFrame(NAVY, [240, 240, 240]);
    const colour = shirtColour(frame, box)!;
    expect(kitDistance(colour, rgbToLab(...NAVY))).toBeLessThan(3);
  });

  it('holds a track’s colour against a sample where an arm or a shadow covered the shirt', () => {
    const samples: Lab[] = [1, 0.95, 1.05, 1, 0.3].map((light) => shirtColour(personFrame(NAVY, [240, 240, 240], light).frame, personFrame(NAVY, [240, 240, 240], light).box)!);
    expect(kitDistance(kitOfTrack(samples)!, rgbToLab(...NAVY))).toBeLessThan(6);
    expect(kitOfTrack([])).toBeNull();
  });

  it('names navy against black in lights from 75 % to 125 %, and the black team’s away white', () => {
    for (const light of [0.75, 0.9, 1, 1.1, 1.25]) {
      const { frame, box } = personFrame(NAVY, [240, 240, 240], light);
      expect(teamOfKit(shirtColour(frame, box)!, teams)?.teamId, `light ${light}`).toBe('navy');
    }
    const away = personFrame([236, 236, 236], [20, 20, 20]);
    expect(teamOfKit(shirtColour(away.frame, away.box)!, teams)?.teamId).toBe('black');
  });

  it('says nothing rather than guess: a kit no team wears, or two teams in nearly the same colour', () => {
    const green = personFrame([46, 139, 87], [255, 255, 255]);
    expect(teamOfKit(shirtColour(green.frame, green.box)!, teams)).toBeNull();
    const alike = [
      { teamId: 'navy', colours: ['#1f2a5a'] },
      { teamId: 'midnight', colours: ['#232e62'] },
    ];
    const { frame, box } = personFrame(NAVY, [240, 240, 240]);
    expect(teamOfKit(shirtColour(frame, box)!, alike)).toBeNull();
    expect(teamOfKit(shirtColour(frame, box)!, [])).toBeNull();
  });
});
