// A minimal zip writer (stored, no compression): enough to hand over an OpenDC experiment as
// one download (experiment.json, topology.json, workload/*.parquet, carbon.parquet).
const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** files: [[name, Uint8Array | string]] -> a Blob of the zip archive. */
export function zip(files) {
  const enc = new TextEncoder();
  const parts = [], central = [];
  let offset = 0;
  for (const [name, content] of files) {
    const data = typeof content === 'string' ? enc.encode(content) : content;
    const fname = enc.encode(name), crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true); local.setUint16(4, 20, true); local.setUint16(6, 0x0800, true);
    local.setUint16(8, 0, true); local.setUint16(10, 0, true); local.setUint16(12, 0x21, true); // 1980-01-01
    local.setUint32(14, crc, true); local.setUint32(18, data.length, true); local.setUint32(22, data.length, true);
    local.setUint16(26, fname.length, true); local.setUint16(28, 0, true);
    const dir = new DataView(new ArrayBuffer(46));
    dir.setUint32(0, 0x02014b50, true); dir.setUint16(4, 20, true); dir.setUint16(6, 20, true); dir.setUint16(8, 0x0800, true);
    dir.setUint16(10, 0, true); dir.setUint16(12, 0, true); dir.setUint16(14, 0x21, true);
    dir.setUint32(16, crc, true); dir.setUint32(20, data.length, true); dir.setUint32(24, data.length, true);
    dir.setUint16(28, fname.length, true); dir.setUint32(42, offset, true);
    parts.push(local, fname, data);
    central.push(dir, fname);
    offset += 30 + fname.length + data.length;
  }
  const size = central.reduce((n, p) => n + p.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true); end.setUint16(8, files.length, true); end.setUint16(10, files.length, true);
  end.setUint32(12, size, true); end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, end], { type: 'application/zip' });
}

/** An OpenDC 3 experiment folder as a zip, from the answer of `exportOpenDc3Experiment` or
 * `exportOpenDc3Portfolio` ({experiment, notes, tasks, fragments, carbon}). */
export function opendc3Zip(value) {
  const notes = ['# Continuing this study in OpenDC 3 (`opendc run experiment.json`)', '', ...value.notes.map((n) => `- ${n}`), ''].join('\n');
  /** @type {[string, string | Uint8Array][]} */
  const files = [['experiment.json', JSON.stringify(value.experiment, null, 2)], ['NOTES.md', notes],
    ['workload/tasks.parquet', value.tasks], ['workload/fragments.parquet', value.fragments]];
  if (value.carbon) files.push(['carbon.parquet', value.carbon]);
  return zip(files);
}
