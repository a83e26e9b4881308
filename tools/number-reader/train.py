"""Trains the shirt-number reader (src/server/people/number-net.ts) on made-up shirts.

Real game footage shows a far player's number 6 to 16 pixels tall, blurred by the lens and the
encoder; Tesseract reads nothing there. No labelled set of such crops may be shipped, so the
reader learns from shirts drawn here: the numbers 0 to 99 in the bold fonts Debian ships
(render-glyphs.mjs), on a shirt of any grey with folds and shading, turned, sheared and rotated,
arms or grass at the sides, sometimes partly covered, then shrunk to the size a far camera gives,
blurred, noised and grown back to the reader's 32 x 32 input exactly as the product does. A
quarter of the shirts carry no number (plain, striped, a sponsor's small print, a number mostly out
of the picture) and are labelled so.

The net: three 3x3 convolutions (16, 32, 64 channels, each followed by ReLU and 2x2 max pooling),
a 128-wide layer, and three heads: how many digits (none, one, two), the units digit and the tens
digit. Written in numpy (the machine has no deep-learning framework; numpy's BLAS is enough for
a net this small). Writes the weights as float32, in the order number-net.ts reads them.

    node tools/number-reader/render-glyphs.mjs /tmp/number-reader
    python3 tools/number-reader/train.py /tmp/number-reader src/server/people/number-net.bin
"""
import sys
import time

import numpy as np
from scipy import ndimage

SIZE = 32
CANVAS = 64
rng = np.random.default_rng(35)


def bilinear(img, out_h, out_w):
    """Resamples like number-net.ts: sample centres mapped to source centres, edges clamped."""
    h, w = img.shape
    ys = np.clip((np.arange(out_h) + 0.5) * h / out_h - 0.5, 0, h - 1)
    xs = np.clip((np.arange(out_w) + 0.5) * w / out_w - 0.5, 0, w - 1)
    y0 = np.floor(ys).astype(int)
    x0 = np.floor(xs).astype(int)
    y1 = np.minimum(y0 + 1, h - 1)
    x1 = np.minimum(x0 + 1, w - 1)
    fy = (ys - y0)[:, None]
    fx = (xs - x0)[None, :]
    top = img[y0][:, x0] * (1 - fx) + img[y0][:, x1] * fx
    bottom = img[y1][:, x0] * (1 - fx) + img[y1][:, x1] * fx
    return top * (1 - fy) + bottom * fy


def low_frequency(h, w, amount):
    """Folds and shading: smooth noise of a shirt's cloth."""
    coarse = rng.normal(0, 1, (4, 4))
    return bilinear(coarse, h, w) * amount


