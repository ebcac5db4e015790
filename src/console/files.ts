/**
 * The storage plane's file API, called from the browser with a zone's password: listing, uploads
 * through XMLHttpRequest (the only browser API that reports an upload's progress; the browser
 * streams the file from disk), downloads, deletes and folders. Its address is the storage plane's
 * (another port of this server, by default), which the user may change; kept in local storage.
 * `sendWithProgress` serves the video plane's uploads too.
 */
import { problemOf } from './api';

export interface StorageObject {
  ObjectName: string;
  Path: string;
  IsDirectory: boolean;
  Length: number;
  LastChanged: string;
  Checksum: string | null;
}

/** The data planes the console calls besides the API, each at its own port (the file API, the video API). */
export type Plane = 'storage' | 'video';

/** A plane's address: the user's choice, else the plane's port on this host (GET /console/planes.json). */
export async function planeAddress(plane: Plane): Promise<string> {
  const chosen = localStorage.getItem(`edgeplane.${plane}Address`);
  if (chosen) return chosen;
  const ports = (await fetch('/console/planes.json').then((r) => r.json())) as Record<Plane, number | null>;
  return `${location.protocol}//${location.hostname}:${ports[plane] ?? (plane === 'storage' ? 8081 : 8084)}`;
}

export const choosePlaneAddress = (plane: Plane, address: string) => localStorage.setItem(`edgeplane.${plane}Address`, address.replace(/\/+$/, ''));

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export class FileApi {
  constructor(
    readonly address: string,
    readonly zone: string,
    private readonly password: string,
  ) {}

  private url(path: string): string {
    return `${this.address}/${encodeURIComponent(this.zone)}/${encodePath(path)}`;
  }

  private async send(method: string, path: string): Promise<Response> {
    const response = await fetch(this.url(path), { method, headers: { AccessKey: this.password } });
    if (!response.ok) throw await problemOf(response);
    return response;
  }

  /** The folder's entries; `folder` ends with `/` (or is empty: the zone's root). */
  async list(folder: string): Promise<StorageObject[]> {
    return (await (await this.send('GET', folder)).json()) as StorageObject[];
  }

  async download(path: string): Promise<Blob> {
    return (await this.send('GET', path)).blob();
  }

  async remove(path: string): Promise<void> {
    await this.send('DELETE', path);
  }

  async createFolder(path: string): Promise<void> {
    await this.send('PUT', path.endsWith('/') ? path : `${path}/`);
  }

  /** Uploads a file, reporting the bytes sent; `abort` stops it (the server keeps nothing of it). */
  upload(path: string, file: File, progress: (sent: number, total: number) => void): Upload {
    return sendWithProgress('PUT', this.url(path), { AccessKey: this.password, 'Content-Type': 'application/octet-stream' }, file, progress);
  }
}

export interface Upload {
  done: Promise<void>;
  abort: () => void;
}

/** Sends a file with XMLHttpRequest, reporting the bytes sent (fetch cannot report an upload's progress). */
export function sendWithProgress(
  method: string,
  url: string,
  headers: Record<string, string>,
  file: File,
  progress: (sent: number, total: number) => void,
): Upload {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => progress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      problemOf(new Response(xhr.responseText, { status: xhr.status, statusText: xhr.statusText })).then(reject, reject);
    };
    xhr.onerror = () => reject(new Error(`The upload of ${file.name} failed: ${new URL(url).origin} could not be reached.`));
    xhr.onabort = () => reject(new Error(`The upload of ${file.name} was stopped.`));
    xhr.send(file);
  });
  return { done, abort: () => xhr.abort() };
}
