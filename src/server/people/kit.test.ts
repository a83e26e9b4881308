// Kit colour: a shirt's colour read from a loose person box, held along a track, and told
// against an event's teams, two of them in similar colours, under lights that change.
import { describe, expect, it } from 'vitest';
import { groundBeside, hexToLab, kitDistance, kitOfTrack, kitsAsSeen, labToHex, rgbToLab, shirtColour as colourIn, teamOfKit, torsoRegion, type Lab } from './kit';

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

  it('leaves the pitch out of a far player’s shirt, unless the shirt is the pitch’s colour', () => {
    // A thin far player in a loose box on grass: nearly two thirds of the shirt region is pitch.
    const farPlayer = (shirt: [number, number, number]) => {
      const [width, height] = [120, 120];
      const data = new Uint8Array(width * height * 3);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const inBody = x >= 57 && x < 63;
          const c: [number, number, number] = inBody && y >= 30 && y < 60 ? shirt : inBody && y >= 20 && y < 30 ? [205, 160, 130] : [60, 130, 60];
          data.set(c, (y * width + x) * 3);
        }
      }
      return { frame: { data, width, height }, box: { x: 40, y: 20, w: 40, h: 80 } };
    };
    const red = farPlayer([200, 16, 46]);
    const region = torsoRegion(red.box, red.frame)!;
    const ground = groundBeside(red.frame, red.box)!;
    expect(kitDistance(ground, rgbToLab(60, 130, 60))).toBeLessThan(1);
    expect(kitDistance(colourIn(red.frame, region), rgbToLab(60, 130, 60))).toBeLessThan(3);
    expect(kitDistance(colourIn(red.frame, region, ground), rgbToLab(200, 16, 46))).toBeLessThan(3);
    // A green shirt on the grass: too little would be left, so the whole region counts as before.
    const green = farPlayer([64, 134, 64]);
    expect(kitDistance(colourIn(green.frame, region, groundBeside(green.frame, green.box)), rgbToLab(60, 130, 60))).toBeLessThan(4);
    // At the frame's edge there is no ground beside on that side, and none at all for a box filling the frame.
    expect(groundBeside(red.frame, { x: 0, y: 0, w: 120, h: 120 })).toBeNull();
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

  describe('the kits as a camera shows them', () => {
    const stripes = [
      { teamId: 'stripes', colours: ['#186ebf'] },
      { teamId: 'red', colours: ['#c8102e'] },
    ];
    // A far player's royal-blue and white stripes as a broadcast camera records them: one grey blue.
    const BLEND: [number, number, number] = [137, 155, 172];
    const blended = (light: number) => {
      const { frame, box } = personFrame(BLEND, BLEND, light);
      return shirtColour(frame, box)!;
    };
    const reds = [0.9, 1, 1.1].map((light) => shirtColour(personFrame([200, 16, 46], [255, 255, 255], light).frame, personFrame([200, 16, 46], [255, 255, 255], light).box)!);

    it('learns a striped kit from the camera’s tracks: a blend the colour given does not name is named once three tracks show it', () => {
      const kits = [0.9, 0.95, 1, 1.05, 1.1].map(blended);
      expect(teamOfKit(kits[2]!, stripes)).toBeNull();
      const seen = kitsAsSeen([...kits, ...reds], stripes);
      expect(seen.find((t) => t.teamId === 'stripes')!.colours).toHaveLength(2);
      for (const kit of kits) expect(teamOfKit(kit, seen)?.teamId).toBe('stripes');
      // The red team's camera colour is its given one: nothing is added, and red stays red.
      expect(seen.find((t) => t.teamId === 'red')!.colours).toEqual(['#c8102e']);
      for (const kit of reds) expect(teamOfKit(kit, seen)?.teamId).toBe('red');
      // The given colours are left as they were.
      expect(stripes[0]!.colours).toEqual(['#186ebf']);
    });

    it('learns nothing from two tracks, from kits too far from every team, or from kits between two teams', () => {
      expect(kitsAsSeen([blended(1), blended(1.05), ...reds], stripes)).toEqual(stripes);
      const green = Array.from({ length: 5 }, () => hexToLab('#2e8b57'));
      expect(kitsAsSeen(green, stripes)).toEqual(stripes);
      // Navy and black given: a dark grey between them is neither's, however many tracks show it.
      const dark = [
        { teamId: 'navy', colours: ['#1f2a5a'] },
        { teamId: 'black', colours: ['#151515'] },
      ];
      expect(kitsAsSeen(Array.from({ length: 6 }, () => hexToLab('#2a2d3a')), dark)).toEqual(dark);
      expect(kitsAsSeen([blended(1)], [])).toEqual([]);
    });

    it('still tells no team where the camera shows two teams alike', () => {
      // A white team beside the stripes: the blend lies nearer white than royal blue, so it is
      // taken as the white team's, which already names it: the stripes learn nothing from it.
      const withWhite = [...stripes, { teamId: 'white', colours: ['#f0f0f0'] }];
      const kits = [0.9, 0.95, 1, 1.05, 1.1].map(blended);
      const seen = kitsAsSeen([...kits, ...Array.from({ length: 4 }, () => hexToLab('#e8e8e8'))], withWhite);
      expect(seen.find((t) => t.teamId === 'stripes')!.colours).toEqual(['#186ebf']);
      for (const kit of kits) expect(teamOfKit(kit, seen)?.teamId).not.toBe('stripes');
    });
  });
});