def shirt(glyphs, label):
    """One made-up number region (CANVAS x CANVAS, grey 0..255) and its label (-1: no number).

    Laid out as the product's number region falls on a player's box: the shirt's body from the
    shoulders down, a head above it now and then, the pitch or court at the sides, and the number
    in the body's upper middle (a back's number sits lower than the region's centre).
    """
    base = rng.uniform(15, 245)
    ink = base
    while abs(ink - base) < 45:
        ink = rng.uniform(0, 255)
    yy, xx = np.mgrid[:CANVAS, :CANVAS].astype(np.float32)
    img = rng.uniform(0, 255) + low_frequency(CANVAS, CANVAS, rng.uniform(0, 25))
    # The body: shoulders sloping in from the top corners, sides a little inside the region.
    top = rng.uniform(-0.1, 0.3) * CANVAS
    left = rng.uniform(-0.05, 0.2) * CANVAS
    right = CANVAS - rng.uniform(-0.05, 0.2) * CANVAS
    slope = rng.uniform(0.05, 0.3) * CANVAS
    shoulder = rng.uniform(0.1, 0.25) * CANVAS
    inset = np.clip((top + shoulder - yy) / shoulder, 0, 1) * slope
    body = (yy >= top) & (xx >= left + inset) & (xx <= right - inset)
    cloth = base + low_frequency(CANVAS, CANVAS, rng.uniform(0, 18)) + (xx / CANVAS - 0.5) * rng.uniform(-25, 25)
    img = np.where(body, cloth, img)
    if rng.random() < 0.7:
        # The head (hair or skin) above the collar.
        hx = (left + right) / 2 + rng.normal(0, 0.06) * CANVAS
        r = rng.uniform(0.08, 0.16) * CANVAS
        img = np.where((yy - top) ** 2 / (r * 1.2) ** 2 + (xx - hx) ** 2 / r**2 < 1, rng.uniform(10, 200), img)
    kind = rng.random()
    if label >= 0 or kind < 0.4:
        number = label if label >= 0 else int(rng.integers(0, 100))
        mask = glyphs[int(rng.integers(0, glyphs.shape[0])), number].astype(np.float32) / 255
        # The digits: 28-65 % of the region's height, their centre 42-72 % down and near the middle.
        height = rng.uniform(0.28, 0.65) * CANVAS
        scale = height / 53
        squeeze = rng.uniform(0.55, 1.15)
        angle = np.deg2rad(rng.normal(0, 6))
        shear = rng.normal(0, 0.12)
        cx = (left + right) / 2 + rng.uniform(-0.12, 0.12) * CANVAS
        cy = rng.uniform(0.42, 0.72) * CANVAS
        if label < 0:
            # A number mostly out of the picture.
            side = rng.choice([-1, 1])
            if rng.random() < 0.5:
                cx = CANVAS / 2 + side * rng.uniform(0.55, 0.9) * CANVAS
            else:
                cy = CANVAS / 2 + side * rng.uniform(0.55, 0.8) * CANVAS
        elif rng.random() < 0.4:
            # The player's name in small print above the number.
            y = int(cy - height / 2 - rng.uniform(3, 9))
            width = int(rng.uniform(0.3, 0.6) * CANVAS)
            x = int(cx - width / 2)
            if y > 2:
                img[max(0, y - int(rng.integers(3, 6))) : y, max(0, x) : x + width] = ink * 0.7 + base * 0.3
        # Output (canvas) coordinates to mask coordinates.
        c, s_ = np.cos(angle), np.sin(angle)
        forward = np.array([[c, -s_], [s_, c]]) @ np.array([[1, 0], [shear, 1]]) @ np.diag([scale, scale * squeeze])
        inverse = np.linalg.inv(forward)
        centre_mask = np.array([29.0, 64.0])
        offset = centre_mask - inverse @ np.array([cy, cx])
        ink_alpha = ndimage.affine_transform(mask, inverse, offset=offset, output_shape=(CANVAS, CANVAS), order=1, cval=0)
        if rng.random() < 0.3:
            # An outline of a third grey around the digits, as many kits print.
            outline = ndimage.grey_dilation(ink_alpha, size=(3, 3))
            edge = rng.uniform(0, 255)
            img = img * (1 - outline) + edge * outline
        img = img * (1 - ink_alpha) + (ink + rng.normal(0, 6)) * ink_alpha
    elif kind < 0.6:
        # Stripes: a striped kit's back with no number.
        period = rng.uniform(6, 18)
        phase = rng.uniform(0, period)
        stripe = (((xx + phase) % period) < period / 2) & body
        img = np.where(stripe, ink, img)
    elif kind < 0.8:
        # A sponsor's small print or a crest: a few small marks.
        for _ in range(int(rng.integers(1, 6))):
            y, x = rng.integers(0, CANVAS - 6, 2)
            img[y : y + int(rng.integers(2, 6)), x : x + int(rng.integers(3, 20))] = ink
    # Arms at the sides, in the shirt's colour or skin.
    for side in (0, 1):
        if rng.random() < 0.4:
            width = rng.uniform(0.06, 0.18) * CANVAS
            edge = (left + inset) if side == 0 else (right - inset)
            arm = (np.abs(xx - edge) < width / 2) & (yy > top + shoulder * 0.5)
            img = np.where(arm, rng.choice([base, rng.uniform(40, 220)]) + rng.normal(0, 8), img)
    if rng.random() < 0.15:
        # Something in front: another player's arm, the ball.
        y, x = rng.integers(0, CANVAS, 2)
        r = rng.uniform(4, 14)
        img = np.where((yy - y) ** 2 + (xx - x) ** 2 < r * r, rng.uniform(0, 255), img)
    if rng.random() < 0.2:
        # A running player's motion blur: the picture averaged along a short line.
        length = rng.uniform(2, 0.08 * CANVAS)
        angle = rng.uniform(0, np.pi)
        steps = max(2, int(length))
        img = np.mean([ndimage.shift(img, (np.sin(angle) * d, np.cos(angle) * d), order=1, mode="nearest") for d in np.linspace(-length / 2, length / 2, steps)], axis=0)
    return img.astype(np.float32), label


