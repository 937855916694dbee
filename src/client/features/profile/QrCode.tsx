import { Box } from '@mui/material';
import { useMemo } from 'react';
import { encode } from 'uqr';

/** One SVG path of the dark modules: a square per module, drawn as one shape (crisp at any size). */
function modulePath(data: boolean[][]): string {
  const parts: string[] = [];
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return parts.join('');
}

/**
 * A QR code of `value` as an inline SVG, black on white whatever the colour scheme (scanners want the contrast), with
 * a quiet zone of four modules. Loaded with the two-factor setup only, so the encoder stays out of other screens.
 */
export function QrCode({ value, label, size = 200 }: { value: string; label: string; size?: number }) {
  const qr = useMemo(() => encode(value, { ecc: 'M', border: 4 }), [value]);
  return (
    <Box sx={{ bgcolor: 'common.white', width: size, height: size, flexShrink: 0 }}>
      <svg
        role="img"
        aria-label={label}
        viewBox={`0 0 ${qr.size} ${qr.size}`}
        width={size}
        height={size}
        shapeRendering="crispEdges"
      >
        <rect width={qr.size} height={qr.size} fill="white" />
        <path d={modulePath(qr.data)} fill="black" />
      </svg>
    </Box>
  );
}

export default QrCode;
