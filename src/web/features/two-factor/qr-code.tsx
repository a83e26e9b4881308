// A QR code drawn as SVG squares from uqr's matrix: no image request, nothing inline to allow in the CSP.
import { useMemo } from 'react';
import { encode } from 'uqr';

export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { path, modules } = useMemo(() => {
    const { data } = encode(text, { border: 2, ecc: 'M' });
    let d = '';
    data.forEach((row, y) => row.forEach((dark, x) => dark && (d += `M${x} ${y}h1v1h-1z`)));
    return { path: d, modules: data.length };
  }, [text]);
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges" className="rounded-md">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