def as_camera_sees(img):
    """Shrunk to a far camera's size, blurred, noised, then grown to the reader's input."""
    digit_px = rng.uniform(7, 18)
    small_h = max(6, int(round(digit_px / 0.5)))
    small_w = max(5, int(round(small_h * rng.uniform(0.55, 1.0))))
    factor = CANVAS / small_h
    blurred = ndimage.gaussian_filter(img, sigma=(0.45 * factor, 0.45 * CANVAS / small_w))
    small = bilinear(blurred, small_h, small_w)
    small = ndimage.gaussian_filter(small, rng.uniform(0, 0.8))
    small += rng.normal(0, rng.uniform(1, 7), small.shape)
    # An encoder's flattening: each 2x2 block pulled toward its mean.
    if rng.random() < 0.5:
        k = rng.uniform(0.2, 0.6)
        hh, ww = small_h // 2 * 2, small_w // 2 * 2
        block = small[:hh, :ww].reshape(hh // 2, 2, ww // 2, 2).mean(axis=(1, 3))
        small[:hh, :ww] = small[:hh, :ww] * (1 - k) + np.repeat(np.repeat(block, 2, 0), 2, 1) * k
    small = np.clip(np.round(small), 0, 255)
    return normalise(bilinear(small, SIZE, SIZE))


def normalise(grey):
    """As number-net.ts: each crop's own mean and spread, so a dim camera reads like a bright one."""
    return ((grey - grey.mean()) / (grey.std() + 8)).astype(np.float32)


def make_set(glyphs, n):
    xs = np.empty((n, 1, SIZE, SIZE), np.float32)
    count = np.empty(n, np.int64)
    units = np.empty(n, np.int64)
    tens = np.empty(n, np.int64)
    for i in range(n):
        # A quarter with no number; of the rest, three in ten one digit (rosters wear many).
        draw = rng.random()
        label = -1 if draw < 0.25 else int(rng.integers(0, 10)) if draw < 0.475 else int(rng.integers(10, 100))
        img, label = shirt(glyphs, label)
        xs[i, 0] = as_camera_sees(img)
        count[i] = 0 if label < 0 else (1 if label < 10 else 2)
        units[i] = max(label, 0) % 10
        tens[i] = max(label, 0) // 10
    return xs, count, units, tens


# ---- the net, forward and backward ----

def im2col(x):
    n, c, h, w = x.shape
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = np.empty((n, c, 3, 3, h, w), x.dtype)
    for dy in range(3):
        for dx in range(3):
            cols[:, :, dy, dx] = p[:, :, dy : dy + h, dx : dx + w]
    return cols.transpose(0, 4, 5, 1, 2, 3).reshape(n * h * w, c * 9)


def col2im(cols, shape):
    n, c, h, w = shape
    cols = cols.reshape(n, h, w, c, 3, 3).transpose(0, 3, 4, 5, 1, 2)
    p = np.zeros((n, c, h + 2, w + 2), cols.dtype)
    for dy in range(3):
        for dx in range(3):
            p[:, :, dy : dy + h, dx : dx + w] += cols[:, :, dy, dx]
    return p[:, :, 1:-1, 1:-1]


def init(shape, fan_in):
    return (rng.normal(0, np.sqrt(2 / fan_in), shape)).astype(np.float32)


CHANNELS = [1, 16, 32, 64]
params = {}
for i in range(3):
    cin, cout = CHANNELS[i], CHANNELS[i + 1]
    params[f"c{i}w"] = init((cout, cin * 9), cin * 9)
    params[f"c{i}b"] = np.zeros(cout, np.float32)
params["fw"] = init((64 * 4 * 4, 128), 64 * 16)
params["fb"] = np.zeros(128, np.float32)
params["hw"] = init((128, 23), 128)
params["hb"] = np.zeros(23, np.float32)


def forward(x, keep=False):
    cache = []
    a = x
    for i in range(3):
        n, c, h, w = a.shape
        cols = im2col(a)
        z = cols @ params[f"c{i}w"].T + params[f"c{i}b"]
        z = z.reshape(n, h, w, -1).transpose(0, 3, 1, 2)
        r = np.maximum(z, 0)
        pooled = r.reshape(n, r.shape[1], h // 2, 2, w // 2, 2).max(axis=(3, 5))
        if keep:
            cache.append((a.shape, cols, z, r, pooled))
        a = pooled
    flat = a.reshape(a.shape[0], -1)
    hidden_z = flat @ params["fw"] + params["fb"]
    hidden = np.maximum(hidden_z, 0)
    logits = hidden @ params["hw"] + params["hb"]
    return logits, (cache, flat, hidden_z, hidden)


def softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def loss_and_grads(x, count, units, tens):
    logits, (cache, flat, hidden_z, hidden) = forward(x, keep=True)
    n = x.shape[0]
    pc, pu, pt = softmax(logits[:, :3]), softmax(logits[:, 3:13]), softmax(logits[:, 13:23])
    has_units = (count >= 1).astype(np.float32)
    has_tens = (count == 2).astype(np.float32)
    idx = np.arange(n)
    loss = -np.log(pc[idx, count] + 1e-9).mean() - (has_units * np.log(pu[idx, units] + 1e-9)).mean() - (has_tens * np.log(pt[idx, tens] + 1e-9)).mean()
    d = np.zeros_like(logits)
    gc = pc.copy(); gc[idx, count] -= 1
    gu = pu.copy(); gu[idx, units] -= 1
    gt = pt.copy(); gt[idx, tens] -= 1
    d[:, :3] = gc
    d[:, 3:13] = gu * has_units[:, None]
    d[:, 13:23] = gt * has_tens[:, None]
    d /= n
    grads = {"hw": hidden.T @ d, "hb": d.sum(0)}
    dh = d @ params["hw"].T * (hidden_z > 0)
    grads["fw"] = flat.T @ dh
    grads["fb"] = dh.sum(0)
    da = (dh @ params["fw"].T).reshape(n, 64, 4, 4)
    for i in reversed(range(3)):
        shape, cols, z, r, pooled = cache[i]
        nn, c, h, w = r.shape
        # Max pooling's gradient goes to the largest of each 2x2 (ties share it).
        up = np.repeat(np.repeat(pooled, 2, 2), 2, 3)
        winners = (r == up).astype(np.float32)
        dr = winners * np.repeat(np.repeat(da, 2, 2), 2, 3)
        dz = dr * (z > 0)
        dz2 = dz.transpose(0, 2, 3, 1).reshape(-1, c)
        grads[f"c{i}w"] = dz2.T @ cols
        grads[f"c{i}b"] = dz2.sum(0)
        if i > 0:
            da = col2im(dz2 @ params[f"c{i}w"], shape)
    return loss, grads


def predict(x):
    out = []
    for i in range(0, x.shape[0], 512):
        out.append(forward(x[i : i + 512])[0])
    logits = np.concatenate(out)
    return softmax(logits[:, :3]), softmax(logits[:, 3:13]), softmax(logits[:, 13:23])


def number_of(pc, pu, pt):
    """The likeliest reading and its probability; -1 for no number."""
    best = np.where(pc[:, 0] >= 0, -1, 0)
    prob = pc[:, 0].copy()
    one = pc[:, 1] * pu.max(1)
    two = pc[:, 2] * pu.max(1) * pt.max(1)
    number = best.copy()
    number[one > prob] = pu.argmax(1)[one > prob]
    prob = np.maximum(prob, one)
    twos = two > prob
    number[twos] = (pt.argmax(1) * 10 + pu.argmax(1))[twos]
    prob = np.maximum(prob, two)
    return number, prob


def main():
    glyph_dir, out = sys.argv[1], sys.argv[2]
    epochs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    per_epoch = int(sys.argv[4]) if len(sys.argv) > 4 else 40000
    glyphs = np.fromfile(f"{glyph_dir}/glyphs.bin", np.uint8).reshape(-1, 100, 64, 128)
    started = time.time()
    test = make_set(glyphs, 3000)
    print(f"test set made in {time.time() - started:.0f}s", flush=True)
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(v) for k, v in params.items()}
    step = 0
    for epoch in range(epochs):
        xs, count, units, tens = make_set(glyphs, per_epoch)
        order = rng.permutation(per_epoch)
        lr = 0.002 * (0.7 ** epoch)
        total = 0.0
        for b in range(0, per_epoch, 128):
            sel = order[b : b + 128]
            loss, grads = loss_and_grads(xs[sel], count[sel], units[sel], tens[sel])
            total += loss * len(sel)
            step += 1
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                mh = m[k] / (1 - 0.9 ** step)
                vh = v[k] / (1 - 0.999 ** step)
                params[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        tx, tc, tu, tt = test
        number, prob = number_of(*predict(tx))
        truth = np.where(tc == 0, -1, np.where(tc == 1, tu, tt * 10 + tu))
        sure = prob >= 0.9
        print(f"epoch {epoch + 1}: loss {total / per_epoch:.3f}; test right {np.mean(number == truth):.3f}; "
              f"sure {sure.mean():.3f} of which right {np.mean(number[sure] == truth[sure]):.3f}; {time.time() - started:.0f}s", flush=True)
        save(out)


def save(out):
    order = ["c0w", "c0b", "c1w", "c1b", "c2w", "c2b", "fw", "fb", "hw", "hb"]
    np.concatenate([params[k].astype(np.float32).ravel() for k in order]).tofile(out)


if __name__ == "__main__":
    main()
