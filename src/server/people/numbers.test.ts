import { describe, expect, it } from 'vitest';
import { chestRegion, jerseyOf, numberOfWords } from './numbers';

describe('a track’s jersey number', () => {
  it('is the number read most often, at least twice', () => {
    expect(jerseyOf([{ number: 12, confidence: 80 }, { number: 12, confidence: 75 }, { number: 17, confidence: 90 }])).toBe(12);
  });
  it('is none when two numbers are read as often', () => {
    expect(jerseyOf([{ number: 12, confidence: 95 }, { number: 7, confidence: 95 }])).toBeNull();
  });
  it('takes a single reading only when Tesseract is very sure of it', () => {
    expect(jerseyOf([{ number: 4, confidence: 90 }])).toBe(4);
    expect(jerseyOf([{ number: 4, confidence: 75 }])).toBeNull();
    expect(jerseyOf([])).toBeNull();
  });
});

describe('the chest under a face', () => {
  it('lies below the chin, wider than the face, inside the frame', () => {
    expect(chestRegion({ x: 100, y: 50, w: 80, h: 100 }, { width: 1280, height: 720 })).toEqual({ x: 36, y: 185, w: 208, h: 225 });
    // A face at the bottom edge has no chest to read.
    expect(chestRegion({ x: 100, y: 650, w: 60, h: 60 }, { width: 1280, height: 720 })).toBeNull();
  });
});

describe('the number among the words read on a shirt', () => {
  it('is the one- or two-digit word read with confidence, whatever noise is beside it', () => {
    expect(numberOfWords([{ text: '23', confidence: 96 }, { text: '8', confidence: 0 }])).toEqual({ number: 23, confidence: 96 });
    expect(numberOfWords([{ text: '7', confidence: 88 }, { text: '7', confidence: 91 }])).toEqual({ number: 7, confidence: 91 });
  });
  it('is none when nothing is legible, the digits are too many, or two numbers are both read with confidence', () => {
    expect(numberOfWords([])).toBeNull();
    expect(numberOfWords([{ text: '23', confidence: 55 }])).toBeNull();
    expect(numberOfWords([{ text: '2023', confidence: 95 }])).toBeNull();
    expect(numberOfWords([{ text: '12', confidence: 90 }, { text: '4', confidence: 85 }])).toBeNull();
  });
});
