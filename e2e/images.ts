// Images as a member's browser uploads them.

/** A small real PNG drawn with sharp (a server dependency), as the browser would upload it. */
export async function pngBuffer(width = 64, height = 64): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp({ create: { width, height, channels: 3, background: '#8b5a2b' } })
    .png()
    .toBuffer();
}
