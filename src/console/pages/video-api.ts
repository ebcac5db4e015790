/** The video plane's API for one library, called from the browser with the library's own key. */
import { problemOf } from '../api';
import { sendWithProgress } from '../files';

export interface Caption {
  srclang: string;
  label: string | null;
}

export interface Chapter {
  title: string;
  start: number;
  end: number;
}

export interface Video {
  guid: string;
  title: string;
  status: number;
  encodeProgress: number;
  length: number;
  collectionId: string | null;
  captions: Caption[] | null;
  chapters: Chapter[] | null;
}

export interface Collection {
  guid: string;
  name: string | null;
  videoCount: number;
}

export class VideoApi {
  constructor(
    readonly address: string,
    readonly libraryId: number,
    private readonly key: string,
  ) {}

  /** The plane's own OpenAPI document, which the forms are made from. */
  get document(): string {
    return `${this.address}/openapi.json`;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { AccessKey: this.key, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.address}/library/${this.libraryId}${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!response.ok) throw await problemOf(response);
    return (await response.json()) as T;
  }

  list = () => this.call<{ items: Video[] | null }>('GET', '/videos?page=1&itemsPerPage=100').then((page) => page.items ?? []);
  get = (guid: string) => this.call<Video>('GET', `/videos/${guid}`);
  create = (title: string) => this.call<Video>('POST', '/videos', { title });
  update = (guid: string, body: Record<string, unknown>) => this.call('POST', `/videos/${guid}`, body);
  remove = (guid: string) => this.call('DELETE', `/videos/${guid}`);
  addCaption = (guid: string, srclang: string, body: Record<string, unknown>) =>
    this.call('POST', `/videos/${guid}/captions/${encodeURIComponent(srclang)}`, body);
  removeCaption = (guid: string, srclang: string) => this.call('DELETE', `/videos/${guid}/captions/${encodeURIComponent(srclang)}`);
  collections = () => this.call<{ items: Collection[] | null }>('GET', '/collections?page=1&itemsPerPage=1000').then((page) => page.items ?? []);
  createCollection = (body: Record<string, unknown>) => this.call<Collection>('POST', '/collections', body);
  removeCollection = (guid: string) => this.call('DELETE', `/collections/${guid}`);
  upload = (guid: string, file: File, progress: (sent: number, total: number) => void) =>
    sendWithProgress(
      'PUT',
      `${this.address}/library/${this.libraryId}/videos/${guid}`,
      { AccessKey: this.key, 'Content-Type': 'application/octet-stream' },
      file,
      progress,
    );
  player = (guid: string) => `${this.address}/embed/${this.libraryId}/${guid}`;
}
