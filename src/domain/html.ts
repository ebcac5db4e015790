/** Text put into HTML: the pages edgeplane writes itself (the edge's error, challenge and preloading pages, the video embed). */
import { createHash } from 'node:crypto';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The text as HTML shows it, in an element or a quoted attribute. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The Content-Security-Policy source that allows one inline `<style>` or `<script>` by its exact content. */
export const inlineSource = (content: string): string => `'sha256-${createHash('sha256').update(content).digest('base64')}'`;
