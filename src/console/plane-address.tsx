/** The address of a data plane the console calls (the file API, the video API), shown and changeable. */
import { useState } from 'preact/hooks';
import { choosePlaneAddress, type Plane } from './files';

const NAMES: Record<Plane, { label: string; variable: string }> = {
  storage: { label: 'File API address', variable: 'EDGEPLANE_STORAGE_PORT' },
  video: { label: 'Video API address', variable: 'EDGEPLANE_VIDEO_PORT' },
};

export function PlaneAddress({ plane, address, chosen }: { plane: Plane; address: string; chosen: (address: string) => void }) {
  const [draft, setDraft] = useState(address);
  const { label, variable } = NAMES[plane];
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault();
        choosePlaneAddress(plane, draft.trim());
        chosen(draft.trim().replace(/\/+$/, ''));
      }}
    >
      <div class="field">
        <label for={`${plane}-address`}>{label}</label>
        <input id={`${plane}-address`} type="url" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} aria-describedby={`${plane}-address-help`} />
        <p class="help" id={`${plane}-address-help`}>
          Where this server's {plane} plane listens (its port is {variable}); kept in this browser.
        </p>
      </div>
      <button type="submit">Use this address</button>
    </form>
  );
}
