import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * Reading a file an agent under test could have planted (its session logs live in its own writable HOME):
 * opened without following a symlink and without blocking (a FIFO there must not hang Gauntlet), read only
 * if it is a regular file, and at most `maxBytes` of it.
 *
 * @returns the text (UTF-8; cut at `maxBytes`), or undefined for a missing file, a symlink, a FIFO, a device
 *   or a directory
 */
export function readAgentFile(file: string, maxBytes = 32 * 1024 * 1024): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const size = Math.min(stat.size, maxBytes);
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
