/** Sign-in: the API key is tried against the API (GET /user) before it is kept for this tab. */
import { useState } from 'preact/hooks';
import { api, ApiError, errorText } from '../api';
import { session } from '../session';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (key.trim() === '') return setProblem('Enter an API key.');
    setBusy(true);
    try {
      await api.get('/user', { key: key.trim() });
      session.keep(key.trim());
      onSignedIn();
    } catch (error) {
      setProblem(error instanceof ApiError && error.status === 401 ? 'This API key was refused: check it and try again.' : errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>edgeplane console</h1>
      <form onSubmit={submit} noValidate>
        <div class={`field${problem ? ' invalid' : ''}`}>
          <label for="api-key">API key</label>
          <input
            id="api-key"
            type="password"
            autocomplete="off"
            value={key}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'api-key-error api-key-help' : 'api-key-help'}
            onInput={(e) => setKey(e.currentTarget.value)}
          />
          {problem ? (
            <p class="problem" id="api-key-error" role="alert">
              {problem}
            </p>
          ) : null}
          <p class="help" id="api-key-help">
            A key of your account (the `AccessKey` the API takes). It is kept in this tab only, until you sign out or close it.
          </p>
        </div>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p>
        The API's reference: <a href="/docs">/docs</a>.
      </p>
    </main>
  );
}
