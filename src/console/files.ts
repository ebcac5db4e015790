/**
 * The storage plane's file API, called from the browser with a zone's password: listing, uploads
 * through XMLHttpRequest (the only browser API that reports an upload's progress; the browser
 * streams the file from disk), downloads (streamed to disk: download-worker.ts), deletes and folders. Its address is the storage plane's
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

  /**
   * Saves a file as the browser saves downloads, streamed: through the download worker where the
   * page may have one (a secure context: https, or this machine), else to a file the user picks
   * (the File System Access API), else — only then — read whole into memory first.
   */
  async save(path: string, name: string): Promise<void> {
    if (await streamedDownload(this.url(path), this.password, name)) return;
    const picker = (window as unknown as { showSaveFilePicker?: (options: { suggestedName: string }) => Promise<FileSystemFileHandle> }).showSaveFilePicker;
    if (picker) {
      const handle = await picker({ suggestedName: name });
      const response = await this.send('GET', path);
      await response.body?.pipeTo(await handle.createWritable());
      return;
    }
    const url = URL.createObjectURL(await (await this.send('GET', path)).blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
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

let worker: Promise<ServiceWorker | undefined> | undefined;

/** The download worker, registered once and active; undefined where a page may not have one. */
function downloadWorker(): Promise<ServiceWorker | undefined> {
  worker ??= (async () => {
    if (!('serviceWorker' in navigator) || !isSecureContext) return undefined;
    try {
      const registration = await navigator.serviceWorker.register('/console/download-worker.js', { scope: '/console/download/' });
      const candidate = registration.active ?? registration.waiting ?? registration.installing;
      if (!candidate) return undefined;
      if (candidate.state !== 'activated')
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          candidate.addEventListener('statechange', () => {
            if (candidate.state === 'activated' || candidate.state === 'redundant') {
              clearTimeout(timer);
              resolve();
            }
          });
        });
      return registration.active ?? undefined;
    } catch {
      return undefined;
    }
  })();
  return worker;
}

interface WorkerAnswer {
  ready?: boolean;
  ok?: boolean;
  status?: number;
  body?: string;
}

/**
 * Streams a file API answer to disk through the download worker: the address and key go to the
 * worker by message, a hidden frame opens the one-time address it answers. False when there is
 * no worker (the caller falls back); an API error is thrown as the API's.
 */
async function streamedDownload(url: string, key: string, name: string): Promise<boolean> {
  const active = await downloadWorker();
  if (!active) return false;
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  const answers: WorkerAnswer[] = [];
  let wake: () => void = () => {};
  channel.port1.onmessage = (event: MessageEvent<WorkerAnswer>) => {
    answers.push(event.data);
    wake();
  };
  const next = async (): Promise<WorkerAnswer> => {
    while (answers.length === 0)
      await new Promise<void>((resolve, reject) => {
        wake = resolve;
        setTimeout(() => reject(new Error(`The download of ${name} did not start.`)), 30_000);
      });
    return answers.shift()!;
  };
  active.postMessage({ id, url, key, name }, [channel.port2]);
  await next();
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.title = `Download of ${name}`;
  frame.src = `/console/download/${id}`;
  document.body.append(frame);
  const answer = await next();
  channel.port1.close();
  // The frame goes once the browser has the download in hand.
  setTimeout(() => frame.remove(), 60_000);
  if (answer.ok) return true;
  if (answer.status) throw await problemOf(new Response(answer.body ?? '', { status: answer.status }));
  throw new Error(`The download of ${name} failed: ${answer.body ?? 'the file API could not be reached'}.`);
}
