import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { storageErrors } from './errors.ts';

/**
 * Object bytes on disk, laid out as Storage's file backend does:
 * `<root>/<bucket>/<key…>/<version>`. Every upload gets a fresh version, so a new file never
 * overwrites one a reader may be streaming, and a failed write leaves the current one intact.
 * Bytes are first written under `<root>/.tmp` and renamed into place (atomic on one filesystem).
 */

export interface WrittenFile {
  tempPath: string;
  size: number;
  /** Quoted MD5 of the bytes, as Storage reports it. */
  eTag: string;
}

export interface ByteRange {
  start: number;
  end: number;
}

const TEMP_DIR = '.tmp';

export class ObjectStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /**
   * The file of one object version. Every part is checked again here (not only at the HTTP
   * edge), because bucket ids can also come from SQL: nothing may resolve outside the root.
   */
  filePath(bucketId: string, key: string, version: string): string {
    const relative = [bucketId, key, version].join('/');
    const segments = relative.split('/');
    if (
      bucketId.includes('/') ||
      relative.includes('\0') ||
      path.isAbsolute(key) ||
      segments.some((segment) => segment === '' || segment === '.' || segment === '..') ||
      segments[0] === TEMP_DIR
    ) {
      throw storageErrors.invalidKey(`${bucketId}/${key}`, 'resolves outside storage directory');
    }
    const resolved = path.resolve(this.root, ...segments);
    if (!resolved.startsWith(this.root + path.sep)) {
      throw storageErrors.invalidKey(`${bucketId}/${key}`, 'resolves outside storage directory');
    }
    return resolved;
  }

  /**
   * Streams `chunks` into a temporary file, refusing (and deleting it) as soon as more than
   * `maxBytes` arrived, so an oversized upload never lands in full.
   */
  async writeTemp(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<WrittenFile> {
    const dir = path.join(this.root, TEMP_DIR);
    await fsp.mkdir(dir, { recursive: true });
    const tempPath = path.join(dir, randomUUID());
    const hash = createHash('md5');
    let size = 0;
    const out = fs.createWriteStream(tempPath, { flags: 'wx' });
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => {});
    try {
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (size > maxBytes) throw storageErrors.entityTooLarge();
        hash.update(chunk);
        if (!out.write(chunk)) {
          await Promise.race([
            new Promise<void>((resolve) => out.once('drain', () => resolve())),
            failed,
          ]);
        }
      }
      await Promise.race([new Promise<void>((resolve) => out.end(resolve)), failed]);
      return { tempPath, size, eTag: `"${hash.digest('hex')}"` };
    } catch (error) {
      out.destroy();
      await fsp.rm(tempPath, { force: true });
      throw error;
    }
  }

  async discardTemp(file: WrittenFile): Promise<void> {
    await fsp.rm(file.tempPath, { force: true });
  }

  /** Moves a finished temporary file to its version path. */
  async place(file: WrittenFile, bucketId: string, key: string, version: string): Promise<void> {
    const target = this.filePath(bucketId, key, version);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(file.tempPath, target);
  }

  /** A new version sharing the bytes of an existing one (copy and move). */
  async duplicate(
    from: { bucketId: string; key: string; version: string },
    to: { bucketId: string; key: string; version: string },
  ): Promise<void> {
    const source = this.filePath(from.bucketId, from.key, from.version);
    const target = this.filePath(to.bucketId, to.key, to.version);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.link(source, target);
    } catch {
      await fsp.copyFile(source, target, fs.constants.COPYFILE_EXCL);
    }
  }

  async exists(bucketId: string, key: string, version: string): Promise<boolean> {
    try {
      await fsp.access(this.filePath(bucketId, key, version));
      return true;
    } catch {
      return false;
    }
  }

  /** Deletes one version's file and any folders it leaves empty, up to the bucket folder. */
  async remove(bucketId: string, key: string, version: string): Promise<void> {
    const file = this.filePath(bucketId, key, version);
    await fsp.rm(file, { force: true });
    const bucketDir = path.join(this.root, bucketId);
    for (let dir = path.dirname(file); dir.startsWith(bucketDir + path.sep);) {
      try {
        await fsp.rmdir(dir);
      } catch {
        break; // not empty (another key or version lives here)
      }
      dir = path.dirname(dir);
    }
  }

  /**
   * Deletes the files of object rows that are already gone from the database (committed), so
   * no reader of a still-visible row ever loses its bytes.
   */
  async removeVersions(
    rows: { bucket_id: string; name: string; version: string | null }[],
  ): Promise<void> {
    for (const row of rows) {
      if (row.version) await this.remove(row.bucket_id, row.name, row.version);
    }
  }

  async size(bucketId: string, key: string, version: string): Promise<number> {
    return (await fsp.stat(this.filePath(bucketId, key, version))).size;
  }

  /** The bytes (or one range of them) as a web stream for a Response body. */
  read(bucketId: string, key: string, version: string, range?: ByteRange): ReadableStream {
    const stream = fs.createReadStream(this.filePath(bucketId, key, version), range);
    return Readable.toWeb(stream) as ReadableStream;
  }
}
