/** The server from source (`npm run dev`, the tests); `npm start` runs the bundle's entry, src/boot/server-entry.ts. */
import { start } from './start.js';

await start();
